/* The scheduler core: __schedule() and the context switch around it,
 * and the scheduling side of preemption: asking a CPU to reschedule
 * (resched_curr), the RESCHEDULE IPI that folds the request into the
 * count (scheduler_ipi), and the two preemption entry points
 * (preempt_schedule from preempt_enable, preempt_schedule_irq from the
 * IRQ exit). Linux keeps all of these in kernel/sched/core.c.
 *
 * TIF_NEED_RESCHED lives in the thread's flags, where any CPU may set it
 * (atomically). The folded copy, bit 31 of the per-CPU preempt count, is
 * written only by the CPU that owns the count, with one unlocked
 * instruction. So a remote request sets the flag and sends the RESCHEDULE
 * IPI, and the IPI handler, running on the owner, folds the flag into
 * bit 31. The owner's next preempt_enable() (`decl; je`) or IRQ exit
 * (`cmpl $0`) then sees 0 and reschedules.
 *
 * The count at a context switch is SWITCH_PREEMPT_COUNT in every thread:
 * schedule()'s own preempt_disable() plus the run-queue lock. That is why
 * the folded and percpu models can keep the count per CPU: the value is
 * the same on both sides of every switch (asserted: check_switch_count(),
 * sched/context_switch.h). The percpu model still saves and restores it,
 * as the 2013 RFC patch did. */
#include "sched/rq.h"
#include "sched/context_switch.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "arch/x86_64/entry/switch.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/kernel/gdt.h"
#include "mm/user_mm.h"
#include "kernel/trace/trace.h"
#include "kernel/debug/checks.h"

struct rq rqs[MAX_CPUS];

struct thread *rq_curr(u32 cpu)
{
	return READ_ONCE(rqs[cpu].curr);
}

void enqueue(struct rq *rq, struct thread *t, bool head)
{
	if (t->prio > 0) {
		struct list_head *pos = &rq->fifo;
		struct thread *it;
		list_for_each_entry(it, &rq->fifo, rq_node) {
			if (head ? it->prio <= t->prio : it->prio < t->prio) {
				pos = &it->rq_node;
				break;
			}
		}
		list_add_tail(&t->rq_node, pos);
	} else if (head) {
		list_add(&t->rq_node, &rq->normal);
	} else {
		list_add_tail(&t->rq_node, &rq->normal);
	}
	rq->nr_queued++;
	rq->migratory_queued |= t->migratory; /* no branch: every switch comes here */
	t->on_rq = 1;
}

struct thread *rq_first_queued(struct rq *rq)
{
	struct thread *t;
	list_for_each_entry(t, &rq->fifo, rq_node)
		if (!rt_throttled(rq, t))
			return t;
	if (list_empty(&rq->normal))
		return NULL;
	return list_first_entry(&rq->normal, struct thread, rq_node);
}

static struct thread *pick_next(struct rq *rq)
{
	struct thread *t = rq_first_queued(rq);
	if (!t)
		return rq->idle;
	dequeue(rq, t);
	return t;
}

/* check_switch_count()'s failure (sched/context_switch.h). */
void switch_count_bug(const char *when)
{
	panic("BUG: preempt count 0x%x %s a context switch, expected %u", preempt_count(), when,
	      SWITCH_PREEMPT_COUNT);
}

void finish_switch(struct thread *prev)
{
	finish_switch_irqs_off(prev);
	local_irq_enable();
}

void __schedule(int mode)
{
	struct thread *prev = current_thread();
	struct rq *rq = this_rq(); /* one %gs load, where &rqs[cpu] costs an index computation */

	local_irq_disable();
	DEBUG_BUG_ON(rq != &rqs[raw_smp_processor_id()]); /* sched_prepare_cpu()'s pointer */
	raw_spin_lock(&rq->lock);
	check_switch_count("before");

	/* Both requests are served by this switch. */
	clear_tsk_need_resched(prev);
	clear_preempt_need_resched();

	if (mode != SM_PREEMPT && READ_ONCE(prev->state) != THREAD_RUNNING)
		prev->on_rq = 0; /* blocks: off the run queue */
	else if (prev != rq->idle)
		enqueue(rq, prev, mode == SM_PREEMPT && prev->prio > 0);

	struct thread *next = pick_next(rq);
	if (next == prev) {
		do_raw_spin_unlock(&rq->lock);
		preempt_count_sub(PREEMPT_DISABLE_OFFSET);
		local_irq_enable();
		return;
	}
	context_switch(rq, prev, next);
}

void context_switch(struct rq *rq, struct thread *prev, struct thread *next)
{
	switch_prepare(rq, prev, next);
	prev = switch_to(prev, next);
	finish_switch(prev);
}

/* Debug check: schedule() from atomic context (Linux's "scheduling while
 * atomic"). Report, then switch with the count the switch needs and give
 * the caller its count back afterwards. A release build does neither
 * (kernel/debug/checks.h): such a caller then breaks the switch's count. */
void schedule(void)
{
	u32 excess = 0;
	if (DEBUG_CHECKS && unlikely(preempt_count() != 0 || irqs_disabled())) {
		report_bug("scheduling while atomic: %s, IRQs %s",
			   preempt_count() ? "preempt count nonzero" : "count ok",
			   irqs_disabled() ? "off" : "on");
		excess = preempt_count();
		preempt_count_sub(excess);
		local_irq_enable();
	}
	do {
		preempt_disable();
		__schedule(SM_NONE);
		preempt_enable_no_resched();
	} while (need_resched());
	if (DEBUG_CHECKS)
		preempt_count_add(excess);
}

void yield(void)
{
	schedule();
}

/* ---- asking for a reschedule
 *
 * __resched_curr(cpu, tif) is Linux's: tif is TIF_NEED_RESCHED (a full
 * request: flag, fold or IPI) or TIF_NEED_RESCHED_LAZY (the flag only).
 * resched_curr() always asks in full; resched_curr_lazy() is what a
 * request on behalf of a normal thread uses (a normal wake-up, the
 * round-robin slice): lazy only in lazy mode, and only when a normal
 * thread runs there (the idle thread and FIFO threads get full requests,
 * Linux promotes the idle task's too). */

static bool lazy_request_ok(struct thread *curr, u32 cpu)
{
	/* LAB(L4) BEGIN: lazy only in lazy mode, and only when a normal
	 * thread runs on cpu (not its idle thread, not a FIFO thread). */
	return preempt_mode_lazy() && curr != rqs[cpu].idle && curr->prio == PRIO_NORMAL;
	/* LAB(L4) END: (void)curr; (void)cpu; return false; */
}

static void __resched_curr(u32 cpu, int tif)
{
	struct thread *curr = rq_curr(cpu);
	if (tif == TIF_NEED_RESCHED_LAZY && lazy_request_ok(curr, cpu)) {
		/* LAB(L4) BEGIN: the lazy flag alone: no fold, no IPI (the
		 * target's tick promotes it; a request already pending covers
		 * it). Count a new one in this CPU's `resched_lazy`. */
		u64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED_LAZY, __ATOMIC_SEQ_CST);
		if (!(old & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)))
			this_cpu_stat_inc(resched_lazy);
		return;
		/* LAB(L4) END */
	}
	/* LAB(L3) BEGIN: set TIF_NEED_RESCHED in curr's flags (atomically:
	 * any CPU may). Here, fold it at once: this CPU owns its count.
	 * Elsewhere, send the RESCHEDULE IPI, unless the flag was already
	 * set (its IPI is on the way) or the target's idle loop polls the
	 * flag (TIF_POLLING_NRFLAG). Count each in resched_ipi_sent or
	 * resched_ipi_avoided; call preempt_model_resched_remote(cpu) before
	 * the IPI (COUNT=racy folds from here). */
	if (cpu == raw_smp_processor_id()) {
		__atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
		set_preempt_need_resched();
		return;
	}
	u64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	if (old & _TIF_NEED_RESCHED)
		return; /* already asked: its IPI is on the way */
	preempt_model_resched_remote(cpu); /* racy: clears bit 31 from here */
	/* A polling idle loop watches the flag itself: no IPI needed. */
	if (old & _TIF_POLLING_NRFLAG) {
		this_cpu_stat_inc(resched_ipi_avoided);
		return;
	}
	this_cpu_stat_inc(resched_ipi_sent);
	smp_send_reschedule(cpu);
	/* LAB(L3) END: lab_resched_fallback(curr, cpu); */
}

void resched_curr(u32 cpu)
{
	__resched_curr(cpu, TIF_NEED_RESCHED);
}

void resched_curr_lazy(u32 cpu)
{
	__resched_curr(cpu, TIF_NEED_RESCHED_LAZY);
}

/* The RESCHEDULE IPI's work, on the target CPU, in hardirq context:
 * preempt_fold_need_resched() (folded: one andl clears bit 31). */
void scheduler_ipi(void)
{
	this_cpu_stat_inc(resched_ipi_received);
	preempt_model_scheduler_ipi();
	trace_event(resched_ipi);
}

/* ---- the preemption entry points */

/* Called through preempt_schedule_thunk when preempt_enable() took the
 * count to zero with TIF_NEED_RESCHED pending (never for a lazy request:
 * it is not in the count). Only full and lazy make that a preemption
 * point, and only they reach here: in none and voluntary the thunk's
 * patch site is a NOP that falls into `ret` (arch/x86_64/preempt/preempt_thunk.asm;
 * Linux's preempt_schedule static call is NULL in those modes). */
void preempt_schedule(void)
{
	this_cpu_stat_inc(preempt_schedule_calls);
#if PREEMPT_ENABLE_CALL_C
	/* PREEMPT_ENABLE_CALL=c: no thunk, so no patch site filters the
	 * modes; none and voluntary return here instead. */
	if (!preempt_mode_preemptible())
		return;
#endif
	if (!preemptible())
		return;
	do {
		this_cpu_stat_inc(preempt_enable_switches);
		trace_event(preempt_enable);
		preempt_disable();
		__schedule(SM_PREEMPT);
		preempt_enable_no_resched();
	} while (need_resched());
}

/* Called with IRQs off at the exit of an interrupt that came from kernel
 * code with IF=1, when the count says preemptible + resched wanted. */
void preempt_schedule_irq(void)
{
	if (DEBUG_CHECKS && unlikely(preempt_count() != 0))
		BUG("preempt_schedule_irq with count 0x%x", preempt_count());
	do {
		this_cpu_stat_inc(preempt_irq);
		trace_event(preempt_irq);
		preempt_disable();
		local_irq_enable();
		__schedule(SM_PREEMPT);
		local_irq_disable();
		preempt_enable_no_resched();
	} while (need_resched());
}

/* The IRQ exit's question to the mode (arch/x86_64/entry/irq.c asks it once the
 * count said yes): full and lazy preempt there. The answer is code, not a
 * load: a patch site that is a jmp to the call in full and lazy and a NOP
 * in none and voluntary (arch/x86_64/kernel/patch_site.h; Linux's
 * irqentry_exit_cond_resched static call). */
void irqentry_exit_cond_resched(void)
{
	patch_site_jump(preempt_schedule_irq, PATCH_MODES_PREEMPT, preempt);
	return;
preempt:
	preempt_schedule_irq();
}
