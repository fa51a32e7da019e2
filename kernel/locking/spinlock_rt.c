/* PREEMPT=rt's spinlock_t (kernel/locking/spinlock.h): an rt_mutex, taken
 * without touching the preempt count (Linux's kernel/locking/spinlock_rt.c).
 * Other builds compile nothing here. */
#include "kernel/locking/spinlock.h"
#if PREEMPT_RT
#include "kernel/panic.h"
#include "sched/sched.h"
#include "sched/migrate.h"

/* The sleep keeps the state the thread had: one between prepare_to_wait()
 * and schedule() is SLEEPING, and its wait must survive the lock's. Once
 * the lock is taken, the holder stays on its CPU (migrate_disable()), as
 * on Linux: per-CPU data read in the section stays its own. */
void rt_spin_lock(spinlock_t *l)
{
	might_sleep();
	if (likely(rt_mutex_trylock(&l->lock))) {
		migrate_disable();
		return;
	}
	current_save_and_set_rtlock_wait_state();
	int r = rt_mutex_slowlock(&l->lock, THREAD_RTLOCK_WAIT);
	current_restore_rtlock_saved_state();
	if (likely(r == 0)) {
		migrate_disable();
		return;
	}
	/* A cycle: the report is out. Stop this thread here, for good
	 * (Linux's rt_mutex_handle_deadlock()), rather than go on without
	 * the lock; the rest of the kernel keeps running. */
	for (;;) {
		WRITE_ONCE(current_thread()->state, THREAD_SLEEPING);
		schedule();
	}
}

void rt_spin_unlock(spinlock_t *l)
{
	migrate_enable();
	rt_mutex_unlock(&l->lock);
}

bool rt_spin_trylock(spinlock_t *l)
{
	if (!rt_mutex_trylock(&l->lock))
		return false;
	migrate_disable();
	return true;
}
#endif
