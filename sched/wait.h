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
