/* local_lock_t: the lock of a per-CPU data section (Linux 5.8,
 * include/linux/local_lock.h; Documentation/locking/locktypes.rst).
 *
 * Per-CPU data is safe from other CPUs by construction; what can break
 * a section on its own CPU is another thread of that CPU preempting it
 * (or the holder moving away mid-section). preempt_disable() prevents
 * both, but says nothing of what it protects; a local_lock_t names the
 * data, and becomes what RT needs:
 *
 *   - in every build but PREEMPT=rt, local_lock() is preempt_disable()
 *     and the local_lock_t is empty: the same code as before;
 *   - on PREEMPT_RT, each CPU's local_lock_t is a spinlock_t, so an
 *     rt_mutex: local_lock() is migrate_disable() (sched/migrate.h) and
 *     then this CPU's lock. The section is preemptible; another thread of
 *     the same CPU that wants the section sleeps on the lock, and the
 *     holder inherits its priority.
 *
 * fold's per-CPU data is an array indexed by CPU, so the lock is a member
 * of the per-CPU struct and the calls name both:
 *
 *	static struct my_pcp { local_lock_t lock; u64 n; } my_pcp[MAX_CPUS];
 *	local_lock_init_all(my_pcp, lock, "my_pcp");   (once, at init)
 *	local_lock(my_pcp, lock);
 *	this_cpu_local(my_pcp)->n++;
 *	local_unlock(my_pcp, lock);
 *
 * As a spinlock_t, it may be taken only where sleeping is allowed on RT. */
#ifndef FOLD_KERNEL_LOCAL_LOCK_H
#define FOLD_KERNEL_LOCAL_LOCK_H
#include "kernel/locking/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/migrate.h"

/* This CPU's element of a per-CPU array: stable inside the section. */
#define this_cpu_local(pcp) (&(pcp)[raw_smp_processor_id()])

#if !PREEMPT_RT
typedef struct {
} local_lock_t;

#define local_lock_init(l, name) ((void)(l), (void)(name))
#define __local_lock_acquire(l) ((void)(l))
#define __local_lock_release(l) ((void)(l))
#else
typedef struct {
	spinlock_t lock;
} local_lock_t;

#define local_lock_init(l, name) spin_lock_init(&(l)->lock, (name))
/* Inside migrate_disable(): rt_spin_lock() adds its own, the nesting is
 * counted. */
#define __local_lock_acquire(l) spin_lock(&(l)->lock)
#define __local_lock_release(l) spin_unlock(&(l)->lock)
#endif

/* Every possible CPU's lock of the array pcp (member `member`). */
#define local_lock_init_all(pcp, member, name)                     \
	do {                                                       \
		for (u32 c__ = 0; c__ < MAX_CPUS; c__++)           \
			local_lock_init(&(pcp)[c__].member, (name)); \
	} while (0)

/* On RT, migrate_disable() first: then the CPU, and so the lock, is this
 * one for the whole section. Elsewhere, preempt_disable() (which
 * migrate_disable() is there). */
#define local_lock(pcp, member)                                    \
	do {                                                       \
		migrate_disable();                                 \
		__local_lock_acquire(&this_cpu_local(pcp)->member); \
	} while (0)

#define local_unlock(pcp, member)                                  \
	do {                                                       \
		__local_lock_release(&this_cpu_local(pcp)->member); \
		migrate_enable();                                  \
	} while (0)
#endif
