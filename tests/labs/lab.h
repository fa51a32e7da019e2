/* The labs' suites (docs/10-labs.md): one per lab, lab_l1 .. lab_l7,
 * each case run by the labs' runner (lab_run.c) in a thread of its own
 * with a time limit in virtual ms (under clock=icount a virtual ns is an
 * instruction), so that a student's code that never returns makes its
 * case say "# timeout after N virtual ms" instead of hanging the run.
 *
 * The runner also fails a case during which one of its lab's stubs ran
 * (kernel/lab.h): the skeleton `make lab` writes says, case by case,
 * which function is still to be written and the hint.
 *
 * The suites run only by name (test=lab_l1,...: `all` leaves them out),
 * with COUNT=folded under clock=icount, as make grade runs them; in any
 * other build or clock every case says SKIP and why.
 *
 * lab_seeds=S,S,...: the workloads. Every case runs once per seed and
 * names the seed in what it prints on a failure, so `make grade ...
 * SEED=S CASE=name` reruns exactly that. lab_case=NAME runs that case
 * alone (the others say SKIP). */
#ifndef FOLD_TESTS_LABS_LAB_H
#define FOLD_TESTS_LABS_LAB_H
#include "lib/types.h"
#include "lib/prandom.h"
#include "tests/kernel/ktest.h"
#include "kernel/time/time.h"

#define LAB_SEEDS_MAX 8

void lab_run_case(const struct ktest_suite *s, const struct ktest_case *c, struct ktest *t,
		  int number);
#define LAB_SUITE(sname, ...) KTEST_SUITE_RUN(sname, lab_run_case, true, __VA_ARGS__)

u32 lab_seed_count(void);
u64 lab_seed(u32 i);
#define for_each_lab_seed(i, seed) \
	for (u32 i = 0; i < lab_seed_count() && ((seed) = lab_seed(i), 1); i++)

/* Fail the case with one line, which names the seed: what make grade
 * shows, and how it picks the seed of its rerun command. */
#define lab_fail(t, ...)                     \
	do {                                 \
		(t)->failed = true;          \
		ktest_diag(t, __VA_ARGS__);  \
	} while (0)

/* The CPU the cases use as the target X: the last one (the runner and
 * the case's own thread are on CPU 0). 0 with one CPU. */
u32 lab_cpu_x(void);

/* Spin until cond holds or ns have passed; cond's last value. */
#define lab_spin_until(cond, ns)                                    \
	({                                                          \
		u64 end__ = ktime_get_ns() + (ns);                  \
		bool ok__;                                          \
		while (!(ok__ = (cond)) && ktime_get_ns() < end__)  \
			cpu_relax();                                \
		ok__;                                               \
	})
#endif
