/* The kernel command line: space-separated key=value options, parsed in
 * one place (kernel/cmdline.c) against one table. An unknown key or a bad
 * value prints one warning and keeps the default; the kernel still boots. */
#ifndef FOLD_KERNEL_CMDLINE_H
#define FOLD_KERNEL_CMDLINE_H
#include "lib/types.h"

struct cmdline_values {
	char test[256];      /* test=all | SUITE[,SUITE...] | panic */
	char autorun[1024];   /* autorun=CMD[;CMD...] for the shell */
	int preempt_mode;    /* -1 = the build's default */
	bool idle_poll;      /* idle=poll */
	u32 hz;              /* timer tick rate */
	u32 nr_cpus;         /* maxcpus=: 0 = all */
	bool bench;          /* bench=0 skips the default benchmarks in make run */
	bool shell;          /* shell=on: a prompt after boot (make run at a terminal) */
	bool icount;         /* clock=icount: QEMU runs -icount shift=0,sleep=off */
};
extern struct cmdline_values cmdline;
/* Parses and prints the warnings; returns the number of warnings. */
int cmdline_parse(const char *s);
void cmdline_help(void);
#endif
