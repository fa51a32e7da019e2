#include "sched/wait.h"
#include "kernel/panic.h"
#include "kernel/debug/checks.h"
#include "arch/x86_64/cpu.h"

void wait_queue_init(struct wait_queue *wq)
{
	raw_spin_lock_init(&wq->lock, "wait_queue");
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(struct wait_queue *wq, struct waiter *w)
{
	struct thread *self = current_thread();
	w->t = self;
	u64 f = raw_spin_lock_irqsave(&wq->lock);
	if (list_empty(&w->node))
		list_add_tail(&w->node, &wq->head);
	/* The lock-free test of a waker (wq_has_sleeper(), complete()) reads
	 * the queue without this lock: a thread that goes SLEEPING must be on
	 * it already, or such a waker may see it empty and not wake it. */
	DEBUG_BUG_ON(!waitqueue_active(wq));
	/* SLEEPING before the caller tests its condition (seq_cst: the
	 * store may not pass the condition's loads; the sleeper's half of
	 * wq_has_sleeper()'s barrier pair, sched/wait.h). */
	__atomic_store_n(&self->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	raw_spin_unlock_irqrestore(&wq->lock, f);
}

void finish_wait(struct wait_queue *wq, struct waiter *w)
{
	__atomic_store_n(&current_thread()->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	/* Off the queue: a handoff took it off, under the queue's lock,
	 * before this thread ran again (sched_handoff_wake()), and nothing
	 * else takes another thread's entry off. On the queue, the entry's
	 * next is never itself, whatever a neighbour's removal does to it. */
	if (list_empty(&w->node))
		return;
	u64 f = raw_spin_lock_irqsave(&wq->lock);
	list_del_init(&w->node);
	raw_spin_unlock_irqrestore(&wq->lock, f);
}

int wake_up_all(struct wait_queue *wq)
{
	int n = 0;
	u64 f = raw_spin_lock_irqsave(&wq->lock);
	struct waiter *w;
	list_for_each_entry(w, &wq->head, node)
		n += wake_up_thread(w->t);
	raw_spin_unlock_irqrestore(&wq->lock, f);
	return n;
}

int wake_up_one(struct wait_queue *wq)
{
	int n = 0;
	u64 f = raw_spin_lock_irqsave(&wq->lock);
	struct waiter *w;
	list_for_each_entry(w, &wq->head, node)
		if ((n = wake_up_thread(w->t)))
			break;
	raw_spin_unlock_irqrestore(&wq->lock, f);
	return n;
}

void init_completion(struct completion *c)
{
	c->done = 0;
	wait_queue_init(&c->wq);
}

/* The count first, then an empty queue told without its lock
 * (wq_has_sleeper(), sched/wait.h): the waker's barrier is the add
 * itself, a locked instruction and so a full barrier on x86 (SDM Vol. 3A
 * 9.2.2: locked instructions have a total order and are not reordered
 * with loads or stores); Linux writes smp_mb__after_atomic(), which is
 * only a compiler barrier on x86. A waiter it misses sees the count. */
void complete(struct completion *c)
{
	__atomic_fetch_add(&c->done, 1, __ATOMIC_SEQ_CST);
	if (waitqueue_active(&c->wq))
		wake_up_all(&c->wq);
}

static bool try_take(struct completion *c)
{
	u32 d = __atomic_load_n(&c->done, __ATOMIC_SEQ_CST);
	while (d) {
		if (__atomic_compare_exchange_n(&c->done, &d, d - 1, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return true;
	}
	return false;
}

void wait_for_completion(struct completion *c)
{
	might_sleep();
	wait_event(&c->wq, try_take(c));
}

/* c's waiters woken, under its lock (held, IRQs off): straight to the
 * sole waiter when sched_handoff_wake() may (true: the caller ran again
 * since, the lock released), else a wake-up for each (false: the lock
 * released, the caller to sleep as usual). */
static bool wake_or_handoff(struct wait_queue *wq)
{
	u64 f = raw_spin_lock_irqsave(&wq->lock);
	if (list_is_singular(&wq->head)) {
		struct waiter *w = list_first_entry(&wq->head, struct waiter, node);
		DEBUG_BUG_ON(!(f & X86_EFLAGS_IF)); /* the caller may sleep */
		if (sched_handoff_wake(w->t, &wq->lock, &w->node))
			return true;
	}
	struct waiter *w;
	list_for_each_entry(w, &wq->head, node)
		wake_up_thread(w->t);
	raw_spin_unlock_irqrestore(&wq->lock, f);
	return false;
}

void complete_and_wait(struct completion *c, struct completion *w)
{
	struct waiter me = { .t = current_thread() };
	might_sleep();
	INIT_LIST_HEAD(&me.node);
	/* On w's queue and SLEEPING before the test, as wait_event(). */
	prepare_to_wait(&w->wq, &me);
	if (try_take(w)) {
		finish_wait(&w->wq, &me);
		complete(c);
		return;
	}
	/* complete(c)'s half: the add is the barrier wq_has_sleeper() needs. */
	__atomic_fetch_add(&c->done, 1, __ATOMIC_SEQ_CST);
	/* A switch away leaves nobody to wake the caller but w's wakers. */
	DEBUG_BUG_ON(list_empty(&me.node));
	if (!waitqueue_active(&c->wq) || !wake_or_handoff(&c->wq))
		schedule();
	else if (need_resched())
		schedule(); /* a request made since the switch back, as schedule() serves it */
	while (!try_take(w)) {
		prepare_to_wait(&w->wq, &me);
		if (try_take(w))
			break;
		schedule();
	}
	finish_wait(&w->wq, &me);
}

void mutex_init(struct mutex *m)
{
	m->owner = NULL;
	m->contended = 0;
	wait_queue_init(&m->wq);
}

bool mutex_trylock(struct mutex *m)
{
	struct thread *expected = NULL;
	return __atomic_compare_exchange_n(&m->owner, &expected, current_thread(), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void mutex_lock(struct mutex *m)
{
	might_sleep();
	if (m->owner == current_thread())
		BUG("mutex_lock: thread %s already holds this mutex", current_thread()->name);
	while (!mutex_trylock(m)) {
		m->contended++;
		wait_event(&m->wq, READ_ONCE(m->owner) == NULL);
	}
}

void mutex_unlock(struct mutex *m)
{
	if (m->owner != current_thread())
		BUG("mutex_unlock by %s, which does not hold it", current_thread()->name);
	__atomic_store_n(&m->owner, NULL, __ATOMIC_RELEASE);
	wake_up_one(&m->wq);
}
