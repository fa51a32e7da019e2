/* Probe functions: each wraps one primitive in a function of its own, so
 * that tests/check-disasm can read what the compiler made of it in
 * build/fold.elf, and the preempt benchmark can time it. noipa keeps GCC
 * from inlining, cloning or merging them. Nothing else calls them. */
#include "tests/disasm/probes.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"

#define PROBE __attribute__((noipa, used))

PROBE u32 probe_this_cpu_read(void)
{
	return this_cpu_read(cpu);
}

PROBE void probe_this_cpu_write(u64 v)
{
	this_cpu_write(probe_scratch, v);
}

PROBE void probe_this_cpu_inc(void)
{
	this_cpu_inc(probe_scratch);
}

PROBE void probe_this_cpu_add(u64 v)
{
	this_cpu_add(probe_scratch, v);
}

PROBE void probe_preempt_disable(void)
{
	preempt_disable();
}

PROBE void probe_preempt_enable(void)
{
	preempt_enable();
}

/* The pair the article is about: for COUNT=folded, incl + decl + jcc. */
PROBE void probe_preempt_pair(void)
{
	preempt_disable();
	preempt_enable();
}

/* The fold protocol's pieces on CPU 1, for the interleaving explorer
 * (tests/explore/fold_probes.py reads them, tests/explore/fold_model.c
 * runs them instruction by instruction, with CPU 0 running the real
 * resched_curr(1) of sched/core.c). First, CPU 1's own part of a switch,
 * as __schedule() does it with IRQs off: both flags cleared in its
 * thread and, where bit 31 is the inverted flag, the count's "no
 * reschedule" set again. Then the RESCHEDULE IPI's: irq_enter(),
 * scheduler_ipi()'s model work, irq_exit(), and the IRQ exit's test
 * (arch/x86_64/entry/irq.c). */
PROBE void probe_schedule_clear(void)
{
	clear_tsk_need_resched(current_thread());
	clear_preempt_need_resched();
}

PROBE void probe_irq_enter(void)
{
	preempt_count_add(HARDIRQ_OFFSET);
}

PROBE void probe_scheduler_ipi(void)
{
	preempt_model_scheduler_ipi();
}

PROBE void probe_irq_exit(void)
{
	preempt_count_sub(HARDIRQ_OFFSET);
}

PROBE bool probe_irq_exit_need_resched(void)
{
	return arch_irqentry_exit_need_resched();
}
