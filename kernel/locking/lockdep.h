/* lockdep-lite: the lock-order and IRQ-state validator (`make LOCKDEP=1`,
 * Linux's CONFIG_PROVE_LOCKING, much reduced).
 *
 * Every spinlock belongs to a class: a static lock (DEFINE_SPINLOCK,
 * SPINLOCK_INIT) is its own class, keyed by its address; the locks that
 * one raw_spin_lock_init() call site initialises share that site's class (a
 * static lock_class_key in the macro, as Linux's). Each CPU keeps a stack
 * of the locks it holds (per CPU, not per thread: the run-queue lock that
 * __schedule() takes is released by the next thread on the same CPU, in
 * finish_switch(), and that is the same stack). On each acquisition:
 *
 *  - for each held lock H and the new lock N, the dependency H -> N is
 *    recorded; before a new edge is added, if N already reaches H, the
 *    first such inversion is reported as Linux does: "possible circular
 *    locking dependency detected", both classes, the existing chain, the
 *    thread and a call trace. Two locks of one class nested (the rq locks
 *    of sched_pull_work, in CPU order) add no edge: fold has no
 *    spin_lock_nested() to say so, so lockdep-lite does not judge it.
 *  - a class taken in hardirq context and also taken with IRQs enabled is
 *    "inconsistent lock state", {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} (or the
 *    reverse, whichever came second).
 *  - a spinlock_t taken while a raw_spinlock_t is held is "Invalid wait
 *    context": on PREEMPT_RT the spinlock_t sleeps (spinlock.h).
 *
 * Each kind is reported once; after it lockdep goes on recording but stays
 * silent about that kind (lockdep_rearm() re-arms, for the tests). Its own
 * data is under an untracked lock with IRQs off; a per-CPU flag keeps
 * printk's console lock, taken while reporting, out of it. A full class
 * table or held-lock stack turns lockdep off with one message. Nothing is
 * tracked in NMI context. With LOCKDEP=0 the hooks are empty macros and
 * raw_spinlock_t has no lockdep fields. */
#ifndef FOLD_KERNEL_LOCKDEP_H
#define FOLD_KERNEL_LOCKDEP_H

#include "lib/types.h"
#include "kernel/locking/spinlock.h"

#define LOCKDEP_MAX_CLASSES 128
#define LOCKDEP_MAX_DEPTH 16

#if LOCKDEP
/* The spinlock hooks: before a lock is taken (trylock: after, and no
 * dependency, as a trylock cannot wait), and at its release. ip names the
 * caller in reports. */
void lock_acquire(raw_spinlock_t *l, bool trylock, u64 ip);
void lock_release(raw_spinlock_t *l);
/* Boot (kmain): from here on, locks are tracked. Prints "lockdep: on". */
void lockdep_init(void);

/* Reports printed so far, of each kind (tests compare before and after). */
extern volatile u64 lockdep_circular_reports;
extern volatile u64 lockdep_irq_reports;
extern volatile u64 lockdep_wait_reports;  /* spinlock_t inside a raw one */
/* Whether lockdep still tracks (a full table turns it off). */
bool lockdep_active(void);
u32 lockdep_class_count(void);
u32 lockdep_dependency_count(void);
/* The recorded orders "from -> to", up to max of them; returns how many
 * there are. */
u32 lockdep_dependencies(const char **from, const char **to, u32 max);
/* Locks in this CPU's held stack (IRQs off, or preemption, to ask). */
u32 lockdep_held_here(void);
/* Test hook: the next report of each kind is printed again. */
void lockdep_rearm(void);
#else
#define lock_acquire(l, trylock, ip) do { (void)(ip); } while (0)
#define lock_release(l) do { } while (0)
static inline void lockdep_init(void) { }
#endif

#endif
