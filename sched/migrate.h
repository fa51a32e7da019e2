/* migrate_disable() and migrate_enable(): keep the current thread on its
 * CPU while it stays preemptible (Linux's names, include/linux/preempt.h).
 *
 * On PREEMPT_RT they count in the thread (migration_disabled). While the
 * count is above zero, fold's two ways of moving a thread leave it where
 * it is: a wake-up puts it back on the CPU it slept on (select_cpu()),
 * and an idle CPU does not pull it off a run queue (sched_pull_work()).
 * spinlock_t and local_lock_t take it on RT, so that per-CPU data stays
 * the holder's though the holder is preempted, or sleeps on the lock.
 * fold never changes a thread's affinity, so migrate_enable() has nothing
 * to catch up on (Linux's may have to move the thread then).
 *
 * In every other build they are preempt_disable() and preempt_enable(),
 * as Linux's were outside RT until 5.11 ("sched: Make
 * migrate_disable/enable() independent of RT"): a section that must stay
 * on its CPU there may as well not be preempted, and the wake-up path
 * keeps its length. */
#ifndef FOLD_SCHED_MIGRATE_H
#define FOLD_SCHED_MIGRATE_H
#include "sched/sched.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/debug/checks.h"

static __always_inline bool is_migration_disabled(const struct thread *t)
{
	return PREEMPT_RT && READ_ONCE(t->migration_disabled) != 0;
}

/* Only the thread itself writes its count. Preempted in the middle of the
 * increment, it may still be moved once; from the return on, its CPU is
 * fixed. */
static __always_inline void migrate_disable(void)
{
#if PREEMPT_RT
	current_thread()->migration_disabled++;
	barrier();
#else
	preempt_disable();
#endif
}

static __always_inline void migrate_enable(void)
{
#if PREEMPT_RT
	struct thread *t = current_thread();
	barrier();
	if (DEBUG_CHECKS && unlikely(t->migration_disabled == 0)) {
		report_bug("migrate_enable() without migrate_disable() in thread %u (%s)",
			   t->id, t->name);
		return;
	}
	t->migration_disabled--;
#else
	preempt_enable();
#endif
}
#endif
