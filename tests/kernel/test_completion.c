/* The completion suite: complete_and_wait() (sched/wait.c), whose handoff
 * switches straight to the woken thread when it waits on this CPU and
 * falls back to a wake-up for each waiter otherwise. A ring of threads
 * passes one turn with it, all on one CPU (the handoff) and spread over
 * the CPUs (the fallback); a lost wake-up stalls the ring, which the
 * watchdog below names instead of hanging. */
#include "tests/kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"

#define RING 3
#define ROUNDS 2000

static struct {
	struct completion turn[RING];
	struct thread *th[RING];
	volatile u64 passes;
	volatile u32 done;
} cr;

/* Member i waits for its turn, then passes it to i + 1 and waits for it
 * to come round, ROUNDS times; member 0 starts. */
static void ring_member(void *arg)
{
	u32 i = (u32)(u64)arg, next = (i + 1) % RING;
	if (i != 0)
		wait_for_completion(&cr.turn[i]);
	for (u32 r = 0; r < ROUNDS; r++) {
		__atomic_fetch_add(&cr.passes, 1, __ATOMIC_SEQ_CST);
		if (r + 1 < ROUNDS || i == 0)
			complete_and_wait(&cr.turn[next], &cr.turn[i]);
		else
			complete(&cr.turn[next]); /* the last pass: member 0 ends it */
	}
	__atomic_fetch_add(&cr.done, 1, __ATOMIC_SEQ_CST);
}

/* The ring, member i on CPU cpu_of(i); false if it stalled (a lost
 * wake-up: its threads are left asleep) or could not start. */
static bool run_ring(struct ktest *t, u32 (*cpu_of)(u32))
{
	cr.passes = 0;
	cr.done = 0;
	for (u32 i = 0; i < RING; i++)
		init_completion(&cr.turn[i]);
	for (u32 i = RING; i-- > 0;) {
		cr.th[i] = thread_create(ring_member, (void *)(u64)i, "cwring", PRIO_NORMAL,
					 1UL << cpu_of(i));
		if (!cr.th[i]) { /* no kernel stack or memory left: those made wait on */
			ktest_diag(t, "cannot start ring member %u", i);
			return false;
		}
	}
	u64 last = 0, last_change = ktime_get_ns();
	while (READ_ONCE(cr.done) < RING) {
		sleep_ns(10 * NSEC_PER_MSEC);
		u64 p = READ_ONCE(cr.passes), now = ktime_get_ns();
		if (p != last) {
			last = p;
			last_change = now;
		} else if (now - last_change > 2 * NSEC_PER_SEC) {
			ktest_diag(t, "stalled after %llu passes: lost wake-up", (unsigned long long)p);
			return false;
		}
	}
	for (u32 i = 0; i < RING; i++)
		thread_join(cr.th[i]);
	KT_EXPECT_EQ(t, cr.passes, (u64)RING * ROUNDS);
	return true;
}

static u32 last_cpu(u32 i)
{
	(void)i;
	return nr_cpus_online - 1;
}

static u32 spread(u32 i)
{
	return i % nr_cpus_online;
}

/* On one CPU every pass is a handoff: the woken member runs without a
 * preemption request, so preempt_enable() never switches for it. In full
 * mode a wake-up instead would preempt the waker once a pass. */
static void complete_and_wait_one_cpu(struct ktest *t)
{
	struct cpu_stats *st = &per_cpu(stats, nr_cpus_online - 1);
	u64 sw = st->context_switches, pre = st->preempt_enable_switches;
	KT_ASSERT(t, run_ring(t, last_cpu));
	sw = st->context_switches - sw;
	pre = st->preempt_enable_switches - pre;
	ktest_diag(t, "%u passes on CPU %u: %llu context switches, %llu preemptions by preempt_enable()",
		   RING * ROUNDS, nr_cpus_online - 1, (unsigned long long)sw, (unsigned long long)pre);
	if (preempt_mode_full())
		KT_EXPECT_OP(t, pre, <, (u64)RING * ROUNDS / 10);
}

static void complete_and_wait_spread(struct ktest *t)
{
	KT_EXPECT(t, run_ring(t, spread));
}

KTEST_SUITE(completion,
	KTEST_CASE(complete_and_wait_one_cpu),
	KTEST_CASE(complete_and_wait_spread));
