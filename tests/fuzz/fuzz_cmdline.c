/* Fuzz target: the kernel command line (kernel/cmdline.c), as GRUB hands
 * it over: the input up to its first NUL, of any length. Besides not
 * crashing, a parse must leave every option inside its documented range,
 * whatever the line said. */
#include "tests/fuzz/fuzz.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "sched/preempt_mode.h"
#include "lib/string.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	FUZZ_RESTORE_EACH_INPUT(cmdline);
	console_loglevel = LOGLEVEL_DEFAULT;

	char *s = malloc(size + 1); /* exact size: ASan sees a read past the NUL */
	FUZZ_ASSERT(s);
	memcpy(s, data, size);
	s[size] = 0;
	int warnings = cmdline_parse(s);
	free(s);

	FUZZ_ASSERT(warnings >= 0);
	FUZZ_ASSERT(console_loglevel >= 0 && console_loglevel <= 7);
	FUZZ_ASSERT(cmdline.preempt_mode >= -1 && cmdline.preempt_mode < NR_PREEMPT_MODES);
	FUZZ_ASSERT(cmdline.hz >= 10 && cmdline.hz <= 10000);
	FUZZ_ASSERT(cmdline.nr_cpus <= 64);
	FUZZ_ASSERT(memchr(cmdline.test, 0, sizeof(cmdline.test)));
	FUZZ_ASSERT(memchr(cmdline.autorun, 0, sizeof(cmdline.autorun)));
	return 0;
}
