#include "kernel/locking/raw_spinlock.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/lock_stat.h"
#include "arch/x86_64/cpu.h"

/* lockdep's hooks (kernel/locking/lockdep.h) are empty macros with LOCKDEP=0, so
 * every function below compiles to what it was before lockdep. */
#define CALLER_IP ((u64)__builtin_return_address(0))

#if LOCKDEP
void __raw_spin_lock_init(raw_spinlock_t *l, const char *name, struct lock_class_key *key)
{
	l->key = key;
	l->class = NULL;
	l->wait_type = LD_WAIT_SPIN; /* spin_lock_init() then says CONFIG */
#else
void raw_spin_lock_init(raw_spinlock_t *l, const char *name)
{
#endif
	l->next = 0;
	l->serving = 0;
#if DEBUG_CHECKS
	l->owner_cpu = -1;
#endif
	l->name = name;
}

/* Returns false, without taking the lock, when this CPU already holds it:
 * a certain deadlock, reported instead (the debug check; Linux's
 * debug_spin_lock_before()). A release build spins on: it deadlocks. */
static bool do_raw_spin_lock(raw_spinlock_t *l)
{
#if DEBUG_CHECKS
	s32 me = (s32)raw_smp_processor_id();
	if (unlikely(READ_ONCE(l->owner_cpu) == me)) {
		report_bug("spinlock recursion: lock %s already held by this CPU (%d)",
			   l->name ? l->name : "?", me);
		return false;
	}
#endif
	u32 ticket = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	if (unlikely(__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != ticket)) {
		/* Held: a contended acquisition (kernel/locking/lock_stat.h). */
		lock_contended(l);
		while (__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != ticket)
			cpu_relax();
		lock_contended_end(l);
	}
#if DEBUG_CHECKS
	l->owner_cpu = me;
#endif
	return true;
}

#if !LOCKDEP
/* The inline raw_spin_lock()'s contended path: preemption is already off. */
void raw_spin_lock_slowpath(raw_spinlock_t *l)
{
	if (!do_raw_spin_lock(l))
		preempt_enable_no_resched();
}

#if DEBUG_CHECKS
/* debug_spin_unlock()'s BUG. */
void raw_spin_unlock_bad(raw_spinlock_t *l)
{
	BUG("spin_unlock of %s by CPU %u, owner is CPU %d",
	    l->name ? l->name : "?", raw_smp_processor_id(), l->owner_cpu);
}
#endif
#else
/* LOCKDEP=1 is a debug build (raw_spinlock.h): the owner is there. */
void do_raw_spin_unlock(raw_spinlock_t *l)
{
	if (unlikely(l->owner_cpu != (s32)raw_smp_processor_id()))
		BUG("spin_unlock of %s by CPU %u, owner is CPU %d",
		    l->name ? l->name : "?", raw_smp_processor_id(), l->owner_cpu);
	lock_release(l);
	l->owner_cpu = -1;
	__atomic_store_n(&l->serving, l->serving + 1, __ATOMIC_RELEASE);
}

static __always_inline void __spin_lock(raw_spinlock_t *l, u64 ip)
{
	preempt_disable();
	lock_acquire(l, false, ip);
	if (!do_raw_spin_lock(l)) {
		lock_release(l);
		preempt_enable_no_resched();
	}
}

void raw_spin_lock(raw_spinlock_t *l)
{
	__spin_lock(l, CALLER_IP);
}

void raw_spin_unlock(raw_spinlock_t *l)
{
	do_raw_spin_unlock(l);
	preempt_enable();
}

#endif

bool raw_spin_trylock(raw_spinlock_t *l)
{
	preempt_disable();
	u32 s = __atomic_load_n(&l->serving, __ATOMIC_RELAXED);
	u32 expected = s;
	if (__atomic_compare_exchange_n(&l->next, &expected, s + 1, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		debug_spin_lock_after(l);
		lock_acquire(l, true, CALLER_IP);
		return true;
	}
	preempt_enable();
	return false;
}

#if LOCKDEP
u64 raw_spin_lock_irqsave(raw_spinlock_t *l)
{
	u64 f = local_irq_save();
	__spin_lock(l, CALLER_IP); /* reports name the caller */
	return f;
}

void raw_spin_unlock_irqrestore(raw_spinlock_t *l, u64 flags)
{
	/* Unlock with IRQs still off, then restore: preempt_enable() here
	 * may reschedule only if IRQs were on (preempt_schedule checks). */
	do_raw_spin_unlock(l);
	local_irq_restore(flags);
	preempt_enable();
}
#endif

bool raw_spin_is_locked(raw_spinlock_t *l)
{
	return READ_ONCE(l->next) != READ_ONCE(l->serving);
}
