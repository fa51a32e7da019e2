/* sched_handoff(): the current thread, about to block, gives its CPU
 * straight to a thread it has just made runnable, without the run queue:
 * the switch of IPC on one CPU (ipc/endpoint.c; in steps, ipc/fastpath.c),
 * seL4's switchToThread() after a fastpath call. Linux has no such call; the
 * nearest is a wake-up followed by a switch that picks the wakee, which
 * is what the slow path does. */
#include "sched/rq.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"

/* Under rq->lock: may next run here now, instead of everything queued? */
static __always_inline bool handoff_ok(struct rq *rq, struct thread *prev, struct thread *next,
				       u32 cpu)
{
	if ((u32)next->cpu != cpu || next->on_rq || next->on_cpu ||
	    READ_ONCE(next->state) != THREAD_SLEEPING)
		return false; /* woken meanwhile (a kill), or not asleep here */
	if (READ_ONCE(prev->state) != THREAD_SLEEPING)
		return false; /* prev was woken meanwhile: it does not block */
	/* A request for prev (made before IRQs went off) is the scheduler's
	 * to serve: its folded bit would otherwise pass to next, whose own
	 * flags say nothing of it. */
	if (READ_ONCE(prev->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))
		return false;
	if (rt_throttled(rq, next))
		return false;
	if (!rq->nr_queued)
		return true;
	struct thread *first = rq_first_queued(rq);
	return !first || first->prio <= next->prio;
}

bool sched_handoff(struct thread *next)
{
	struct thread *prev = current_thread();
	preempt_disable();
	local_irq_disable();
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = &rqs[cpu];
	spin_lock(&rq->lock);
	if (!handoff_ok(rq, prev, next, cpu)) {
		spin_unlock(&rq->lock);
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

bool sched_handoff_lock(struct thread *next)
{
	struct thread *prev = current_thread();
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = &rqs[cpu];
	spin_lock(&rq->lock);
	__atomic_store_n(&prev->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	if (handoff_ok(rq, prev, next, cpu))
		return true;
	__atomic_store_n(&prev->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	spin_unlock(&rq->lock);
	return false;
}

void sched_handoff_prepare(struct thread *next)
{
	struct thread *prev = current_thread();
	struct rq *rq = &rqs[raw_smp_processor_id()];
	preempt_count_add(PREEMPT_DISABLE_OFFSET); /* schedule()'s own */
	__atomic_store_n(&next->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	next->on_rq = 1;
	prev->on_rq = 0;
	switch_prepare(rq, prev, next);
}
