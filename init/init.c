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
#include "drivers/console_drv.h"

/* What `make run` shows when nothing else is asked for: well under a
 * minute of benchmarks under wall-clock TCG. */
#define DEFAULT_BENCH "cpus;bench preempt;bench latency loops=500;" \
	"bench latency loops=500 load=hog;bench throughput ops=50000 rounds=2000;stat"

__noreturn void kernel_init_run(void)
{
	/* The user-level serial driver (drivers/console_drv.c): by default for
	 * make run, not for the test suites (their pids and output stay as
	 * they were), which start their own (tests/kernel/test_udriver.c). */
	if (cmdline.serial_drv == 1 || (cmdline.serial_drv == -1 && !cmdline.test[0]))
		console_drv_start(0, 0);
	if (!strcmp(cmdline.test, "panic"))
		panic("test=panic: a deliberate panic, to show what one looks like");
	if (cmdline.test[0]) {             /* test=...: run suites, then exit */
		int failed = ktest_run(cmdline.test);
		qemu_exit(failed == 0 ? EXIT_PASS : EXIT_FAIL);
	}
	if (cmdline.autorun[0])            /* autorun=CMD;CMD: the shell, scripted */
		shell_exec_list(cmdline.autorun);
	else if (cmdline.bench)            /* the default benchmark set */
		shell_exec_list(DEFAULT_BENCH);
	if (cmdline.shell)                 /* at a terminal: the prompt */
		shell_interactive();
	pr_info("fold: done; powering off (shell=on gives a prompt instead)\n");
	qemu_exit(ktest_failures ? EXIT_FAIL : EXIT_PASS); /* tests run from the shell count */
}
