/* The rt suite: PREEMPT_RT's locks (kernel/locking/spinlock.h, rtmutex.h).
 * rt_mutex and its priority inheritance are in every build; the cases
 * about spinlock_t sleeping run on PREEMPT=rt and say why they skip
 * elsewhere. Threads that must share a CPU are pinned to the last one. */
#include "tests/kernel/ktest.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/lockdep.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "kernel/time/hrtimer.h"
#include "kernel/irq/irq_thread.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "uapi/errno.h"
#include "lib/string.h"
#include "kernel/debug/checks.h"

static u32 test_cpu(void)
{
	return nr_cpus_online > 1 ? nr_cpus_online - 1 : 0;
}

/* Wait (sleeping) until t owns m, up to a second. */
static bool wait_owner(struct thread *t, struct rt_mutex *m)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (rt_mutex_owner(m) != t) {
		if (ktime_get_ns() > end)
			return false;
		sleep_ns(100 * NSEC_PER_USEC);
	}
	return true;
}

/* Wait (sleeping) until t sleeps on m (THREAD_SLEEPING for an rt_mutex,
 * THREAD_RTLOCK_WAIT for a spinlock_t), up to a second. */
static bool wait_blocked(struct thread *t, struct rt_mutex *m)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (rt_mutex_blocked_on(t) != m || READ_ONCE(t->state) == THREAD_RUNNING) {
		if (ktime_get_ns() > end)
			return false;
		sleep_ns(100 * NSEC_PER_USEC);
	}
	return true;
}

/* ---- priority inheritance along a chain of three owners:
 * C (normal) holds L3; B (FIFO 10) holds L2, waits on L3; A (FIFO 20)
 * holds L1, waits on L2; H (FIFO 30) waits on L1. */
static struct rt_mutex pl[3];
static struct completion c_go;
static struct { struct thread *t; int after; } own[3]; /* A, B, C */

static void chain_owner(void *arg)
{
	u64 i = (u64)arg; /* 0: A holds pl[0], waits on pl[1]; 2: C */
	struct thread *me = current_thread();
	rt_mutex_lock(&pl[i]);
	if (i < 2)
		rt_mutex_lock(&pl[i + 1]);
	else
		wait_for_completion(&c_go);
	if (i < 2)
		rt_mutex_unlock(&pl[i + 1]);
	rt_mutex_unlock(&pl[i]);
	own[i].after = me->prio; /* the boost ends with the last unlock */
}

static void chain_top(void *arg)
{
	(void)arg;
	rt_mutex_lock(&pl[0]);
	rt_mutex_unlock(&pl[0]);
}

static void pi_chain(struct ktest *t)
{
	static const int prio[3] = { 20, 10, PRIO_NORMAL };
	rt_mutex_init(&pl[0], "rt_test_l1");
	rt_mutex_init(&pl[1], "rt_test_l2");
	rt_mutex_init(&pl[2], "rt_test_l3");
	init_completion(&c_go);
	bool blocked = true;
	/* C first, then B, then A: each blocks on the lock the one before holds. */
	for (int i = 2; i >= 0; i--) {
		own[i].after = -1;
		own[i].t = thread_create(chain_owner, (void *)(u64)i, "rt_chain", prio[i], 0);
		KT_ASSERT(t, own[i].t);
		blocked &= wait_owner(own[i].t, &pl[i]);
		if (i < 2)
			blocked &= wait_blocked(own[i].t, &pl[i + 1]);
	}
	struct thread *h = thread_create(chain_top, NULL, "rt_top", 30, 0);
	KT_ASSERT(t, h);
	blocked &= wait_blocked(h, &pl[0]);
	int boosted[3];
	for (int i = 0; i < 3; i++)
		boosted[i] = own[i].t->prio;
	u32 broken = rt_mutex_check_pi();
	complete(&c_go);
	thread_join(h);
	for (int i = 0; i < 3; i++)
		thread_join(own[i].t);
	KT_ASSERT(t, blocked);
	ktest_diag(t, "boosted: A %d, B %d, C %d; after release: %d, %d, %d",
		   boosted[0], boosted[1], boosted[2], own[0].after, own[1].after,
		   own[2].after);
	for (int i = 0; i < 3; i++) {
		KT_EXPECT_EQ(t, boosted[i], 30);          /* H's priority, along the chain */
		KT_EXPECT_EQ(t, own[i].after, prio[i]);   /* back to its own */
	}
	KT_EXPECT_EQ(t, broken, 0);
	KT_EXPECT(t, rt_mutex_owner(&pl[0]) == NULL);
}

/* ---- a cycle: this thread holds LB; a helper holds LA and waits on LB;
 * taking LA would close the cycle: reported, -EDEADLK, no sleep. */
static struct rt_mutex la, lb;

static void cycle_helper(void *arg)
{
	(void)arg;
	rt_mutex_lock(&la);
	rt_mutex_lock(&lb);
	rt_mutex_unlock(&lb);
	rt_mutex_unlock(&la);
}

static void deadlock_reported(struct ktest *t)
{
	static char out[4096];
	rt_mutex_init(&la, "rt_test_la");
	rt_mutex_init(&lb, "rt_test_lb");
	KT_ASSERT_EQ(t, rt_mutex_lock(&lb), 0);
	struct thread *h = thread_create(cycle_helper, NULL, "rt_cycle", PRIO_NORMAL, 0);
	KT_ASSERT(t, h);
	bool blocked = wait_blocked(h, &lb);
	u64 before = rt_mutex_deadlocks;
	struct printk_capture cap = { out, sizeof(out), 0, true };
	u64 f = local_irq_save(); /* the capture is this CPU's */
	printk_capture_start(&cap);
	local_irq_restore(f);
	int r = blocked ? rt_mutex_lock(&la) : 0;
	f = local_irq_save();
	printk_capture_stop();
	local_irq_restore(f);
	rt_mutex_unlock(&lb);
	thread_join(h);
	KT_ASSERT(t, blocked);
	KT_EXPECT_EQ(t, r, -EDEADLK);
	KT_EXPECT_EQ(t, rt_mutex_deadlocks, before + 1);
	KT_EXPECT_STR_CONTAINS(t, out, "rt_mutex: deadlock detected:");
	KT_EXPECT_STR_CONTAINS(t, out, "lock rt_test_la is held by rt_cycle");
	KT_EXPECT_STR_CONTAINS(t, out, "lock rt_test_lb is held by ");
	KT_EXPECT_STR_CONTAINS(t, out, "the thread about to wait");
	KT_EXPECT_STR_CONTAINS(t, out, "Call Trace:");
}

/* ---- a holder inside a lock section, and a FIFO thread woken on its CPU:
 * does the FIFO thread run while the section goes on? */
static DEFINE_SPINLOCK(rt_test_lock);
static DEFINE_RAW_SPINLOCK(rt_test_raw);
static volatile int in_section, fifo_ran, fifo_saw_section;
static volatile u32 count_in_section;

static void section_holder(void *arg)
{
	bool raw = arg != NULL;
	if (raw)
		raw_spin_lock(&rt_test_raw);
	else
		spin_lock(&rt_test_lock);
	count_in_section = preempt_count();
	WRITE_ONCE(in_section, 1);
	/* Long enough for a FIFO thread woken here to have run, if it can. */
	u64 end = ktime_get_ns() + 50 * NSEC_PER_MSEC;
	while (!READ_ONCE(fifo_ran) && ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(in_section, 0);
	if (raw)
		raw_spin_unlock(&rt_test_raw);
	else
		spin_unlock(&rt_test_lock);
}

static void fifo_waker(void *arg)
{
	(void)arg;
	fifo_saw_section = READ_ONCE(in_section);
	WRITE_ONCE(fifo_ran, 1);
}

/* 1 if the FIFO thread ran inside the section, 0 if after, -1 on error. */
static int fifo_inside_section(bool raw)
{
	u64 cpu = 1UL << test_cpu();
	in_section = fifo_ran = fifo_saw_section = 0;
	struct thread *h = thread_create(section_holder, raw ? (void *)1 : NULL,
					 "rt_holder", PRIO_NORMAL, cpu);
	if (!h)
		return -1;
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (!READ_ONCE(in_section) && ktime_get_ns() < end)
		sleep_ns(50 * NSEC_PER_USEC);
	struct thread *f = thread_create(fifo_waker, NULL, "rt_fifo", 50, cpu);
	if (f)
		thread_join(f);
	thread_join(h);
	return f ? fifo_saw_section : -1;
}

static void fifo_preempts_spinlock_holder(struct ktest *t)
{
	if (!PREEMPT_RT)
		KT_SKIP(t, "a spinlock_t spins and disables preemption outside PREEMPT=rt");
	int inside = fifo_inside_section(false);
	KT_ASSERT(t, inside >= 0);
	KT_EXPECT_EQ(t, inside, 1);
	KT_EXPECT_EQ(t, count_in_section, 0); /* spin_lock() left the count alone */
}

static void raw_lock_disables_preemption(struct ktest *t)
{
	int inside = fifo_inside_section(true);
	KT_ASSERT(t, inside >= 0);
	KT_EXPECT_EQ(t, inside, 0);
	KT_EXPECT_EQ(t, count_in_section, PREEMPT_DISABLE_OFFSET);
}

/* ---- the preempt count inside each kind of section: a raw_spinlock_t
 * raises it in every build; a spinlock_t too, except on PREEMPT_RT. */
static void count_in_sections(struct ktest *t)
{
	u32 base = preempt_count();
	raw_spin_lock(&rt_test_raw);
	u32 raw = preempt_count();
	raw_spin_unlock(&rt_test_raw);
	spin_lock(&rt_test_lock);
	u32 sleeping = preempt_count();
	spin_unlock(&rt_test_lock);
	ktest_diag(t, "%s: preempt count 0x%x; in a raw_spinlock_t section 0x%x, "
		   "in a spinlock_t section 0x%x", PREEMPT_RT ? "PREEMPT_RT" : "not RT",
		   base, raw, sleeping);
	KT_EXPECT_EQ(t, raw, base + PREEMPT_DISABLE_OFFSET);
	KT_EXPECT_EQ(t, sleeping, PREEMPT_RT ? base : base + PREEMPT_DISABLE_OFFSET);
}

/* ---- contention: the second taker sleeps, and the lock counts it. */
#if PREEMPT_RT
static DEFINE_SPINLOCK(rt_test_contended);
static volatile int contender_done;

static void contender(void *arg)
{
	(void)arg;
	spin_lock(&rt_test_contended);
	spin_unlock(&rt_test_contended);
	contender_done = 1;
}
#endif

static void contended_spinlock_sleeps(struct ktest *t)
{
	if (!PREEMPT_RT)
		KT_SKIP(t, "a spinlock_t spins outside PREEMPT=rt");
#if PREEMPT_RT
	struct rt_mutex *m = &rt_test_contended.lock;
	u64 before = m->contended;
	contender_done = 0;
	spin_lock(&rt_test_contended);
	struct thread *c = thread_create(contender, NULL, "rt_contend", PRIO_NORMAL, 0);
	bool slept = c && wait_blocked(c, m);
	spin_unlock(&rt_test_contended);
	if (c)
		thread_join(c);
	KT_ASSERT(t, c);
	KT_EXPECT(t, slept);
	KT_EXPECT_EQ(t, m->contended, before + 1);
	KT_EXPECT_EQ(t, contender_done, 1);
#endif
}

/* ---- might_sleep() inside a raw section is a reported bug, in every
 * debug build (a release build compiles the report out). */
static void sleep_in_raw_reported(struct ktest *t)
{
	if (!DEBUG_CHECKS)
		KT_SKIP(t, DEBUG_CHECKS_SKIP);
	static char out[4096];
	struct printk_capture cap = { out, sizeof(out), 0, true };
	u64 before = bug_reports;
	raw_spin_lock(&rt_test_raw);
	printk_capture_start(&cap);
	might_sleep();
	printk_capture_stop();
	raw_spin_unlock(&rt_test_raw);
	KT_EXPECT_EQ(t, bug_reports, before + 1);
	KT_EXPECT_STR_CONTAINS(t, out, "sleeping function called from invalid context");
}

/* ---- a spinlock_t inside a raw_spinlock_t: might sleep on RT. On RT,
 * might_sleep() reports it; elsewhere lockdep-lite does, if built. */
static void spinlock_in_raw_reported(struct ktest *t)
{
	if (!PREEMPT_RT && !LOCKDEP)
		KT_SKIP(t, "lockdep is off and a spinlock_t spins: build with LOCKDEP=1 or PREEMPT=rt");
	if (!DEBUG_CHECKS) /* PREEMPT_RT's report is might_sleep()'s */
		KT_SKIP(t, DEBUG_CHECKS_SKIP);
	static char out[4096];
	struct printk_capture cap = { out, sizeof(out), 0, true };
	u64 bugs = bug_reports;
#if LOCKDEP
	lockdep_rearm();
	u64 waits = lockdep_wait_reports;
#endif
	raw_spin_lock(&rt_test_raw);
	printk_capture_start(&cap);
	spin_lock(&rt_test_lock); /* free: taken without a sleep */
	spin_unlock(&rt_test_lock);
	printk_capture_stop();
	raw_spin_unlock(&rt_test_raw);
	if (PREEMPT_RT) {
		KT_EXPECT_EQ(t, bug_reports, bugs + 1);
		KT_EXPECT_STR_CONTAINS(t, out, "sleeping function called from invalid context");
	}
#if LOCKDEP
	if (!PREEMPT_RT) {
		KT_EXPECT_EQ(t, lockdep_wait_reports, waits + 1);
		KT_EXPECT_STR_CONTAINS(t, out, "BUG: Invalid wait context");
		KT_EXPECT_STR_CONTAINS(t, out, " (rt_test_lock), at: ");
		KT_EXPECT_STR_CONTAINS(t, out, "raw_spinlock_t (rt_test_raw)");
	}
#endif
}

/* ---- a threaded handler: woken from hard interrupt context (a timer's
 * callback), its work runs in its own thread, irq/N-NAME, at FIFO 50, with
 * the hardirq count at 0. */
static struct irq_thread rt_test_irq;
static volatile u32 work_tid, work_prio, work_hardirq, work_runs;
static volatile int woken_in_hardirq;

static void rt_test_irq_work(void *arg)
{
	(void)arg;
	work_tid = current_thread()->id;
	work_prio = (u32)current_thread()->prio;
	work_hardirq = hardirq_count();
	work_runs++;
}

static void rt_test_hard(struct hrtimer *h)
{
	(void)h;
	woken_in_hardirq = in_hardirq() != 0;
	irq_thread_wake(&rt_test_irq);
}

static void threaded_handler_runs_in_thread(struct ktest *t)
{
	static struct hrtimer timer;
	KT_ASSERT_EQ(t, irq_thread_start(&rt_test_irq, 15, "rt_test", rt_test_irq_work, NULL), 0);
	u32 runs = work_runs;
	hrtimer_init(&timer, rt_test_hard);
	u64 f = local_irq_save();
	hrtimer_start(&timer, ktime_get_ns() + 100 * NSEC_PER_USEC);
	local_irq_restore(f);
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (READ_ONCE(work_runs) == runs && ktime_get_ns() < end)
		sleep_ns(50 * NSEC_PER_USEC);
	KT_ASSERT(t, READ_ONCE(work_runs) == runs + 1);
	ktest_diag(t, "woken from hardirq: %s; the work ran in %s (id %u) at prio %u, "
		   "hardirq count %u", woken_in_hardirq ? "yes" : "no", rt_test_irq.t->name,
		   work_tid, work_prio, work_hardirq);
	KT_EXPECT(t, woken_in_hardirq);
	KT_EXPECT_EQ(t, work_tid, rt_test_irq.t->id);
	KT_EXPECT_EQ(t, work_prio, IRQ_THREAD_PRIO);
	KT_EXPECT_EQ(t, work_hardirq, 0);
	KT_EXPECT(t, !strcmp(rt_test_irq.t->name, "irq/15-rt_test"));
}

KTEST_SUITE(rt,
	KTEST_CASE(count_in_sections),
	KTEST_CASE(pi_chain),
	KTEST_CASE(deadlock_reported),
	KTEST_CASE(fifo_preempts_spinlock_holder),
	KTEST_CASE(raw_lock_disables_preemption),
	KTEST_CASE(contended_spinlock_sleeps),
	KTEST_CASE(sleep_in_raw_reported),
	KTEST_CASE(spinlock_in_raw_reported),
	KTEST_CASE(threaded_handler_runs_in_thread));
