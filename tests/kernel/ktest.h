/* fold's in-kernel test framework. Suites are registered with
 * KTEST_SUITE() into a linker section and run by `test=` on the command
 * line or `test` in the shell; results are KTAP version 1 on the console:
 *
 *   KTAP version 1
 *   1..2
 *       KTAP version 1
 *       # Subtest: memory
 *       1..3
 *       ok 1 frame_alloc
 *       ...
 *   ok 1 memory
 *
 * A failed expectation prints "# case: file:line: expected ..., got ..."
 * and marks the case failed; KT_ASSERT_* also end the case at once. */
#ifndef FOLD_KERNEL_KTEST_H
#define FOLD_KERNEL_KTEST_H
#include "lib/types.h"

struct ktest {
	const char *name;
	bool failed;
	bool skipped;
	u32 timed_out_ms;    /* the suite's runner gave up after this long */
	char skip_reason[96];
};

struct ktest_case {
	const char *name;
	void (*fn)(struct ktest *t);
	u32 timeout_ms;      /* for a suite with a runner: its time limit (the labs': per seed) */
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	size_t ncases;
	/* NULL: each case is called in the suite's thread. Else this runs
	 * it: the labs' runner (tests/labs/lab_run.c) gives each case a
	 * thread of its own and a time limit, and says "# timeout after N
	 * virtual ms" (timed_out_ms) instead of hanging. */
	void (*run)(const struct ktest_suite *s, const struct ktest_case *c, struct ktest *t,
		    int number);
	/* Run only when named: `all` leaves it out (the labs' suites, which
	 * make grade runs with COUNT=folded under clock=icount). */
	bool by_name;
};

#define KTEST_SUITE_RUN(sname, runner, named, ...)                            \
	static const struct ktest_case sname##_cases[] = { __VA_ARGS__ };     \
	__attribute__((section(".ktest_suites"), used, aligned(8)))                     \
	static const struct ktest_suite sname##_suite = {                     \
		#sname, sname##_cases, ARRAY_SIZE(sname##_cases), runner, named \
	}
#define KTEST_SUITE(sname, ...) KTEST_SUITE_RUN(sname, NULL, false, __VA_ARGS__)
#define KTEST_CASE(fn) { #fn, fn, 0 }
#define KTEST_CASE_TIMED(fn, ms) { #fn, fn, ms }

__printf(4, 5) void ktest_fail(struct ktest *t, const char *file, int line,
			       const char *fmt, ...);
__printf(2, 3) void ktest_skip(struct ktest *t, const char *fmt, ...);
__printf(2, 3) void ktest_diag(struct ktest *t, const char *fmt, ...);

#define KT_EXPECT(t, cond)                                                     \
	({                                                                     \
		bool ok__ = (cond);                                            \
		if (!ok__)                                                     \
			ktest_fail(t, __FILE__, __LINE__, "expected %s", #cond); \
		ok__;                                                          \
	})
#define KT_EXPECT_EQ(t, a, b)                                                  \
	({                                                                     \
		unsigned long long a__ = (unsigned long long)(a);              \
		unsigned long long b__ = (unsigned long long)(b);              \
		if (a__ != b__)                                                \
			ktest_fail(t, __FILE__, __LINE__,                      \
				   "expected %s == %s, got 0x%llx (%lld) and 0x%llx (%lld)", \
				   #a, #b, a__, (long long)a__, b__, (long long)b__); \
		a__ == b__;                                                    \
	})
#define KT_EXPECT_OP(t, a, op, b)                                              \
	({                                                                     \
		unsigned long long a__ = (unsigned long long)(a);              \
		unsigned long long b__ = (unsigned long long)(b);              \
		bool ok__ = a__ op b__;                                        \
		if (!ok__)                                                     \
			ktest_fail(t, __FILE__, __LINE__,                      \
				   "expected %s %s %s, got %llu and %llu", #a, \
				   #op, #b, a__, b__);                         \
		ok__;                                                          \
	})
#define KT_EXPECT_STR_CONTAINS(t, hay, needle)                                 \
	({                                                                     \
		bool ok__ = strstr((hay), (needle)) != NULL;                   \
		if (!ok__)                                                     \
			ktest_fail(t, __FILE__, __LINE__,                      \
				   "expected the text to contain \"%s\"", (needle)); \
		ok__;                                                          \
	})
#define KT_ASSERT(t, cond)                   \
	do {                                 \
		if (!KT_EXPECT(t, cond))     \
			return;              \
	} while (0)
#define KT_ASSERT_EQ(t, a, b)                \
	do {                                 \
		if (!KT_EXPECT_EQ(t, a, b))  \
			return;              \
	} while (0)
#define KT_SKIP(t, ...)                      \
	do {                                 \
		ktest_skip(t, __VA_ARGS__);  \
		return;                      \
	} while (0)

/* Chooses the suites of a comma-separated list, in its order, each once:
 * a suite's name, or "all" for every suite but those run only by name
 * (so all,sched is every suite,
 * and sched,all is sched first, then the others). Stores up to max in
 * chosen and returns how many, or -1 after printing why for an unknown or
 * empty name, or "panic" (test=panic is no suite and no part of a list). */
int ktest_select(const char *list, const struct ktest_suite **chosen, size_t max);
/* Runs the suites ktest_select() chooses from list, printing KTAP. Returns
 * the number of failed suites, or -1 if the list is bad (then nothing
 * runs). */
int ktest_run(const char *list);
extern u32 ktest_failures; /* failed suites in every ktest_run() so far */
/* The running suite's place in its ktest_run() list, from 1 (0: none
 * runs): a case whose figure depends on what ran before it in the boot
 * can tell whether anything did. */
extern u32 ktest_suite_number;
void ktest_list(void);

/* The case watchdog: a case that never returns (a student's lab code, a
 * kernel a bug has wedged) ends the run with its name instead of hanging
 * it. On every CPU a timer looks, every 5 ms, at the case running now;
 * past its bail-out time the first CPU to see it prints the case as
 * timed out and "Bail out!", and QEMU exits (tests failed). A CPU stuck
 * with IRQs off cannot look, but the others can.
 *
 * The labs' runner (tests/labs/lab_run.c) watches each lab case; with
 * ktest_case_ms=N on the command line (make grade's regression suites)
 * every case of the other suites is watched too, N virtual ms each. */

/* ktest_case_ms=: 0 (the default) leaves the other suites' cases
 * unwatched. */
extern u32 ktest_case_ms;

/* Case `number`, `name`, starts now; the run ends if it has not returned
 * (ktest_watch_end()) within bail_ms. limit_ms is the limit its timeout
 * line names. The first call starts every CPU's timer. */
void ktest_watch_begin(const char *name, int number, u32 limit_ms, u32 bail_ms);
/* It returned in time: no CPU may bail out for it now. */
void ktest_watch_end(void);
#endif
