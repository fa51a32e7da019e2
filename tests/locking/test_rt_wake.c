/* The rt_wake suite: wake-ups that priority inheritance must not lose or
 * misplace. Each case forces one interleaving on one CPU with priorities
 * alone (every thread pinned to the same CPU, an orchestrating thread
 * above them all), so it runs the same on the wall clock and under
 * icount, and on any number of CPUs. Each one hung or misordered before
 * the fix it names. The last watches a run-queue lock and needs two CPUs. */
#include "tests/kernel/ktest.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/preempt.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "sched/rq.h" /* the run queues' locks, which one case watches */
#include "arch/x86_64/cpu.h"

static u64 wake_cpu_mask(void)
{
	return 1UL << (nr_cpus_online > 1 ? nr_cpus_online - 1 : 0);
}

/* Sleep until *flag is set and the thread is woken (the wait pattern:
 * state first, then the test, then schedule()). */
static void park(volatile int *flag)
{
	struct thread *me = current_thread();
	for (;;) {
		WRITE_ONCE(me->state, THREAD_SLEEPING);
		if (READ_ONCE(*flag))
			break;
		schedule();
	}
	WRITE_ONCE(me->state, THREAD_RUNNING);
}

static void unpark(struct thread *t, volatile int *flag)
{
	WRITE_ONCE(*flag, 1);
	wake_up_thread(t);
}

/* Poll (sleeping) until cond holds, up to a second of the kernel's clock. */
#define WAIT_UNTIL(cond)                                                       \
	({                                                                     \
		u64 end_ = ktime_get_ns() + NSEC_PER_SEC;                      \
		while (!(cond) && ktime_get_ns() < end_)                       \
			sleep_ns(100 * NSEC_PER_USEC);                         \
		(bool)(cond);                                                  \
	})

static bool asleep_on(struct thread *t, struct rt_mutex *m)
{
	return rt_mutex_blocked_on(t) == m && READ_ONCE(t->state) != THREAD_RUNNING;
}

/* ---- A new top waiter of a released lock is woken.
 * O (FIFO 60) owns L. W (FIFO 10) waits on L; Z (FIFO 5) holds L0 and
 * waits on L behind W. O unlocks L: W is woken, but O runs on. X (FIFO
 * 30) then blocks on L0: the chain walk boosts Z to 30, which puts Z on
 * top of L, a lock with no owner. W runs, is not the top waiter, sleeps
 * again; unless the walk woke Z, all three sleep for ever. */
static struct rt_mutex tw_l, tw_l0;
static volatile int tw_done[3]; /* W, Z, X */

static void tw_w(void *arg)
{
	(void)arg;
	rt_mutex_lock(&tw_l);
	rt_mutex_unlock(&tw_l);
	WRITE_ONCE(tw_done[0], 1);
}

static void tw_z(void *arg)
{
	(void)arg;
	rt_mutex_lock(&tw_l0);
	rt_mutex_lock(&tw_l);
	rt_mutex_unlock(&tw_l);
	rt_mutex_unlock(&tw_l0);
	WRITE_ONCE(tw_done[1], 1);
}

static void tw_x(void *arg)
{
	(void)arg;
	rt_mutex_lock(&tw_l0);
	rt_mutex_unlock(&tw_l0);
	WRITE_ONCE(tw_done[2], 1);
}

static volatile int tw_finished, tw_set_up;

static void tw_orchestrate(void *arg)
{
	struct thread **th = arg; /* W, Z, X */
	u64 cpu = wake_cpu_mask();
	rt_mutex_lock(&tw_l);
	th[1] = thread_create(tw_z, NULL, "tw_z", 5, cpu);
	bool ok = th[1] && WAIT_UNTIL(asleep_on(th[1], &tw_l));
	th[0] = ok ? thread_create(tw_w, NULL, "tw_w", 10, cpu) : NULL;
	ok = th[0] && WAIT_UNTIL(asleep_on(th[0], &tw_l));
	rt_mutex_unlock(&tw_l); /* wakes W; this thread, at 60, runs on */
	th[2] = ok ? thread_create(tw_x, NULL, "tw_x", 30, cpu) : NULL;
	WRITE_ONCE(tw_set_up, ok && th[2]);
	/* Now X runs (30), then W (10), then what the walk woke, if any. */
	WRITE_ONCE(tw_finished, WAIT_UNTIL(tw_done[0] && tw_done[1] && tw_done[2]));
	if (!tw_finished) {
		/* Shut by its waiters bit, free: take and release it (this
		 * thread outranks the top waiter), which wakes the top. */
		rt_mutex_lock(&tw_l);
		rt_mutex_unlock(&tw_l);
	}
}

static void new_top_waiter_woken(struct ktest *t)
{
	struct thread *th[3] = { NULL, NULL, NULL };
	rt_mutex_init(&tw_l, "tw_l");
	rt_mutex_init(&tw_l0, "tw_l0");
	tw_done[0] = tw_done[1] = tw_done[2] = 0;
	tw_finished = tw_set_up = 0;
	struct thread *o = thread_create(tw_orchestrate, th, "tw_o", 60, wake_cpu_mask());
	KT_ASSERT(t, o);
	thread_join(o);
	for (int i = 0; i < 3; i++)
		if (th[i])
			thread_join(th[i]);
	KT_ASSERT(t, tw_set_up);
	ktest_diag(t, "W, Z and X finished within a second: %s", tw_finished ? "yes" : "no");
	KT_EXPECT(t, tw_finished);
	KT_EXPECT_EQ(t, rt_mutex_check_pi(), 0);
}

/* ---- A boost moves a thread preempted on its way to sleep.
 * T (normal) owns L, marks itself SLEEPING, wakes F (FIFO 30) and is
 * preempted before schedule(): it stays on the normal list, as every
 * preempted thread does. F wakes M (FIFO 10) and blocks on L, boosting
 * T to 30. T must run before M: the boost moves it to the FIFO list. */
static struct rt_mutex bm_l;
static volatile int bm_go_f, bm_go_m, bm_m_ran, bm_m_ran_first;
static struct thread *bm_f, *bm_m;

static void bm_fifo_f(void *arg)
{
	(void)arg;
	park(&bm_go_f);
	unpark(bm_m, &bm_go_m); /* 10 < 30: M waits */
	rt_mutex_lock(&bm_l);   /* boosts T to 30, and sleeps */
	rt_mutex_unlock(&bm_l);
}

static void bm_fifo_m(void *arg)
{
	(void)arg;
	park(&bm_go_m);
	WRITE_ONCE(bm_m_ran, 1);
}

static void bm_owner_t(void *arg)
{
	(void)arg;
	struct thread *me = current_thread();
	rt_mutex_lock(&bm_l);
	WRITE_ONCE(me->state, THREAD_SLEEPING);
	unpark(bm_f, &bm_go_f);
	preempt_disable();
	preempt_enable(); /* full mode: F preempts us here, still SLEEPING */
	bm_m_ran_first = READ_ONCE(bm_m_ran);
	WRITE_ONCE(me->state, THREAD_RUNNING);
	rt_mutex_unlock(&bm_l);
}

static void boost_moves_preempted_sleeper(struct ktest *t)
{
	/* In none and voluntary, preempt_enable() is no preemption point. */
	int mode = READ_ONCE(preempt_mode);
	if (mode == PREEMPT_MODE_NONE || mode == PREEMPT_MODE_VOLUNTARY)
		KT_SKIP(t, "needs preemption at preempt_enable() (preempt=full or lazy)");
	u64 cpu = wake_cpu_mask();
	rt_mutex_init(&bm_l, "bm_l");
	bm_go_f = bm_go_m = bm_m_ran = 0;
	bm_m_ran_first = -1;
	bm_m = thread_create(bm_fifo_m, NULL, "bm_m", 10, cpu);
	bm_f = thread_create(bm_fifo_f, NULL, "bm_f", 30, cpu);
	KT_ASSERT(t, bm_m && bm_f);
	bool parked = WAIT_UNTIL(!READ_ONCE(bm_m->on_rq) && !READ_ONCE(bm_f->on_rq));
	struct thread *o = parked ? thread_create(bm_owner_t, NULL, "bm_t", PRIO_NORMAL, cpu) : NULL;
	if (o) {
		thread_join(o);
	} else {
		unpark(bm_f, &bm_go_f);
		unpark(bm_m, &bm_go_m);
	}
	thread_join(bm_f);
	thread_join(bm_m);
	KT_ASSERT(t, parked && o);
	ktest_diag(t, "the boosted owner ran %s the FIFO 10 thread",
		   bm_m_ran_first ? "after" : "before");
	KT_EXPECT_EQ(t, bm_m_ran_first, 0);
}

/* ---- A wake-up that comes during an rtlock wait's hand-over is kept.
 * A (normal) marks itself SLEEPING and takes a spinlock_t that H (FIFO
 * 20) holds: it sleeps in THREAD_RTLOCK_WAIT with SLEEPING saved. H
 * unlocks (A is RUNNING, queued), then wakes A the regular way before A
 * has run. That wake-up is for the saved state, and must survive the
 * restore: A comes out of spin_lock() RUNNING. */
#if PREEMPT_RT
static DEFINE_SPINLOCK(rw_lock);
static volatile int rw_state_after, rw_woken, rw_set_up;

static void rw_taker_a(void *arg)
{
	(void)arg;
	struct thread *me = current_thread();
	WRITE_ONCE(me->state, THREAD_SLEEPING);
	spin_lock(&rw_lock);
	rw_state_after = READ_ONCE(me->state);
	WRITE_ONCE(me->state, THREAD_RUNNING);
	spin_unlock(&rw_lock);
}

static void rw_holder_h(void *arg)
{
	struct thread **a = arg;
	spin_lock(&rw_lock);
	*a = thread_create(rw_taker_a, NULL, "rw_a", PRIO_NORMAL, wake_cpu_mask());
	rw_set_up = *a && WAIT_UNTIL(asleep_on(*a, &rw_lock.lock));
	spin_unlock(&rw_lock); /* wake_up_rtlock(A); H runs on at 20 */
	if (*a)
		rw_woken = wake_up_thread(*a);
}
#endif

static void wake_kept_across_rtlock_wait(struct ktest *t)
{
	if (!PREEMPT_RT)
		KT_SKIP(t, "a spinlock_t spins outside PREEMPT=rt: no rtlock wait");
#if PREEMPT_RT
	struct thread *a = NULL;
	rw_state_after = -1;
	rw_woken = rw_set_up = 0;
	struct thread *h = thread_create(rw_holder_h, &a, "rw_h", 20, wake_cpu_mask());
	KT_ASSERT(t, h);
	thread_join(h);
	if (a)
		thread_join(a);
	KT_ASSERT(t, rw_set_up);
	ktest_diag(t, "wake_up_thread() during the hand-over returned %d; A's state "
		   "after spin_lock(): %d", rw_woken, rw_state_after);
	KT_EXPECT_EQ(t, rw_woken, 1);
	KT_EXPECT_EQ(t, rw_state_after, THREAD_RUNNING);
#endif
}

/* ---- A wake-up moves a thread with both run queues locked.
 * T sleeps on CPU A and may run only on CPU B. H holds B's run-queue
 * lock while W, on A, wakes T: W takes A's lock, then waits for B's. A
 * priority change (rt_mutex_setprio()) locks T's run queue by T->cpu,
 * still A: if W had let A's lock go before it had B's, the change could
 * run between, and requeue T on the wrong list or the wrong run queue.
 * H looks: A's lock must be held while W waits for B's. */
static volatile int mv_go_t, mv_held, mv_waker_waits, mv_a_was_free = -1, mv_woken;
static u32 mv_a, mv_b;
static struct thread *mv_t;

static void mv_sleeper(void *arg)
{
	(void)arg;
	park(&mv_go_t);
}

static void mv_holder(void *arg)
{
	(void)arg;
	struct raw_spinlock *b = &rqs[mv_b].lock, *a = &rqs[mv_a].lock;
	u64 f = local_irq_save();
	raw_spin_lock(b);
	WRITE_ONCE(mv_held, 1);
	/* Until the waker queues behind us for B's lock (a ticket lock: two
	 * tickets out), or a second has passed. */
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (READ_ONCE(b->next) - READ_ONCE(b->serving) < 2 && ktime_get_ns() < end)
		cpu_relax();
	mv_waker_waits = READ_ONCE(b->next) - READ_ONCE(b->serving) >= 2;
	mv_a_was_free = raw_spin_trylock(a);
	if (mv_a_was_free)
		raw_spin_unlock(a);
	raw_spin_unlock(b);
	local_irq_restore(f);
}

static void mv_waker(void *arg)
{
	(void)arg;
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (!READ_ONCE(mv_held) && ktime_get_ns() < end)
		cpu_relax();
	WRITE_ONCE(mv_go_t, 1);
	mv_woken = wake_up_thread(mv_t);
}

static void wake_moves_with_both_locks(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "needs two CPUs: a wake-up that moves a thread");
	mv_a = 0;
	mv_b = nr_cpus_online - 1;
	mv_go_t = mv_held = mv_waker_waits = mv_woken = 0;
	mv_a_was_free = -1;
	mv_t = thread_create(mv_sleeper, NULL, "mv_t", PRIO_NORMAL, 1UL << mv_a);
	KT_ASSERT(t, mv_t);
	bool parked = WAIT_UNTIL(!READ_ONCE(mv_t->on_rq));
	/* Asleep on A; from now on it may run on B alone. */
	thread_set_allowed_cpus(mv_t, 1UL << mv_b);
	struct thread *h = parked ? thread_create(mv_holder, NULL, "mv_h", 90, 1UL << mv_b) : NULL;
	struct thread *w = h ? thread_create(mv_waker, NULL, "mv_w", 90, 1UL << mv_a) : NULL;
	if (w)
		thread_join(w);
	if (h)
		thread_join(h);
	if (!w)
		unpark(mv_t, &mv_go_t);
	thread_join(mv_t);
	KT_ASSERT(t, parked && h && w);
	ktest_diag(t, "the waker waited for CPU %u's run-queue lock: %s; CPU %u's was %s meanwhile",
		   mv_b, mv_waker_waits ? "yes" : "no", mv_a, mv_a_was_free ? "free" : "held");
	KT_EXPECT(t, mv_woken);
	KT_EXPECT(t, mv_waker_waits);
	KT_EXPECT_EQ(t, mv_a_was_free, 0);
}

KTEST_SUITE(rt_wake,
	KTEST_CASE(new_top_waiter_woken),
	KTEST_CASE(boost_moves_preempted_sleeper),
	KTEST_CASE(wake_kept_across_rtlock_wait),
	KTEST_CASE(wake_moves_with_both_locks));
