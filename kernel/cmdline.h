/* The kernel command line: space-separated key=value options, parsed in
 * one place (kernel/cmdline.c) against one table. The last occurrence of
 * an option wins (as in Linux). An unknown key or a bad value prints one
 * warning (the input in it escaped: \x01) and changes nothing: a bad value
 * keeps the option's earlier good value on the line ("keeping 200"), or
 * the default; the kernel still boots. Numbers may end in a decimal k, M
 * or G (hz=1k is 1000; lib/parse.h). */
#ifndef FOLD_KERNEL_CMDLINE_H
#define FOLD_KERNEL_CMDLINE_H
#include "lib/types.h"
#include "sched/preempt_mode.h" /* PREEMPT_MODE_NAMES */

/* The longest command line and autorun= value taken, in characters (the
 * buffers hold one byte more, the NUL). */
#define CMDLINE_MAX 2047
#define AUTORUN_MAX 1023

/* The options, X(key, what a value looks like, the default): the table in
 * kernel/cmdline.c expands it (set_<key> parses each one), and
 * arch/x86_64/kernel/asm-offsets.c hands the keys to the host tools. */
#define CMDLINE_OPTIONS(X)                                                             \
	X(loglevel, "a number 0-7", "6")                                               \
	X(preempt, "a mode:" PREEMPT_MODE_NAMES, "the build's PREEMPT")                \
	X(test, "all, a suite list like sched,preempt, or panic", "none")              \
	X(autorun, "shell commands separated by ';'", "none")                          \
	X(idle, "halt or poll", "halt")                                                \
	X(hz, "a tick rate from 10 to 10000", "1000")                                  \
	X(maxcpus, "a CPU count from 1 to 64", "all")                                  \
	X(bench, "on or off (the default benchmark set at boot)", "on")                \
	X(shell, "on or off (a fold> prompt after boot)", "off")                       \
	X(clock, "wall or icount (QEMU -icount shift=0,sleep=off: 1 ns per instruction)", "wall") \
	X(might_fault, "on or off (off: user copies without might_fault(), experiment E7)", "on") \
	X(watchdog_thresh, "seconds 0-60 (a soft lockup is reported after twice it; 0: off)", "10") \
	X(serial_drv, "on, off or auto (the user-level serial driver; auto: on unless test=)", "auto")

struct cmdline_values {
	char test[256];      /* test=all | SUITE[,SUITE...] | panic */
	char autorun[AUTORUN_MAX + 1]; /* autorun=CMD[;CMD...] for the shell */
	int preempt_mode;    /* -1 = the build's default */
	bool idle_poll;      /* idle=poll */
	u32 hz;              /* timer tick rate */
	u32 nr_cpus;         /* maxcpus=: 0 = all */
	bool bench;          /* bench=0 skips the default benchmarks in make run */
	bool shell;          /* shell=on: a prompt after boot (make run at a terminal) */
	bool icount;         /* clock=icount: QEMU runs -icount shift=0,sleep=off */
	u32 watchdog_thresh; /* seconds, as Linux's (kernel/watchdog.c) */
	int serial_drv;      /* 1 on, 0 off, -1 auto (drivers/console_drv.c) */
};
extern struct cmdline_values cmdline;
/* Parses and prints the warnings; returns the number of warnings. */
int cmdline_parse(const char *s);
#endif
