/* The kernel command line: space-separated key=value options. Each option
 * is declared beside the value it sets, in the file that owns that value,
 * as Linux's early_param() does (include/linux/init.h): the declaration
 * puts a record in the cmdline_options section, and cmdline_parse() (in
 * kernel/cmdline.c) walks the section. The last occurrence of an option
 * wins (as in Linux). An unknown key or a bad value prints one warning
 * (the input in it escaped: \x01) and changes nothing: a bad value keeps
 * the option's earlier good value on the line ("keeping 200"), or the
 * default; the kernel still boots. Numbers may end in a decimal k, M or G
 * (hz=1k is 1000; lib/parse.h). */
#ifndef FOLD_KERNEL_CMDLINE_H
#define FOLD_KERNEL_CMDLINE_H
#include "lib/types.h"
#include "lib/string.h"

/* The longest command line and autorun= value taken, in characters (the
 * buffers hold one byte more, the NUL). */
#define CMDLINE_MAX 2047
#define AUTORUN_MAX 1023

/* The keys, in the order the warnings list them: what
 * arch/x86_64/kernel/asm-offsets.c hands the host tools. The build checks
 * it against the keys declared with early_param() in the kernel image
 * (scripts/check-cmdline-keys.sh), so neither can drift from the other. */
#define CMDLINE_KEYS " loglevel preempt test autorun idle hz maxcpus bench shell clock" \
	" might_fault watchdog_thresh serial_drv nproc failslab fail_page_alloc" \
	" fail_stack_alloc fail_kobject_alloc fail_seed lab_seeds lab_case threadirqs" \
	" ktest_case_ms nosmap nosmep ipc_handoff_delay"

/* One option: its key, what a value looks like and the default (both for
 * the warnings), the setter, which returns 0, or -1 for a bad value and
 * then changes nothing, and the value it sets (the cmdline tests save
 * and restore every value through it, and read one by key). */
struct cmdline_option {
	const char *key;
	const char *expect;
	const char *def;
	int (*set)(const char *v);
	void *var;
	size_t size;
};

/* early_param(key, setter, variable, what a value looks like, default):
 * key is a C identifier (the host tools take the keys as words). The
 * section's name is one too, so a host build (the fuzzers) gets the
 * linker's __start_/__stop_ symbols without linker.ld. The alignment is
 * forced so the compiler cannot space the records apart (Linux's
 * __setup_param does the same). */
#define early_param(key, setter, variable, expect, def)                                \
	static const struct cmdline_option __cmdline_opt_##key                          \
		__attribute__((used, section("cmdline_options"),                        \
			       aligned(__alignof__(struct cmdline_option)))) = {         \
			#key, expect, def, setter, &(variable), sizeof(variable)         \
		}

/* Setter helpers. A number from lo to hi (lib/parse.h: k, M, G; 0x): */
int cmdline_u32(const char *v, u32 *dst, u32 lo, u32 hi);
/* A flag, Linux's bare word (threadirqs, nosmap): the key alone, =on or
 * =1 set it; =off or =0 clear it. */
static inline int cmdline_flag(const char *v, bool *dst)
{
	if (!*v || !strcmp(v, "1") || !strcmp(v, "on"))
		*dst = true;
	else if (!strcmp(v, "0") || !strcmp(v, "off"))
		*dst = false;
	else
		return -1;
	return 0;
}
/* A non-empty string that fits dst (size bytes with the NUL): */
int cmdline_string(const char *v, char *dst, size_t size);

/* Parses and prints the warnings; returns the number of warnings. */
int cmdline_parse(const char *s);

/* For the cmdline tests: an option's value by key (NULL: no such option),
 * and every option's value copied out to buf and back in. */
void *cmdline_value(const char *key);
size_t cmdline_values_size(void);
void cmdline_save(void *buf);
void cmdline_restore(const void *buf);
#endif
