/* Running a user program from a kernel test (tests/kernel/user_run.c):
 * spawn it, collect what it wrote and the kernel log lines printed
 * meanwhile, wait, and give back its wait status. */
#ifndef FOLD_TESTS_USER_RUN_H
#define FOLD_TESTS_USER_RUN_H
#include "lib/types.h"

#define USER_OUT_MAX 8192

struct user_run {
	int pid;
	int status;          /* wait4()'s word: WIFEXITED, WTERMSIG ... */
	int err;             /* process_spawn's error, 0 if it started */
	char out[USER_OUT_MAX];   /* what it wrote to fd 1 and 2 */
	char log[USER_OUT_MAX];   /* the kernel log meanwhile (fault lines) */
};

/* "prog arg arg": split at spaces. cpus 0 = any. Waits. */
void user_run(struct user_run *r, const char *cmdline, u64 cpus);
/* For tests that spawn processes themselves: keep what the programs
 * write off the console (it would break the KTAP stream) until _end. */
void user_quiet_begin(void);
void user_quiet_end(void);
struct ktest;
/* Is user program `prog` in this ISO? If not, the case is skipped with a
 * message that says so. */
bool user_have(struct ktest *t, const char *prog);
/* The sum of a per-CPU counter over the online CPUs. */
#define stat_sum(field)                                          \
	({                                                       \
		u64 s__ = 0;                                     \
		for_each_online_cpu(c__)                         \
			s__ += per_cpu(stats.field, c__);        \
		s__;                                             \
	})
#endif
