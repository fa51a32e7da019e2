/* The local_lock suite: a per-CPU data section's lock
 * (kernel/locking/local_lock.h). Outside PREEMPT_RT it is
 * preempt_disable(); on RT, migrate_disable() and the CPU's own sleeping
 * lock. The cases about preemption inside the section run on PREEMPT=rt
 * and say why they skip elsewhere. */
#include "tests/kernel/ktest.h"
#include "kernel/locking/local_lock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/preempt.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "sched/migrate.h"
#include "arch/x86_64/cpu.h"

static struct test_pcp {
	local_lock_t lock;
	u64 n;
} test_pcp[MAX_CPUS];
static bool test_pcp_ready;

static void init_once(void)
{
	if (!test_pcp_ready) {
		local_lock_init_all(test_pcp, lock, "test_pcp");
		test_pcp_ready = true;
	}
}

/* Poll for cond, sleeping, up to a second. */
#define wait_until(cond)                                           \
	({                                                         \
		u64 end__ = ktime_get_ns() + NSEC_PER_SEC;         \
		while (!(cond) && ktime_get_ns() < end__)          \
			sleep_ns(50 * NSEC_PER_USEC);              \
		(bool)(cond);                                      \
	})

/* ---- the count and the migration count inside a section. */
static void count_in_section(struct ktest *t)
{
	init_once();
	struct thread *me = current_thread();
	u32 base = preempt_count();
	local_lock(test_pcp, lock);
	u32 inside = preempt_count();
	u32 pinned = me->migration_disabled;
	this_cpu_local(test_pcp)->n++;
	local_unlock(test_pcp, lock);
	ktest_diag(t, "%s: preempt count 0x%x; in a local_lock_t section 0x%x, "
		   "migration disabled %u", PREEMPT_RT ? "PREEMPT_RT" : "not RT",
		   base, inside, pinned);
	KT_EXPECT_EQ(t, inside, PREEMPT_RT ? base : base + PREEMPT_DISABLE_OFFSET);
	/* On RT, two: local_lock()'s own, and the spinlock_t's inside it
	 * (rt_spin_lock() pins its holder too, as Linux's does). */
	KT_EXPECT_EQ(t, pinned, PREEMPT_RT ? 2U : 0U);
	KT_EXPECT_EQ(t, me->migration_disabled, 0U);
	KT_EXPECT_EQ(t, preempt_count(), base);
}

/* ---- a holder free to run anywhere, preempted mid-section by a FIFO
 * thread of its CPU that runs for 20 ms while the other CPUs idle: on RT
 * the FIFO thread runs inside the section, and no idle CPU pulls the
 * holder away (migrate_disable()). */
static volatile int in_section, fifo_saw_section;
static volatile u32 cpu_before, cpu_after;

static void roaming_holder(void *arg)
{
	(void)arg;
	local_lock(test_pcp, lock);
	cpu_before = raw_smp_processor_id();
	WRITE_ONCE(in_section, 1);
	u64 end = ktime_get_ns() + 100 * NSEC_PER_MSEC;
	while (!READ_ONCE(fifo_saw_section) && ktime_get_ns() < end)
		cpu_relax();
	cpu_after = raw_smp_processor_id();
	this_cpu_local(test_pcp)->n++;
	WRITE_ONCE(in_section, 0);
	local_unlock(test_pcp, lock);
}

static void fifo_busy(void *arg)
{
	(void)arg;
	u64 end = ktime_get_ns() + 20 * NSEC_PER_MSEC;
	while (ktime_get_ns() < end)
		cpu_relax();
	fifo_saw_section = READ_ONCE(in_section);
}

static void holder_stays_on_its_cpu(struct ktest *t)
{
	if (!PREEMPT_RT)
		KT_SKIP(t, "a local_lock_t disables preemption outside PREEMPT=rt");
	init_once();
	in_section = fifo_saw_section = 0;
	struct thread *h = thread_create(roaming_holder, NULL, "ll_holder", PRIO_NORMAL, 0);
	KT_ASSERT(t, h);
	bool entered = wait_until(READ_ONCE(in_section));
	struct thread *f = entered ? thread_create(fifo_busy, NULL, "ll_fifo", 50,
						   1UL << cpu_before) : NULL;
	if (f)
		thread_join(f);
	thread_join(h);
	KT_ASSERT(t, entered);
	KT_ASSERT(t, f);
	ktest_diag(t, "the FIFO thread ran inside the section: %s; the holder on CPU %u, "
		   "then %u (%u CPUs)", fifo_saw_section ? "yes" : "no", cpu_before,
		   cpu_after, nr_cpus_online);
	KT_EXPECT_EQ(t, fifo_saw_section, 1);
	KT_EXPECT_EQ(t, cpu_after, cpu_before);
}

/* ---- two threads of one CPU: the second taker sleeps on that CPU's
 * lock, and the holder inherits its priority until it leaves. */
#if PREEMPT_RT
static volatile int holder_in, holder_boost, holder_after;
static struct thread *waiter;

static void pinned_holder(void *arg)
{
	(void)arg;
	local_lock(test_pcp, lock);
	WRITE_ONCE(holder_in, 1);
	struct rt_mutex *m = &this_cpu_local(test_pcp)->lock.lock.lock;
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (!(READ_ONCE(waiter) && rt_mutex_blocked_on(waiter) == m) &&
	       ktime_get_ns() < end)
		cpu_relax();
	holder_boost = current_thread()->prio;
	local_unlock(test_pcp, lock);
	holder_after = current_thread()->prio;
}

static void fifo_taker(void *arg)
{
	(void)arg;
	local_lock(test_pcp, lock);
	this_cpu_local(test_pcp)->n++;
	local_unlock(test_pcp, lock);
}
#endif

static void contended_sleeps_and_boosts(struct ktest *t)
{
	if (!PREEMPT_RT)
		KT_SKIP(t, "a local_lock_t is preempt_disable() outside PREEMPT=rt: nothing to contend");
#if PREEMPT_RT
	init_once();
	u32 cpu = nr_cpus_online > 1 ? nr_cpus_online - 1 : 0;
	struct rt_mutex *m = &test_pcp[cpu].lock.lock.lock;
	u64 contended = m->contended;
	holder_in = 0;
	holder_boost = holder_after = -1;
	waiter = NULL;
	struct thread *h = thread_create(pinned_holder, NULL, "ll_holder", PRIO_NORMAL, 1UL << cpu);
	KT_ASSERT(t, h);
	bool entered = wait_until(READ_ONCE(holder_in));
	struct thread *w = entered ? kthread_create(fifo_taker, NULL, "ll_taker", 20, 1UL << cpu)
				   : NULL;
	if (w) {
		WRITE_ONCE(waiter, w);
		wake_up_thread(w);
	}
	thread_join(h);
	if (w)
		thread_join(w);
	KT_ASSERT(t, entered);
	KT_ASSERT(t, w);
	ktest_diag(t, "the holder ran at prio %d while the FIFO 20 thread waited, %d after",
		   holder_boost, holder_after);
	KT_EXPECT_EQ(t, m->contended, contended + 1);
	KT_EXPECT_EQ(t, holder_boost, 20);
	KT_EXPECT_EQ(t, holder_after, PRIO_NORMAL);
#endif
}

KTEST_SUITE(local_lock,
	KTEST_CASE(count_in_section),
	KTEST_CASE(holder_stays_on_its_cpu),
	KTEST_CASE(contended_sleeps_and_boosts));
