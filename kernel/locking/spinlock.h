/* spinlock_t: the lock for sections that may sleep on PREEMPT_RT
 * (Linux's split, Documentation/locking/locktypes.rst).
 *
 * In every build but PREEMPT=rt it is a raw_spinlock_t: it spins, and its
 * holder runs with preemption (and, with _irqsave, IRQs) off.
 *
 * With PREEMPT=rt (PREEMPT_RT=1) it is an rt_mutex: a contended taker
 * sleeps, the holder can be preempted, and an owner inherits the priority
 * of the threads it blocks. spin_lock() leaves the preempt count alone,
 * and spin_lock_irqsave() leaves IRQs on, as on Linux: the interrupt
 * handlers that could take such a lock run in threads there. Instead,
 * as Linux's, spin_lock() calls migrate_disable() once it has the lock
 * (sched/migrate.h): a preempted holder stays on its CPU. A section of
 * per-CPU data takes a local_lock_t (kernel/locking/local_lock.h).
 *
 * So a spinlock_t may be taken only where sleeping is allowed on RT: not
 * inside a raw_spinlock_t section, not with IRQs off, not from a hard
 * interrupt handler. lockdep-lite reports a spinlock_t taken inside a
 * raw_spinlock_t in every build (Linux's "Invalid wait context"), and on
 * RT might_sleep() reports the rest. */
#ifndef FOLD_KERNEL_SPINLOCK_H
#define FOLD_KERNEL_SPINLOCK_H

#include "kernel/locking/raw_spinlock.h"
#include "kernel/preempt.h" /* PREEMPT_RT */

#if !PREEMPT_RT
typedef struct spinlock {
	raw_spinlock_t rlock;
} spinlock_t;

/* SPINLOCK_INIT(the lock, its name), in both builds. */
#define SPINLOCK_INIT(x, n) { __RAW_SPINLOCK_INIT(n, LD_WAIT_CONFIG) }
#define DEFINE_SPINLOCK(x) spinlock_t x = SPINLOCK_INIT(x, #x)

#if LOCKDEP
#define spin_lock_init(l, name)                                  \
	do {                                                     \
		raw_spin_lock_init(&(l)->rlock, (name));         \
		(l)->rlock.wait_type = LD_WAIT_CONFIG;           \
	} while (0)
#else
#define spin_lock_init(l, name) raw_spin_lock_init(&(l)->rlock, (name))
#endif

static __always_inline void spin_lock(spinlock_t *l)
{
	raw_spin_lock(&l->rlock);
}

static __always_inline void spin_unlock(spinlock_t *l)
{
	raw_spin_unlock(&l->rlock);
}

static __always_inline bool spin_trylock(spinlock_t *l)
{
	return raw_spin_trylock(&l->rlock);
}

static __always_inline u64 spin_lock_irqsave(spinlock_t *l)
{
	return raw_spin_lock_irqsave(&l->rlock);
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *l, u64 flags)
{
	raw_spin_unlock_irqrestore(&l->rlock, flags);
}

#else /* PREEMPT_RT */
#include "kernel/locking/rtmutex.h"

typedef struct spinlock {
	struct rt_mutex lock;
} spinlock_t;

#define SPINLOCK_INIT(x, n) { RT_MUTEX_INIT((x).lock, n) }
#define DEFINE_SPINLOCK(x) spinlock_t x = SPINLOCK_INIT(x, #x)
#define spin_lock_init(l, name) rt_mutex_init(&(l)->lock, (name))

/* kernel/locking/spinlock_rt.c */
void rt_spin_lock(spinlock_t *l);
void rt_spin_unlock(spinlock_t *l);
bool rt_spin_trylock(spinlock_t *l);

static __always_inline void spin_lock(spinlock_t *l)
{
	rt_spin_lock(l);
}

static __always_inline void spin_unlock(spinlock_t *l)
{
	rt_spin_unlock(l);
}

static __always_inline bool spin_trylock(spinlock_t *l)
{
	return rt_spin_trylock(l);
}

/* IRQs stay on: flags is 0, and restoring it does nothing. */
static __always_inline u64 spin_lock_irqsave(spinlock_t *l)
{
	rt_spin_lock(l);
	return 0;
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *l, u64 flags)
{
	(void)flags;
	rt_spin_unlock(l);
}
#endif
#endif
