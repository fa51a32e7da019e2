/* Ticket spinlocks: FIFO-fair, so no CPU starves under contention.
 * `next` is the ticket dispenser, `serving` the ticket now served; a
 * locker takes a ticket with one atomic fetch-add and spins (with pause,
 * see cpu_relax()) until it is served. Holding a spinlock disables
 * preemption, as in Linux. Debug checks: the owner CPU is recorded, and
 * taking a lock this CPU already holds is a loud BUG instead of a silent
 * deadlock. */
#ifndef FOLD_KERNEL_SPINLOCK_H
#define FOLD_KERNEL_SPINLOCK_H

#include "lib/types.h"

#ifndef LOCKDEP
#define LOCKDEP 0
#endif

struct lock_class_key;
struct lock_class;

struct spinlock {
	volatile u32 next;
	volatile u32 serving;
	volatile s32 owner_cpu; /* -1 when free */
	const char *name;
#if LOCKDEP
	/* lockdep (kernel/lockdep.h): the class key of spin_lock_init's call
	 * site, or NULL for a static lock, whose class is its own address;
	 * class caches the lookup. */
	struct lock_class_key *key;
	struct lock_class *class;
#endif
};

#if LOCKDEP
#define SPINLOCK_INIT(n) { 0, 0, -1, n, NULL, NULL }
#else
#define SPINLOCK_INIT(n) { 0, 0, -1, n }
#endif
#define DEFINE_SPINLOCK(x) struct spinlock x = SPINLOCK_INIT(#x)

#if LOCKDEP
/* One class per call site, as Linux's: the static key lives in the caller. */
struct lock_class_key { char dummy; };
void __spin_lock_init(struct spinlock *l, const char *name, struct lock_class_key *key);
#define spin_lock_init(l, name)                                 \
	do {                                                    \
		static struct lock_class_key __key;             \
		__spin_lock_init((l), (name), &__key);          \
	} while (0)
#else
void spin_lock_init(struct spinlock *l, const char *name);
#endif
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
u64 spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, u64 flags);
bool spin_is_locked(struct spinlock *l);
/* Unlock without the preempt count: finish_switch() releases the
 * run-queue lock the previous thread took, and drops the count itself. */
void raw_spin_unlock(struct spinlock *l);

#endif
