/* The bench suite: the benchmarks end, whatever the timing. Every wait in
 * them is bounded; these cases set up the timings that used to make them
 * wait forever, or report a result they had not measured. */
#include "tests/kernel/ktest.h"
#include "bench/bench.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

static char out[2048];
static struct printk_capture cap;

/* Run the round trip with its report captured (kept off the KTAP stream). */
static int resched_ipi(u64 rounds)
{
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	int r = bench_resched_ipi("test", rounds);
	printk_capture_stop();
	return r;
}

static void busy_20ms(void *arg)
{
	(void)arg;
	u64 end = ktime_get_ns() + 20 * NSEC_PER_MSEC;
	while (ktime_get_ns() < end)
		cpu_relax();
}

/* CPU 1 runs a higher-priority thread for 20 ms, so the benchmark's
 * thread there starts after its partner on CPU 0 is ready to send the
 * first request. resched_ipi used to send it anyway, to the busy thread;
 * the late thread then waited for a request already made, and its
 * partner for the answer: forever. Now the two meet first, and it
 * measures all its round trips. */
static void resched_ipi_late_start(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU");
	struct thread *busy = thread_create(busy_20ms, NULL, "busy-cpu1", 90, 1UL << 1);
	KT_ASSERT(t, busy); /* NULL: no kernel stack or memory left */
	sleep_ns(NSEC_PER_MSEC); /* it runs on CPU 1 now */
	int r = resched_ipi(20);
	thread_join(busy);
	KT_EXPECT_EQ(t, r, 0);
	KT_EXPECT_STR_CONTAINS(t, out, "test=resched_ipi cpus=0,1 roundtrips=20 ns_per_roundtrip=");
}

/* In voluntary mode the target's flag stays set until its thread calls
 * schedule(): a request then sends no IPI. The round trips still all
 * complete, in every mode. */
static void resched_ipi_every_mode(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU");
	int saved = preempt_mode;
	for (int mode = 0; mode < NR_PREEMPT_MODES; mode++) {
		if (preempt_mode_set(mode) != 0)
			continue; /* COUNT=off: no full or lazy mode */
		int r = resched_ipi(200);
		KT_EXPECT_EQ(t, r, 0);
		KT_EXPECT_STR_CONTAINS(t, out, "roundtrips=200 ns_per_roundtrip=");
		const char *nl = strchr(out, '\n');
		ktest_diag(t, "%s:%.*s", preempt_mode_name(mode),
			   nl ? (int)(nl - out) : 0, out); /* the report's first line */
	}
	preempt_mode_set(saved);
}

static void race_from_cpu1(void *arg)
{
	char arg0[] = "race", arg1[] = "rounds=10";
	char *argv[] = { arg0, arg1 };
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap); /* CPU 1's lines: it stays there */
	*(int *)arg = bench_race(2, argv);
	printk_capture_stop();
}

/* bench race run by a higher-priority thread on CPU 1 itself: the
 * hammer it starts there runs only while that thread sleeps (its first
 * millisecond, and its join at the end), so no request can race a count
 * update, however slowly the host runs each vCPU. Each of the 10 rounds
 * waits 10 ms for the hammer to be CPU 1's thread and gives up. The
 * report used to say "0 lost" all the same; it must say that it tested
 * nothing. (A busy thread that held CPU 1 for 300 ms of wall-clock time
 * did the same until a loaded host stretched the rounds past it.) */
static void race_inconclusive_when_nothing_raced(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU");
	int r = -2;
	struct thread *w = thread_create(race_from_cpu1, &r, "race-cpu1", 90, 1UL << 1);
	KT_ASSERT(t, w); /* NULL: no kernel stack or memory left */
	thread_join(w);
	KT_EXPECT_EQ(t, r, 0);
	KT_EXPECT_STR_CONTAINS(t, out, "bench race: inconclusive: only 0 of 10 requests raced");
	KT_EXPECT_STR_CONTAINS(t, out, " raced=0 ");
	KT_EXPECT_STR_CONTAINS(t, out, "result=inconclusive");
	KT_EXPECT(t, !strstr(out, ": 0 lost"));
}

KTEST_SUITE(bench,
	KTEST_CASE(resched_ipi_late_start),
	KTEST_CASE(resched_ipi_every_mode),
	KTEST_CASE(race_inconclusive_when_nothing_raced));
