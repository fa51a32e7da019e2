/* sched_handoff(): the current thread, about to block, gives its CPU
 * straight to a thread it has just made runnable, without the run queue:
 * the switch of IPC on one CPU (ipc/endpoint.c; in steps, ipc/fastpath.c),
 * seL4's switchToThread() after a fastpath call. Linux has no such call; the
 * nearest is a wake-up followed by a switch that picks the wakee, which
 * is what the slow path does. */
#include "sched/handoff.h"
#include "arch/x86_64/cpu.h"
#include "kernel/debug/checks.h"

bool sched_handoff(struct thread *next)
{
	struct thread *prev = current_thread();
	preempt_disable();
	local_irq_disable();
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = &rqs[cpu];
	raw_spin_lock(&rq->lock);
	if (!handoff_ok(rq, prev, next, cpu)) {
		raw_spin_unlock(&rq->lock);
		local_irq_enable();
		preempt_enable_no_resched();
		return false;
	}
	/* As a wake-up and pick_next() would leave them: next current and
	 * counted runnable, prev off the run queue. */
	__atomic_store_n(&next->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	next->on_rq = 1;
	prev->on_rq = 0;
	context_switch(rq, prev, next);
	preempt_enable_no_resched();
	return true;
}

/* complete_and_wait()'s switch (sched/wait.c): prev is on the queue of
 * what it waits for, SLEEPING; next, the sole waiter of the queue whose
 * lock is `held` (its entry there: node), has just had its condition made
 * true. Once the switch is decided, node is taken off that queue, as
 * Linux's autoremove_wake_function() does, so that next's finish_wait()
 * finds it off and takes no lock: next cannot run before the switch
 * (asleep, on no CPU, and only this CPU's, whose lock is held, may run
 * it), so nothing reads node meanwhile. The order of the
 * locks is a wake-up's (wake_up_all(): the queue's, then the run
 * queue's). `held` is released only once next is RUNNING under the run
 * queue's lock, which every waker of next takes, so no wake-up of next
 * is lost or doubled; the lock's count goes with it, leaving the switch
 * its SWITCH_PREEMPT_COUNT (schedule()'s preempt_disable() and rq->lock). */
bool sched_handoff_wake(struct thread *next, raw_spinlock_t *held, struct list_head *node)
{
	struct thread *prev = current_thread();
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = this_rq();
	DEBUG_BUG_ON(!irqs_disabled());
	preempt_disable();
	raw_spin_lock(&rq->lock);
	if (!handoff_ok(rq, prev, next, cpu)) {
		raw_spin_unlock(&rq->lock);
		preempt_enable_no_resched();
		return false;
	}
	__atomic_store_n(&next->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	next->on_rq = 1;
	prev->on_rq = 0;
	DEBUG_BUG_ON(next->on_cpu || list_empty(node));
	list_del_init(node);
	do_raw_spin_unlock(held);
	preempt_count_sub(PREEMPT_DISABLE_OFFSET);
	context_switch(rq, prev, next);
	preempt_enable_no_resched();
	return true;
}
