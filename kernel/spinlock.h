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

struct spinlock {
	volatile u32 next;
	volatile u32 serving;
	volatile s32 owner_cpu; /* -1 when free */
	const char *name;
};

#define SPINLOCK_INIT(n) { 0, 0, -1, n }
#define DEFINE_SPINLOCK(x) struct spinlock x = SPINLOCK_INIT(#x)

void spin_lock_init(struct spinlock *l, const char *name);
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
