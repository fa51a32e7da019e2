/* sched_handoff(): the current thread, about to block, gives its CPU
 * straight to a thread it has just made runnable, without the run queue:
 * the switch of IPC on one CPU (ipc/endpoint.c; in steps, ipc/fastpath.c),
 * seL4's switchToThread() after a fastpath call. Linux has no such call; the
 * nearest is a wake-up followed by a switch that picks the wakee, which
 * is what the slow path does. */
#include "sched/handoff.h"
#include "arch/x86_64/cpu.h"

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
