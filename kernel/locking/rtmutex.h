/* rt_mutex: a sleeping lock with priority inheritance (Linux's
 * kernel/locking/rtmutex.c; Documentation/locking/rt-mutex-design.rst).
 *
 * A contended taker sleeps on the lock's waiter list, highest priority
 * first. While a thread owns a lock that has waiters it runs at the
 * priority of the highest of them, if that is above its own: priority
 * inheritance. The boost follows the chain: when the owner is itself
 * waiting on another rt_mutex, that lock's owner is boosted too, and so
 * on. On release the owner drops back to its own priority (or to what the
 * locks it still holds give it), and the top waiter is woken to take the
 * lock; a thread of strictly higher priority than the top waiter may
 * take it first (Linux's lock stealing).
 *
 * A chain that comes back to the thread about to wait is a deadlock:
 * rt_mutex_lock() reports it, naming every thread and lock of the cycle,
 * and returns -EDEADLK instead of sleeping for ever.
 *
 * The uncontended lock and unlock are one compare-and-exchange of the
 * owner; bit 0 of the owner (RT_MUTEX_HAS_WAITERS) sends both to the slow
 * path while a waiter sleeps. The slow paths, the waiter lists and every
 * thread's priority bookkeeping are serialised by one raw spinlock,
 * rt_mutex_pi_lock: Linux takes a lock per rt_mutex and per task instead,
 * which scales; fold takes one so that a chain walk reads as a loop. */
#ifndef FOLD_KERNEL_RTMUTEX_H
#define FOLD_KERNEL_RTMUTEX_H

#include "lib/types.h"
#include "lib/list.h"

struct thread;

#define RT_MUTEX_HAS_WAITERS 1UL
#define RT_MUTEX_MAX_CHAIN 1024   /* Linux's max_lock_depth */

struct rt_mutex {
	volatile u64 owner;          /* struct thread *, | RT_MUTEX_HAS_WAITERS */
	struct list_head waiters;    /* rt_mutex_waiter.node, by prio */
	struct list_head held_node;  /* on owner->pi_locks while waiters exist */
	const char *name;
	u64 contended;               /* times a taker went to sleep on it */
};

/* On the sleeper's stack while it waits. */
struct rt_mutex_waiter {
	struct thread *task;
	struct rt_mutex *lock;
	int prio;                    /* the task's priority when (re)queued */
	int wake_state;              /* the state it sleeps in (sched/thread.h) */
	struct list_head node;
};

#define RT_MUTEX_INIT(m, n) { 0, LIST_HEAD_INIT((m).waiters), \
			       LIST_HEAD_INIT((m).held_node), n, 0 }
#define DEFINE_RT_MUTEX(m) struct rt_mutex m = RT_MUTEX_INIT(m, #m)

void rt_mutex_init(struct rt_mutex *m, const char *name);
/* Take m, sleeping while another thread owns it: 0, or -EDEADLK (after the
 * report) when waiting would close a cycle. Must be able to sleep. */
int rt_mutex_lock(struct rt_mutex *m);
bool rt_mutex_trylock(struct rt_mutex *m);
/* rt_mutex_lock() past its fast path, sleeping in `state`: THREAD_SLEEPING,
 * or THREAD_RTLOCK_WAIT for a spinlock_t (kernel/locking/spinlock_rt.c). */
int rt_mutex_slowlock(struct rt_mutex *m, int state);
void rt_mutex_unlock(struct rt_mutex *m);

static inline struct thread *rt_mutex_owner(const struct rt_mutex *m)
{
	return (struct thread *)(__atomic_load_n(&m->owner, __ATOMIC_RELAXED) &
				 ~RT_MUTEX_HAS_WAITERS);
}

/* sched_setscheduler(): t's normal priority becomes normal_prio; its
 * effective priority the higher of that and its top waiter's; and if it
 * waits on an rt_mutex, the chain from there is adjusted (Linux's
 * rt_mutex_adjust_pi()). */
void rt_mutex_adjust_pi(struct thread *t, int normal_prio);

/* Priority inheritance on or off: on, always, except while experiment
 * E9's inversion run shows what happens without it. Off, waiters still
 * queue by priority, but no owner is boosted. */
extern bool rt_mutex_pi_enabled;

/* The PI invariant, checked by the tests and torture: no thread that owns
 * an rt_mutex runs below the priority of a waiter it blocks. Returns the
 * number of violations (each printed), 0 when it holds. */
u32 rt_mutex_check_pi(void);

/* Deadlocks reported so far (tests compare before and after). */
extern volatile u64 rt_mutex_deadlocks;

/* For ps and the GDB helpers: the lock t waits on, or NULL. */
struct rt_mutex *rt_mutex_blocked_on(const struct thread *t);
#endif
