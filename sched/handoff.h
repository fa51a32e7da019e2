/* sched_handoff() in steps, inline, for the IPC fast path (ipc/fastpath.c),
 * which changes stacks its own way; IRQs off throughout. Inline because
 * the fast path is where a call's prologue, its spills and its epilogue
 * are a tenth of the cost (docs/05-ipc-and-drivers.md): both steps run
 * once per message.
 *
 * sched_handoff_lock(prev, next, cpu): take cpu's run-queue lock (prev
 * is current there) and, with prev marked SLEEPING, check
 * sched_handoff()'s conditions; the run queue, or NULL (lock dropped,
 * prev RUNNING again) if they do not hold. The caller passes what it has
 * in registers already: each %gs read again is an instruction per message.
 * sched_handoff_prepare(): under that lock, make next current and do all
 * a switch does before the stacks change. The thread switched to then calls
 * finish_switch_irqs_off(prev) (sched/context_switch.h), which drops the
 * lock. */
#ifndef FOLD_SCHED_HANDOFF_H
#define FOLD_SCHED_HANDOFF_H

#include "sched/rq.h"
#include "sched/context_switch.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"

/* Under rq->lock: may next run here now, instead of everything queued?
 * (prev's own state is the caller's to check: see handoff_ok().) */
static __always_inline bool handoff_next_ok(struct rq *rq, struct thread *prev,
					    struct thread *next, u32 cpu)
{
	if ((u32)next->cpu != cpu || next->on_rq || next->on_cpu ||
	    READ_ONCE(next->state) != THREAD_SLEEPING)
		return false; /* woken meanwhile (a kill), or not asleep here */
	/* A request for prev (made before IRQs went off) is the scheduler's
	 * to serve: its folded bit would otherwise pass to next, whose own
	 * flags say nothing of it. */
	if (READ_ONCE(prev->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))
		return false;
	if (rt_throttled(rq, next))
		return false;
	/* Only a FIFO thread can outrank next: every queued normal thread
	 * has PRIO_NORMAL, the lowest priority there is (sched/thread.h). */
	if (list_empty(&rq->fifo))
		return true;
	struct thread *first = rq_first_queued(rq);
	return !first || first->prio <= next->prio;
}

/* sched_handoff()'s: prev set its state SLEEPING before it took the
 * lock, and a wake-up (try_to_wake_up(), under this lock) may have made
 * it RUNNING since. */
static __always_inline bool handoff_ok(struct rq *rq, struct thread *prev, struct thread *next,
				       u32 cpu)
{
	if (READ_ONCE(prev->state) != THREAD_SLEEPING)
		return false; /* prev was woken meanwhile: it does not block */
	return handoff_next_ok(rq, prev, next, cpu);
}

static __always_inline struct rq *sched_handoff_lock(struct thread *prev, struct thread *next,
						     u32 cpu)
{
	struct rq *rq = this_rq();
	raw_spin_lock(&rq->lock);
	/* Under the lock, as try_to_wake_up() changes it: no wake-up can
	 * come between this store and the switch, so unlike
	 * sched_handoff(), prev's state needs no second look. */
	__atomic_store_n(&prev->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	if (handoff_next_ok(rq, prev, next, cpu))
		return rq;
	__atomic_store_n(&prev->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	raw_spin_unlock(&rq->lock);
	return NULL;
}

/* The count is the caller's business: it must reach SWITCH_PREEMPT_COUNT
 * (the fast path keeps its endpoint lock's for schedule()'s own). What
 * switch_prepare() would work out, handoff_ok() has: next ran on this
 * CPU (next->cpu), neither is the idle thread (a thread with IPC state
 * never is), and prev blocks (nvcsw). */
static __always_inline void sched_handoff_prepare(struct rq *rq, struct thread *prev,
						  struct thread *next)
{
	__atomic_store_n(&next->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	next->on_rq = 1;
	prev->on_rq = 0;
	switch_refill_slice(next);
	prev->nvcsw++;
	__switch_prepare(rq, prev, next);
}
#endif
