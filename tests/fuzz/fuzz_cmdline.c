/* Fuzz target: the kernel command line (kernel/cmdline.c), as GRUB hands
 * it over: the input up to its first NUL, of any length. Besides not
 * crashing, a parse must leave every option inside its documented range,
 * whatever the line said.
 *
 * The kernel declares each option with early_param() in the file that
 * owns its value (kernel/printk.c, kernel/time/hrtimer.c, init/init.c...),
 * files a host build cannot compile. So this target declares the same
 * kinds of option the same way, with the same setter helpers and
 * limits: a number with a range (loglevel, hz, maxcpus), a word
 * (preempt, through the shim's preempt_mode_parse()), and the two strings
 * (test, autorun) in buffers of the kernel's sizes. cmdline_parse() finds
 * them in the cmdline_options section as it finds the kernel's. */
#include "tests/fuzz/fuzz.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "sched/preempt_mode.h"
#include "lib/string.h"

static int preempt_requested = -1;
static u32 hz = 1000, maxcpus;
static char test[256], autorun[AUTORUN_MAX + 1];

static int set_loglevel(const char *v)
{
	u32 n;
	if (cmdline_u32(v, &n, 0, 7))
		return -1;
	console_loglevel = (int)n;
	return 0;
}
early_param(loglevel, set_loglevel, console_loglevel, "a number 0-7", "6");

static int set_preempt(const char *v)
{
	int m = preempt_mode_parse(v);
	if (m < 0)
		return -1;
	preempt_requested = m;
	return 0;
}
early_param(preempt, set_preempt, preempt_requested, "a mode:" PREEMPT_MODE_NAMES,
	    "the build's PREEMPT");

static int set_hz(const char *v)
{
	return cmdline_u32(v, &hz, 10, 10000);
}
early_param(hz, set_hz, hz, "a tick rate from 10 to 10000", "1000");

static int set_maxcpus(const char *v)
{
	return cmdline_u32(v, &maxcpus, 1, 64);
}
early_param(maxcpus, set_maxcpus, maxcpus, "a CPU count from 1 to 64", "all");

static int set_test(const char *v)
{
	return cmdline_string(v, test, sizeof(test));
}
early_param(test, set_test, test, "all, a suite list like sched,preempt, or panic", "none");

static int set_autorun(const char *v)
{
	return cmdline_string(v, autorun, sizeof(autorun));
}
early_param(autorun, set_autorun, autorun, "shell commands separated by ';'", "none");

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 initial[2048];
	static bool have;
	FUZZ_ASSERT(cmdline_values_size() <= sizeof(initial));
	if (!have) {
		cmdline_save(initial);
		have = true;
	}
	cmdline_restore(initial); /* console_loglevel included */

	char *s = malloc(size + 1); /* exact size: ASan sees a read past the NUL */
	FUZZ_ASSERT(s);
	memcpy(s, data, size);
	s[size] = 0;
	int warnings = cmdline_parse(s);
	free(s);

	FUZZ_ASSERT(warnings >= 0);
	FUZZ_ASSERT(console_loglevel >= 0 && console_loglevel <= 7);
	FUZZ_ASSERT(preempt_requested >= -1 && preempt_requested < NR_PREEMPT_MODES);
	FUZZ_ASSERT(hz >= 10 && hz <= 10000);
	FUZZ_ASSERT(maxcpus <= 64);
	FUZZ_ASSERT(memchr(test, 0, sizeof(test)));
	FUZZ_ASSERT(memchr(autorun, 0, sizeof(autorun)));
	return 0;
}
