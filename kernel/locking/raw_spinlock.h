/* raw_spinlock_t, the spinning lock (Linux's name): a ticket lock,
 * FIFO-fair, so no CPU starves under contention.
 * `next` is the ticket dispenser, `serving` the ticket now served; a
 * locker takes a ticket with one atomic fetch-add and spins (with pause,
 * see cpu_relax()) until it is served. Holding one disables preemption,
 * in every build, PREEMPT=rt's too: it is for what must never sleep (the
 * run queues, the timer base, wait queues, IPIs, the IPC fast path, the
 * allocators). What may sleep on PREEMPT=rt takes a spinlock_t
 * (kernel/locking/spinlock.h). Debug checks (Linux's CONFIG_DEBUG_SPINLOCK):
 * the owner CPU is recorded, an unlock by another CPU is a BUG, and taking
 * a lock this CPU already holds is a loud report instead of a silent
 * deadlock. A release build has no owner field and none of the three
 * (kernel/debug/checks.h). */
#ifndef FOLD_KERNEL_RAW_SPINLOCK_H
#define FOLD_KERNEL_RAW_SPINLOCK_H

#include "lib/types.h"
#include "kernel/percpu.h"
#include "kernel/debug/checks.h"

#ifndef LOCKDEP
#define LOCKDEP 0
#endif

struct lock_class_key;
struct lock_class;

/* lockdep's wait types (Linux's LD_WAIT_SPIN, LD_WAIT_CONFIG): a
 * raw_spinlock_t spins in every build; a spinlock_t spins here but sleeps
 * on PREEMPT=rt, so it may not be taken inside a raw one. */
enum { LD_WAIT_SPIN = 1, LD_WAIT_CONFIG = 2 };

typedef struct raw_spinlock {
	volatile u32 next;
	volatile u32 serving;
#if DEBUG_CHECKS
	volatile s32 owner_cpu; /* -1 when free */
#endif
	const char *name;
#if LOCKDEP
	/* lockdep (kernel/locking/lockdep.h): the class key of spin_lock_init's call
	 * site, or NULL for a static lock, whose class is its own address;
	 * class caches the lookup. */
	struct lock_class_key *key;
	struct lock_class *class;
	u8 wait_type;              /* LD_WAIT_SPIN or LD_WAIT_CONFIG */
#endif
} raw_spinlock_t;

#if DEBUG_CHECKS
#define __RAW_SPINLOCK_OWNER_INIT .owner_cpu = -1,
#else
#define __RAW_SPINLOCK_OWNER_INIT
#endif
#if LOCKDEP
#if !DEBUG_CHECKS
#error "lockdep reads the owner a release build does not keep (the Makefile refuses RELEASE=1 LOCKDEP=1)"
#endif
#define __RAW_SPINLOCK_INIT(n, wait) \
	{ .next = 0, .serving = 0, __RAW_SPINLOCK_OWNER_INIT .name = n, \
	  .key = NULL, .class = NULL, .wait_type = wait }
#else
#define __RAW_SPINLOCK_INIT(n, wait) \
	{ .next = 0, .serving = 0, __RAW_SPINLOCK_OWNER_INIT .name = n }
#endif
#define RAW_SPINLOCK_INIT(n) __RAW_SPINLOCK_INIT(n, LD_WAIT_SPIN)
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = RAW_SPINLOCK_INIT(#x)

#if LOCKDEP
/* One class per call site, as Linux's: the static key lives in the caller. */
struct lock_class_key { char dummy; };
void __raw_spin_lock_init(raw_spinlock_t *l, const char *name, struct lock_class_key *key);
#define raw_spin_lock_init(l, name)                                 \
	do {                                                    \
		static struct lock_class_key __key;             \
		__raw_spin_lock_init((l), (name), &__key);          \
	} while (0)
#else
void raw_spin_lock_init(raw_spinlock_t *l, const char *name);
#endif
bool raw_spin_trylock(raw_spinlock_t *l);
bool raw_spin_is_locked(raw_spinlock_t *l);

/* The owner, in the debug build only: recorded once the lock is taken,
 * and checked (a BUG, raw_spin_unlock_bad()) and cleared at unlock.
 * Linux's debug_spin_lock_after() and debug_spin_unlock(). */
__noreturn void raw_spin_unlock_bad(raw_spinlock_t *l);
static __always_inline void debug_spin_lock_after(raw_spinlock_t *l)
{
#if DEBUG_CHECKS
	l->owner_cpu = (s32)raw_smp_processor_id();
#else
	(void)l;
#endif
}
static __always_inline void debug_spin_unlock(raw_spinlock_t *l)
{
#if DEBUG_CHECKS
	if (unlikely(l->owner_cpu != (s32)raw_smp_processor_id()))
		raw_spin_unlock_bad(l);
	l->owner_cpu = -1;
#else
	(void)l;
#endif
}

#if LOCKDEP
/* With lockdep every lock and unlock goes through its hooks: out of line
 * (kernel/locking/raw_spinlock.c), and the reports name the caller. */
void raw_spin_lock(raw_spinlock_t *l);
void raw_spin_unlock(raw_spinlock_t *l);
u64 raw_spin_lock_irqsave(raw_spinlock_t *l);
void raw_spin_unlock_irqrestore(raw_spinlock_t *l, u64 flags);
/* Unlock without the preempt count: finish_switch() releases the
 * run-queue lock the previous thread took, and drops the count itself. */
void do_raw_spin_unlock(raw_spinlock_t *l);
#else
#include "kernel/preempt.h"

/* The fast path, inline (as Linux's queued_spin_lock()): an uncontended
 * lock is one compare-and-exchange of the dispenser from `serving` to
 * `serving + 1`, which succeeds only when no ticket is outstanding. A lock
 * this CPU already holds is never free, so the recursion check lives in
 * the slow path (raw_spin_lock_slowpath) without losing a case. The unlock
 * keeps its owner check (debug build): one %gs read and a compare. */
void raw_spin_lock_slowpath(raw_spinlock_t *l);

static __always_inline void raw_spin_lock(raw_spinlock_t *l)
{
	preempt_disable();
	u32 s = __atomic_load_n(&l->serving, __ATOMIC_RELAXED);
	if (likely(__atomic_compare_exchange_n(&l->next, &s, s + 1, false,
					       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
		debug_spin_lock_after(l);
	else
		raw_spin_lock_slowpath(l);
}

/* Unlock without the preempt count: finish_switch() releases the
 * run-queue lock the previous thread took, and drops the count itself. */
static __always_inline void do_raw_spin_unlock(raw_spinlock_t *l)
{
	debug_spin_unlock(l);
	__atomic_store_n(&l->serving, l->serving + 1, __ATOMIC_RELEASE);
}

static __always_inline void raw_spin_unlock(raw_spinlock_t *l)
{
	do_raw_spin_unlock(l);
	preempt_enable();
}

static __always_inline u64 raw_spin_lock_irqsave(raw_spinlock_t *l)
{
	u64 f = local_irq_save();
	raw_spin_lock(l);
	return f;
}

/* Unlock with IRQs still off, then restore: preempt_enable() here may
 * reschedule only if IRQs were on (preempt_schedule checks). */
static __always_inline void raw_spin_unlock_irqrestore(raw_spinlock_t *l, u64 flags)
{
	do_raw_spin_unlock(l);
	local_irq_restore(flags);
	preempt_enable();
}
#endif

#endif
