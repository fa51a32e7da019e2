/* Wait queues: sleep until a condition holds. The sleeper marks itself
 * SLEEPING before it tests the condition, and the waker makes the
 * condition true before it wakes, so a wake-up between the test and
 * schedule() is never lost (it just turns the sleeper RUNNING again). */
#ifndef FOLD_SCHED_WAIT_H
#define FOLD_SCHED_WAIT_H
#include "lib/types.h"
#include "lib/list.h"
#include "kernel/locking/spinlock.h"
#include "sched/sched.h"

struct wait_queue {
	raw_spinlock_t lock;       /* raw: wake-ups come from hard IRQs */
	struct list_head head;
};
struct waiter {
	struct thread *t;
	struct list_head node;
};

#define WAIT_QUEUE_INIT(name) { RAW_SPINLOCK_INIT(#name), LIST_HEAD_INIT(name.head) }
void wait_queue_init(struct wait_queue *wq);
void prepare_to_wait(struct wait_queue *wq, struct waiter *w);
void finish_wait(struct wait_queue *wq, struct waiter *w);
int wake_up_all(struct wait_queue *wq);
int wake_up_one(struct wait_queue *wq);

/* Has wq a waiter? One load, no lock (Linux's waitqueue_active()). Only
 * a waker with a full barrier between making its condition true and this
 * load may trust an empty answer; see wq_has_sleeper(). */
static inline bool waitqueue_active(struct wait_queue *wq)
{
	return READ_ONCE(wq->head.next) != &wq->head;
}

/* Linux's wq_has_sleeper() (include/linux/wait.h, whose comment this
 * follows): the waker's full barrier pairs with the one the sleeper's
 * prepare_to_wait() makes between queueing itself and testing the
 * condition (its SEQ_CST store of THREAD_SLEEPING, an xchg: Linux's
 * set_current_state()'s smp_store_mb()).
 *
 *     waker                          sleeper
 *     cond = true;                   queue self on wq (under wq->lock);
 *     smp_mb();                      smp_mb();     (the SLEEPING store)
 *     if (wq_has_sleeper(wq))        if (!cond)
 *         wake_up_all(wq);               schedule();
 *
 * Each side stores, then loads what the other stored: with a full
 * barrier on both sides, at least one of them sees the other's store
 * (the store-buffering case, SDM Vol. 3A 9.2.3.4: only a fence or a
 * locked instruction forbids both loads from missing). So either the
 * waker sees the waiter and wakes it, or the sleeper sees the condition
 * and does not sleep: no wake-up is lost. */
static inline bool wq_has_sleeper(struct wait_queue *wq)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return waitqueue_active(wq);
}

/* The condition is tested first, as Linux's wait_event() does, and again
 * right after each wake-up: when it holds, neither prepare_to_wait() nor
 * (before the first sleep) finish_wait() is needed. Only a false test
 * goes back to prepare_to_wait(), which marks the thread SLEEPING before
 * the test that decides to sleep, so no wake-up is lost. */
#define wait_event(wq, cond)                                   \
	do {                                                   \
		if (cond)                                      \
			break;                                 \
		struct waiter w__ = { 0 };                     \
		INIT_LIST_HEAD(&w__.node);                     \
		for (;;) {                                     \
			prepare_to_wait((wq), &w__);           \
			if (cond)                              \
				break;                         \
			schedule();                            \
			if (cond)                              \
				break;                         \
		}                                              \
		finish_wait((wq), &w__);                       \
	} while (0)

/* Completions: count-based one-shot events. */
struct completion {
	volatile u32 done;
	struct wait_queue wq;
};
void init_completion(struct completion *c);
void complete(struct completion *c);
void wait_for_completion(struct completion *c);
/* complete(c), then wait_for_completion(w), in one step: when c's one
 * waiter runs on this CPU and may run now, the caller blocks and switches
 * straight to it (sched_handoff_wake(): no preemption request, no
 * enqueue, no pick), as seL4's call switches to the receiver. Otherwise
 * the same as the two calls, without the preemption point between them.
 * Linux's nearest: a WF_SYNC wake-up (wake_up_sync()), a hint that the
 * waker is about to sleep. */
void complete_and_wait(struct completion *c, struct completion *w);

/* Sleeping mutexes. */
struct mutex {
	struct thread *volatile owner;
	struct wait_queue wq;
	u64 contended;
};
void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
#endif
