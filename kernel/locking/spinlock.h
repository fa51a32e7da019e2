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
	/* lockdep (kernel/locking/lockdep.h): the class key of spin_lock_init's call
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
bool spin_trylock(struct spinlock *l);
bool spin_is_locked(struct spinlock *l);

#if LOCKDEP
/* With lockdep every lock and unlock goes through its hooks: out of line
 * (kernel/locking/spinlock.c), and the reports name the caller. */
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
u64 spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, u64 flags);
/* Unlock without the preempt count: finish_switch() releases the
 * run-queue lock the previous thread took, and drops the count itself. */
void raw_spin_unlock(struct spinlock *l);
#else
#include "kernel/preempt.h"

/* The fast path, inline (as Linux's queued_spin_lock()): an uncontended
 * lock is one compare-and-exchange of the dispenser from `serving` to
 * `serving + 1`, which succeeds only when no ticket is outstanding. A lock
 * this CPU already holds is never free, so the recursion check lives in
 * the slow path (spin_lock_slowpath) without losing a case. The unlock
 * keeps its owner check: one %gs read and a compare. */
void spin_lock_slowpath(struct spinlock *l);
__noreturn void spin_unlock_bad(struct spinlock *l);

static __always_inline void spin_lock(struct spinlock *l)
{
	preempt_disable();
	u32 s = __atomic_load_n(&l->serving, __ATOMIC_RELAXED);
	if (likely(__atomic_compare_exchange_n(&l->next, &s, s + 1, false,
					       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
		l->owner_cpu = (s32)raw_smp_processor_id();
	else
		spin_lock_slowpath(l);
}

/* Unlock without the preempt count: finish_switch() releases the
 * run-queue lock the previous thread took, and drops the count itself. */
static __always_inline void raw_spin_unlock(struct spinlock *l)
{
	if (unlikely(l->owner_cpu != (s32)raw_smp_processor_id()))
		spin_unlock_bad(l);
	l->owner_cpu = -1;
	__atomic_store_n(&l->serving, l->serving + 1, __ATOMIC_RELEASE);
}

static __always_inline void spin_unlock(struct spinlock *l)
{
	raw_spin_unlock(l);
	preempt_enable();
}

static __always_inline u64 spin_lock_irqsave(struct spinlock *l)
{
	u64 f = local_irq_save();
	spin_lock(l);
	return f;
}

/* Unlock with IRQs still off, then restore: preempt_enable() here may
 * reschedule only if IRQs were on (preempt_schedule checks). */
static __always_inline void spin_unlock_irqrestore(struct spinlock *l, u64 flags)
{
	raw_spin_unlock(l);
	local_irq_restore(flags);
	preempt_enable();
}
#endif

#endif
