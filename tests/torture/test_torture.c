/* The torture suite (tests/torture/torture.h): a short run must pass its own
 * checks, and each check must catch what it is there for: a wake-up
 * left out on purpose is found and its thread named, a count left raised
 * on purpose is found. Short, and under clock=icount the same every run
 * (fixed seeds). `make torture` runs the long version (tests/torture/). */
#include "tests/kernel/ktest.h"
#include "tests/torture/torture.h"
#include "kernel/time/time.h"
#include "kernel/percpu.h"
#include "lib/string.h"
#include "kernel/debug/checks.h"

#define SHORT_MS 200

static struct torture_result r;

static void run(int inject, u64 ms, u64 stall_ms)
{
	struct torture_params p = { .duration_ms = ms, .seed = 1, .stall_ms = stall_ms,
				    .inject = inject, .quiet = true };
	torture_run(&p, &r);
}

/* The watchdog's deadline: icount runs are exact; a wall clock gets the
 * host's slack (a busy host stops a vCPU for a while). */
static u64 stall_ms(void)
{
	return clock_icount ? 400 : 3000;
}

static void short_run_passes(struct ktest *t)
{
	run(TORTURE_INJECT_NONE, SHORT_MS, stall_ms());
	KT_EXPECT(t, r.passed);
	KT_EXPECT_EQ(t, r.lost, 0);
	KT_EXPECT_EQ(t, r.leaks, 0);
	KT_EXPECT_EQ(t, r.finished, r.threads);
	KT_EXPECT_EQ(t, r.ipis_ran, r.ipis_sent);
	KT_EXPECT_EQ(t, r.switch_failures, 0);
	KT_EXPECT_OP(t, r.switches, >, 0);
	KT_EXPECT_OP(t, r.nests, >, 0);
	if (DEBUG_CHECKS)
		KT_EXPECT_OP(t, r.count_checks, >, 0);
	else /* a release build checks no switch's count (kernel/debug/checks.h) */
		KT_EXPECT_EQ(t, r.count_checks, 0);
	if (nr_cpus_online > 1) {
		KT_EXPECT_OP(t, r.wakeups, >, 0);
		KT_EXPECT_OP(t, r.ipis_sent, >, 0);
	} else {
		KT_EXPECT_OP(t, r.local_wakeups, >, 0);
	}
	ktest_diag(t, "%llu cross-CPU wake-ups, %llu same-CPU, %llu mode switches, %llu IPIs, "
		   "%llu hand-offs, %llu nests, %llu switch checks, %u of %u threads finished, %llu ms",
		   (unsigned long long)r.wakeups, (unsigned long long)r.local_wakeups,
		   (unsigned long long)r.switches, (unsigned long long)r.ipis_ran,
		   (unsigned long long)r.handoffs, (unsigned long long)r.nests,
		   (unsigned long long)r.count_checks, r.finished, r.threads,
		   (unsigned long long)r.ms);
}

/* inject=lost: one hand-off without its wake-up. The watchdog must name
 * a worker, fail the run, and every thread must still finish. */
static void lost_wakeup_found(struct ktest *t)
{
	/* The run ends as soon as the watchdog reports: about stall ms. */
	run(TORTURE_INJECT_LOST, 20 * stall_ms() / 4, stall_ms() / 4);
	KT_EXPECT(t, !r.passed);
	KT_EXPECT_OP(t, r.lost, >=, 1);
	KT_EXPECT_EQ(t, r.leaks, 0);
	KT_EXPECT_EQ(t, r.finished, r.threads);
	KT_EXPECT(t, !strncmp(r.lost_name, "torture-", 8));
	ktest_diag(t, "the watchdog named %s after %llu ms", r.lost_name, (unsigned long long)r.ms);
}

/* inject=leak: one nest ends with a level still held. */
static void count_leak_found(struct ktest *t)
{
	run(TORTURE_INJECT_LEAK, 50, stall_ms());
	KT_EXPECT(t, !r.passed);
	KT_EXPECT_EQ(t, r.leaks, 1);
	KT_EXPECT_EQ(t, r.lost, 0);
	KT_EXPECT_EQ(t, r.finished, r.threads);
}

KTEST_SUITE(torture,
	KTEST_CASE(short_run_passes),
	KTEST_CASE(lost_wakeup_found),
	KTEST_CASE(count_leak_found));
