/* The torture's shared state, between its workers (tests/torture/torture.c) and
 * the thread that runs and watches them (tests/torture/torture_run.c). */
#ifndef FOLD_KERNEL_TORTURE_INTERNAL_H
#define FOLD_KERNEL_TORTURE_INTERNAL_H
#include "tests/torture/torture.h"
#include "kernel/percpu.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "sched/wait.h"
#include "lib/prandom.h"

/* On one CPU a third worker, so that the lost-wake-up injection's victim
 * leaves two to pass tokens between. */
#define TORTURE_WORKERS_MAX (MAX_CPUS * TORTURE_THREADS_PER_CPU + 1)

struct tworker {
	struct wait_queue wq;
	volatile u32 tokens;       /* hand-offs it holds */
	volatile u32 busy;         /* 1 from taking a token to waiting again */
	volatile u32 shunned;      /* inject=lost's victim: nobody passes to it */
	volatile u64 progress;     /* +1 at every step: the watchdog's pulse */
	u32 cpu, index;
	struct prandom_state rng;
	struct thread *th;
	char name[16];
	/* Written by the worker only, read at the end (and roughly by the
	 * progress lines). */
	u64 wakeups, local_wakeups, nests, depth_max, count_checks, leaks;
	u64 handoffs, ipis, sleeps;
	u64 pi_sections;           /* rt_mutex sections (rt_mutex_section()) */
};

struct tmutex {
	struct mutex m;
	struct tworker *last;      /* its previous owner */
};

struct torture_state {
	struct tworker w[TORTURE_WORKERS_MAX];
	u32 nworkers, ncpus;
	raw_spinlock_t locks[TORTURE_NLOCKS];
	struct tmutex mutexes[TORTURE_NMUTEXES];
	struct rt_mutex rtmutexes[TORTURE_NMUTEXES]; /* taken at FIFO priorities */
	volatile int stop;
	int inject;                /* enum torture_inject */
	int inject_pending;        /* 1 until the injection took place */
	volatile u64 ipis_ran;
	bool quiet;                /* the suite: lines to the log, not the console */
};
extern struct torture_state tstate;

/* The torture's lines: to the console from the shell; to the kernel log
 * (and the console, with its "[time] cpu:" prefix, which the KTAP parser
 * skips) when a suite runs it. */
__printf(1, 2) void torture_print(const char *fmt, ...);

/* A worker thread's function (arg: its struct tworker). */
void torture_worker(void *arg);
#endif
