/* What the kernel does once it has booted, from the command line: run
 * test suites and exit (test=), run shell commands (autorun=, or by default
 * the benchmark set `make run` shows), then give a prompt (shell=on) or
 * power off. */
#include "init/init.h"
#include "kernel/cmdline.h"
#include "tests/kernel/ktest.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "shell/shell.h"
#include "lib/string.h"
#include "lib/parse.h"
#include "drivers/console_drv.h"
#include "kernel/debug/fault_inject.h"

/* What `make run` shows when nothing else is asked for: well under a
 * minute of benchmarks under wall-clock TCG. */
#define DEFAULT_BENCH "cpus;bench preempt;bench latency loops=500;" \
	"bench latency loops=500 load=hog;bench throughput ops=50000 rounds=2000;stat"

static char test_suites[256];        /* test=all | SUITE[,SUITE...] | panic */
static char autorun[AUTORUN_MAX + 1]; /* autorun=CMD[;CMD...] for the shell */
static bool bench = true;            /* bench=off skips the default benchmarks */
static bool shell;                   /* shell=on: a prompt after boot */

static int set_test(const char *v)
{
	return cmdline_string(v, test_suites, sizeof(test_suites));
}
early_param(test, set_test, test_suites, "all, a suite list like sched,preempt, or panic", "none");

static int set_autorun(const char *v)
{
	return cmdline_string(v, autorun, sizeof(autorun));
}
early_param(autorun, set_autorun, autorun, "shell commands separated by ';'", "none");

static int set_bench(const char *v)
{
	return parse_bool(v, &bench);
}
early_param(bench, set_bench, bench, "on or off (the default benchmark set at boot)", "on");

static int set_shell(const char *v)
{
	return parse_bool(v, &shell);
}
early_param(shell, set_shell, shell, "on or off (a fold> prompt after boot)", "off");

__noreturn void kernel_init_run(void)
{
	/* The user-level serial driver (drivers/console_drv.c): by default for
	 * make run, not for the test suites (their pids and output stay as
	 * they were), which start their own (tests/kernel/test_udriver.c). */
	if (serial_drv_option == 1 || (serial_drv_option == -1 && !test_suites[0]))
		console_drv_start(0, 0);
	/* The boot is done: from here on fault injection (failslab= ...)
	 * may fail a process's system calls (kernel/debug/fault_inject.h). */
	fault_inject_start();
	if (!strcmp(test_suites, "panic"))
		panic("test=panic: a deliberate panic, to show what one looks like");
	if (test_suites[0]) {             /* test=...: run suites, then exit */
		int failed = ktest_run(test_suites);
		qemu_exit(failed == 0 ? EXIT_PASS : EXIT_FAIL);
	}
	if (autorun[0])            /* autorun=CMD;CMD: the shell, scripted */
		shell_exec_list(autorun);
	else if (bench)            /* the default benchmark set */
		shell_exec_list(DEFAULT_BENCH);
	if (shell)                 /* at a terminal: the prompt */
		shell_interactive();
	pr_info("fold: done; powering off (shell=on gives a prompt instead)\n");
	qemu_exit(ktest_failures ? EXIT_FAIL : EXIT_PASS); /* tests run from the shell count */
}
