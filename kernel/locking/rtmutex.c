/* rt_mutex: sleeping locks with priority inheritance (rtmutex.h says what
 * they promise). Everything slow happens under rt_mutex_pi_lock, taken
 * with IRQs off; its order is before every run-queue lock, which
 * rt_mutex_setprio() and wake_up_thread() take under it. */
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "uapi/errno.h"

static DEFINE_RAW_SPINLOCK(rt_mutex_pi_lock); /* raw: what sleeping locks sleep on */
bool rt_mutex_pi_enabled = true;
volatile u64 rt_mutex_deadlocks;

void rt_mutex_init(struct rt_mutex *m, const char *name)
{
	m->owner = 0;
	INIT_LIST_HEAD(&m->waiters);
	INIT_LIST_HEAD(&m->held_node);
	m->name = name;
	m->contended = 0;
}

static bool has_waiters(const struct rt_mutex *m)
{
	return !list_empty(&m->waiters);
}

static struct rt_mutex_waiter *top_waiter(const struct rt_mutex *m)
{
	return list_first_entry(&m->waiters, struct rt_mutex_waiter, node);
}

/* Wake m's top waiter to take m, in the state it sleeps in. */
static void wake_top_waiter(struct rt_mutex *m)
{
	struct rt_mutex_waiter *top = top_waiter(m);
	if (top->wake_state == THREAD_RTLOCK_WAIT)
		wake_up_rtlock(top->task);
	else
		wake_up_thread(top->task);
}

/* Highest priority first; a waiter goes behind those of its priority. */
static void waiter_enqueue(struct rt_mutex *m, struct rt_mutex_waiter *w)
{
	/* LAB(L6) BEGIN: queue w by w->prio, highest first, behind the
	 * waiters of its own priority. Put it just before the first waiter
	 * of lower priority, or at the tail (list_add_tail() adds before a
	 * node): the top waiter, the one woken, is then the first. */
	struct rt_mutex_waiter *it;
	list_for_each_entry(it, &m->waiters, node) {
		if (it->prio < w->prio) {
			list_add_tail(&w->node, &it->node); /* just before it */
			return;
		}
	}
	list_add_tail(&w->node, &m->waiters);
	/* LAB(L6) END: list_add_tail(&w->node, &m->waiters); */
}

/* What t should run at: its own priority, or the top waiter's of a lock
 * it owns, whichever is higher (Linux's rt_effective_prio()). */
static int pi_prio(const struct thread *t)
{
	int prio = t->normal_prio;
	if (!rt_mutex_pi_enabled)
		return prio;
	struct rt_mutex *m;
	list_for_each_entry(m, &t->pi_locks, held_node) {
		int top = top_waiter(m)->prio;
		if (top > prio)
			prio = top;
	}
	return prio;
}

/* Starting from lock m, whose waiters changed: bring each owner along the
 * chain to the priority its waiters give it. The walk stops where an
 * owner's priority does not change, or its owner is not waiting. */
static void adjust_chain(struct rt_mutex *m)
{
	for (u32 depth = 0; m && depth < RT_MUTEX_MAX_CHAIN; depth++) {
		struct thread *o = rt_mutex_owner(m);
		/* Released, its top waiter woken to take it: but the walk may
		 * have just put another waiter on top, one that outranks the
		 * woken one, which will go back to sleep. Wake the top waiter
		 * now, as Linux's chain walk does where it finds no owner. */
		if (!o) {
			wake_top_waiter(m);
			return;
		}
		/* m has waiters: it counts toward o's priority. */
		if (has_waiters(m) && list_empty(&m->held_node))
			list_add_tail(&m->held_node, &o->pi_locks);
		/* LAB(L6) BEGIN: bring o to pi_prio(o) with rt_mutex_setprio(),
		 * and stop where that is its priority already. If o waits too
		 * (o->pi_blocked_on is its waiter), requeue that waiter on its
		 * lock at the new priority and go on from that lock. */
		int prio = pi_prio(o);
		if (prio == o->prio)
			return;
		rt_mutex_setprio(o, prio);
		struct rt_mutex_waiter *ow = o->pi_blocked_on;
		if (!ow)
			return;
		/* o waits too: requeue it at its new priority, go on. */
		list_del(&ow->node);
		ow->prio = prio;
		waiter_enqueue(ow->lock, ow);
		m = ow->lock;
		/* LAB(L6) END: return; */
	}
}

/* Would t, waiting on m, wait on itself? Prints the cycle if so. */
static bool chain_is_cycle(struct thread *t, struct rt_mutex *m)
{
	struct rt_mutex *l = m;
	for (u32 depth = 0; l && depth < RT_MUTEX_MAX_CHAIN; depth++) {
		struct thread *o = rt_mutex_owner(l);
		if (!o)
			return false;
		if (o == t)
			goto cycle;
		l = o->pi_blocked_on ? o->pi_blocked_on->lock : NULL;
	}
	if (!l)
		return false;
cycle:
	__atomic_fetch_add(&rt_mutex_deadlocks, 1, __ATOMIC_RELAXED);
	pr_err("rt_mutex: deadlock detected: %s would wait on its own chain:\n",
	       t->name);
	l = m;
	for (u32 depth = 0; depth < 16; depth++) {
		struct thread *o = rt_mutex_owner(l);
		if (!o)
			break;
		pr_err("rt_mutex:   lock %s is held by %s (prio %d)%s\n",
		       l->name ? l->name : "?", o->name, o->prio,
		       o == t ? ", the thread about to wait" : ", which waits on");
		if (o == t || !o->pi_blocked_on)
			break;
		l = o->pi_blocked_on->lock;
	}
	dump_stack();
	return true;
}

/* May t take m now? w is t's waiter if it is queued on m, else NULL. The
 * owner word changes by compare-and-exchange: the fast path may take a
 * free lock with no waiters at any moment, without rt_mutex_pi_lock. */
static bool try_to_take(struct rt_mutex *m, struct thread *t,
			struct rt_mutex_waiter *w)
{
	u64 old = __atomic_load_n(&m->owner, __ATOMIC_RELAXED);
	if (old & ~RT_MUTEX_HAS_WAITERS)
		return false;
	if (has_waiters(m)) {
		struct rt_mutex_waiter *top = top_waiter(m);
		/* The top waiter takes it, or a thread that outranks it. */
		if (w != top && t->prio <= top->prio)
			return false;
	}
	if (w)
		list_del_init(&w->node);
	u64 new = (u64)t | (has_waiters(m) ? RT_MUTEX_HAS_WAITERS : 0);
	if (!__atomic_compare_exchange_n(&m->owner, &old, new, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (w)
			waiter_enqueue(m, w); /* the fast path was first */
		return false;
	}
	if (w)
		t->pi_blocked_on = NULL;
	if (has_waiters(m)) {
		list_add_tail(&m->held_node, &t->pi_locks);
		int prio = pi_prio(t);
		if (prio != t->prio)
			rt_mutex_setprio(t, prio);
	}
	return true;
}

bool rt_mutex_trylock(struct rt_mutex *m)
{
	u64 free = 0;
	return __atomic_compare_exchange_n(&m->owner, &free, (u64)current_thread(),
					   false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

int rt_mutex_slowlock(struct rt_mutex *m, int state)
{
	struct thread *me = current_thread();
	struct rt_mutex_waiter w = { .task = me, .lock = m, .wake_state = state };
	INIT_LIST_HEAD(&w.node);

	u64 f = raw_spin_lock_irqsave(&rt_mutex_pi_lock);
	if (unlikely(rt_mutex_owner(m) == me)) {
		raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
		report_bug("rt_mutex_lock: %s already holds %s", me->name,
			   m->name ? m->name : "?");
		return -EDEADLK;
	}
	/* Shut the fast path before looking at the owner: from here on the
	 * owner unlocks m only through rt_mutex_slowunlock(), which waits
	 * for rt_mutex_pi_lock, so it cannot unlock, exit and be freed while
	 * the cycle check reads it (Linux's mark_rt_mutex_waiters() before
	 * try_to_take_rt_mutex()). Every owner further along the chain owns
	 * a lock with a waiter, so its bit is set already. try_to_take()
	 * clears the bit again if it takes a lock with no waiters. */
	__atomic_fetch_or(&m->owner, RT_MUTEX_HAS_WAITERS, __ATOMIC_RELAXED);
	if (try_to_take(m, me, NULL)) {
		raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
		return 0;
	}
	if (chain_is_cycle(me, m)) {
		if (!has_waiters(m)) /* nobody else sleeps on it: open the fast path */
			__atomic_fetch_and(&m->owner, ~RT_MUTEX_HAS_WAITERS, __ATOMIC_RELAXED);
		raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
		return -EDEADLK;
	}
	m->contended++;
	w.prio = me->prio;
	waiter_enqueue(m, &w);
	me->pi_blocked_on = &w;
	adjust_chain(m);

	/* Marked asleep under the lock the unlocker wakes under: its
	 * wake-up cannot fall between the test and schedule(). */
	while (!try_to_take(m, me, &w)) {
		WRITE_ONCE(me->state, state);
		raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
		schedule();
		f = raw_spin_lock_irqsave(&rt_mutex_pi_lock);
	}
	raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
	return 0;
}

int rt_mutex_lock(struct rt_mutex *m)
{
	might_sleep();
	if (likely(rt_mutex_trylock(m)))
		return 0;
	return rt_mutex_slowlock(m, THREAD_SLEEPING);
}

static void rt_mutex_slowunlock(struct rt_mutex *m, struct thread *me)
{
	u64 f = raw_spin_lock_irqsave(&rt_mutex_pi_lock);
	list_del_init(&m->held_node);
	/* Free, with the bit kept: the fast path stays shut while the top
	 * waiter wakes to take it. */
	if (has_waiters(m)) {
		__atomic_store_n(&m->owner, RT_MUTEX_HAS_WAITERS, __ATOMIC_RELEASE);
		wake_top_waiter(m);
	} else {
		__atomic_store_n(&m->owner, 0, __ATOMIC_RELEASE);
	}
	/* LAB(L6) BEGIN: the boost ends: bring me to what pi_prio() gives
	 * now, its own priority or the top waiter's of a lock it still
	 * holds, if that is not its priority already. */
	int prio = pi_prio(me);
	if (prio != me->prio)
		rt_mutex_setprio(me, prio); /* the boost ends */
	/* LAB(L6) END: (void)me; */
	raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
}

void rt_mutex_unlock(struct rt_mutex *m)
{
	struct thread *me = current_thread();
	if (unlikely(rt_mutex_owner(m) != me))
		BUG("rt_mutex_unlock of %s by %s, which does not own it",
		    m->name ? m->name : "?", me->name);
	u64 mine = (u64)me;
	if (likely(__atomic_compare_exchange_n(&m->owner, &mine, 0, false,
					       __ATOMIC_RELEASE, __ATOMIC_RELAXED)))
		return;
	rt_mutex_slowunlock(m, me);
}

void rt_mutex_adjust_pi(struct thread *t, int normal_prio)
{
	u64 f = raw_spin_lock_irqsave(&rt_mutex_pi_lock);
	t->normal_prio = normal_prio;
	int prio = pi_prio(t);
	if (prio != t->prio) {
		rt_mutex_setprio(t, prio);
		struct rt_mutex_waiter *w = t->pi_blocked_on;
		if (w) {
			list_del(&w->node);
			w->prio = prio;
			waiter_enqueue(w->lock, w);
			adjust_chain(w->lock);
		}
	}
	raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
}

struct rt_mutex *rt_mutex_blocked_on(const struct thread *t)
{
	struct rt_mutex_waiter *w = READ_ONCE(t->pi_blocked_on);
	return w ? w->lock : NULL;
}

static void check_one(struct thread *t, void *arg)
{
	u32 *bad = arg;
	struct rt_mutex *m;
	list_for_each_entry(m, &t->pi_locks, held_node) {
		struct rt_mutex_waiter *top = top_waiter(m);
		if (top->task->prio > t->prio) {
			pr_err("rt_mutex: PI broken: %s (prio %d) owns %s, which "
			       "blocks %s (prio %d)\n", t->name, t->prio,
			       m->name ? m->name : "?", top->task->name,
			       top->task->prio);
			(*bad)++;
		}
	}
}

u32 rt_mutex_check_pi(void)
{
	u32 bad = 0;
	if (!rt_mutex_pi_enabled)
		return 0;
	u64 f = raw_spin_lock_irqsave(&rt_mutex_pi_lock);
	thread_for_each(check_one, &bad);
	raw_spin_unlock_irqrestore(&rt_mutex_pi_lock, f);
	return bad;
}
