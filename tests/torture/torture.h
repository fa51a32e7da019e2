/* Torture: every CPU at once, at random, for a while, checking all the
 * time (Linux's locktorture and rcutorture as the model: LWN, "The RCU
 * torture test", and Documentation/locking/locktorture.rst).
 *
 * TORTURE_THREADS_PER_CPU worker threads per CPU, each pinned to its
 * CPU, pass tokens around: a worker sleeps until it holds one, does a
 * few random things, then gives the token to a random worker on another
 * CPU and wakes it (a cross-CPU wake-up), sometimes from inside a nest
 * of preempt_disable()/local_irq_save()/spinlocks of random depth. The
 * random things: such a nest, a short sleep, a mutex taken and held
 * (hand-offs between threads), a CALL_FUNCTION IPI to a random CPU,
 * cond_resched()/might_resched()/yield(). The calling thread switches
 * the preemption mode at random moments (only to modes this build can
 * run) and watches:
 *   - no lost wake-up: a worker that holds a token, or is inside its
 *     work, must make progress within stall ms; if not, its name, state
 *     and CPU are printed and the run fails;
 *   - the count back to its base: after every nest the count must be 0
 *     and IRQs on again; the scheduler's own check at every context
 *     switch (SWITCH_PREEMPT_COUNT, sched/core.c) is counted; any debug
 *     report (kernel/panic.h's report_bug: a leak at thread exit,
 *     scheduling or sleeping while atomic) during the run is a failure;
 *   - every IPI sent ran, every worker finished (joined within stall ms).
 * Each worker draws from its own generator, seeded from seed= and its
 * number, so the choices repeat; under clock=icount the whole run does. */
#ifndef FOLD_KERNEL_TORTURE_H
#define FOLD_KERNEL_TORTURE_H
#include "lib/types.h"

#define TORTURE_THREADS_PER_CPU 2
#define TORTURE_NLOCKS 4          /* spinlocks the nests take, in index order */
#define TORTURE_NMUTEXES 2

/* What a run may break on purpose, to show that the checks catch it. */
enum torture_inject {
	TORTURE_INJECT_NONE,
	TORTURE_INJECT_LOST,      /* one token handed over without its wake-up */
	TORTURE_INJECT_LEAK,      /* one nest left with its first level held */
	NR_TORTURE_INJECT,
};
extern const char *const torture_inject_names[NR_TORTURE_INJECT];

/* The shell's `torture key=value ...`: NUM(key, min, max), WORDS(key,
 * words), as the benchmarks declare theirs (bench/bench.h). */
#define TORTURE_OPTIONS(NUM, WORDS)   \
	NUM(duration, 10, 3600000)    \
	NUM(seed, 0, 4294967295ULL)   \
	NUM(stall, 100, 600000)       \
	WORDS(inject, torture_inject_names)

struct torture_params {
	u64 duration_ms;
	u64 seed;
	u64 stall_ms;             /* the watchdog's deadline */
	int inject;               /* enum torture_inject */
	bool quiet;               /* no start and progress lines (the suite) */
};

struct torture_result {
	u64 wakeups;              /* cross-CPU wake-ups of a sleeping worker */
	u64 local_wakeups;        /* wake-ups on the waker's own CPU (-smp 1) */
	u64 lost;                 /* stalled workers (lost wake-ups) */
	u64 leaks;                /* count or IRQ state not back at base, reports */
	u64 nests, nest_depth_max, count_checks; /* checks after nests; at switches */
	u64 switches, switch_failures;
	u64 ipis_sent, ipis_ran;
	u64 handoffs;             /* a mutex passed from one worker to another */
	u64 pi_sections;          /* rt_mutex sections, at FIFO 1-3 or normal */
	u64 pi_checks, pi_broken; /* the PI invariant, every 2 ms (rtmutex.h) */
	u64 sleeps;
	u64 lost_resched;         /* COUNT=racy: bit-31 clears lost and repaired */
	u32 threads, finished;
	u64 ms;                   /* duration as measured */
	char lost_name[16];       /* the first stalled worker, for the tests */
	bool passed;
};

/* Runs the torture from a thread that may sleep (the shell, a suite) and
 * prints the totals line and a BENCH torture line. Returns r->passed. */
bool torture_run(const struct torture_params *p, struct torture_result *r);
/* The shell's torture command (shell/shell_cmds.c). */
int cmd_torture(int argc, char **argv);
void torture_help(void);
#endif
