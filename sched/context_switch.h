/* The two halves of a context switch, on either side of the change of
 * stacks (switch_to(), arch/x86_64/entry/switch.asm): what Linux's
 * context_switch() does before switch_to() (prepare_task_switch(), the
 * address space) and finish_task_switch() after it (kernel/sched/core.c).
 * Inline, because two paths run them on every pass and count every
 * instruction: context_switch() (sched/core.c) and the IPC fast path
 * (ipc/fastpath.c, through sched/handoff.h), where a call's prologue and
 * epilogue were a tenth of a direction (docs/05-ipc-and-drivers.md).
 * Not for use outside sched/ and that fast path. */
#ifndef FOLD_SCHED_CONTEXT_SWITCH_H
#define FOLD_SCHED_CONTEXT_SWITCH_H
#include "sched/rq.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/trace/trace.h"
#include "kernel/debug/checks.h"
#include "mm/user_mm.h"
#include "arch/x86_64/kernel/gdt.h"

/* check_switch_count()'s panic (sched/core.c). */
__noreturn __attribute__((cold)) void switch_count_bug(const char *when);

/* The count on both sides of every switch is SWITCH_PREEMPT_COUNT
 * (sched/core.c says why); counted, so that the torture can say how many
 * it made (none failed: a failure is a panic). A debug check: a release
 * build neither checks nor counts (kernel/debug/checks.h). */
static __always_inline void check_switch_count(const char *when)
{
	if (!DEBUG_CHECKS)
		return;
	this_cpu_stat_inc(switch_count_checks);
	if (unlikely(preempt_count() != SWITCH_PREEMPT_COUNT))
		switch_count_bug(when);
}

/* The part of switch_prepare() every switch does the same way, on this
 * CPU (cpu) with rq->lock held and IRQs off: rq->curr, the counters, the
 * count model's switch, CR3, TSS.RSP0 and `current`. The IPC fast path
 * calls it directly (sched/handoff.h), having checked under the lock what
 * switch_prepare() works out: next already ran here, prev blocks, and
 * neither is the idle thread. */
static __always_inline void __switch_prepare(struct rq *rq, struct thread *prev,
					     struct thread *next)
{
	rq->curr = next;
	next->on_cpu = 1;
	prev->nr_switches++;
	this_cpu_stat_inc(context_switches);
	trace_event(sched_switch, prev, next);
	preempt_model_switch(&prev->saved_preempt_count, &next->saved_preempt_count);
	switch_mm_irqs_off(next);        /* CR3: next's address space (mm/user_mm.c) */
	tss_set_rsp0(next->stack_top);   /* where an entry from ring 3 lands */
	this_cpu_write(current, next);
}

/* A normal thread switched in with its slice used up starts a new one. */
static __always_inline void switch_refill_slice(struct thread *next)
{
	if (next->prio == PRIO_NORMAL && next->slice <= 0)
		next->slice = SCHED_SLICE_TICKS;
}

/* Everything before the stacks change, with rq->lock held and IRQs off:
 * next's CPU and slice, prev's switch counted voluntary or not, then
 * __switch_prepare(). */
static __always_inline void switch_prepare(struct rq *rq, struct thread *prev,
					   struct thread *next)
{
	next->cpu = (int)raw_smp_processor_id();
	if (next != rq->idle)
		switch_refill_slice(next);
	/* Blocked: off the run queue (__schedule() took it off, or
	 * sched_handoff(), or the IPC fast path); anything else, the idle
	 * thread included, was switched out runnable. Linux's __schedule()
	 * decides the same way: nvcsw only when not preempted and prev_state
	 * is not running. */
	if (prev != rq->idle && !prev->on_rq)
		prev->nvcsw++;
	else
		prev->nivcsw++;
	__switch_prepare(rq, prev, next);
}

/* The second half, run by the thread switched TO (or by a new thread in
 * thread_start): release the run-queue lock that the previous thread took
 * on this CPU, and fold its own need-resched state. IRQs stay off: the
 * IPC fast path goes on to SYSRET; finish_switch() (sched/sched.h) is
 * this, then IRQs on. */
static __always_inline void __finish_switch_irqs_off(struct thread *prev, u32 count)
{
	struct rq *rq = this_rq();
	check_switch_count("after");
	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	do_raw_spin_unlock(&rq->lock);
	preempt_count_sub(count);
	preempt_fold_need_resched();
}

/* Drops the run-queue lock's count; schedule()'s own is its caller's. */
static __always_inline void finish_switch_irqs_off(struct thread *prev)
{
	__finish_switch_irqs_off(prev, PREEMPT_DISABLE_OFFSET);
}
#endif
