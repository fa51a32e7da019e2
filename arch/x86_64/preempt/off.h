/* COUNT=off: no preempt count, as Linux without CONFIG_PREEMPT_COUNT.
 * preempt_disable() and preempt_enable() are compiler barriers (the
 * ceiling the other models are measured against), and nothing can tell
 * when preemption would be safe, so the full mode is refused (Makefile,
 * preempt_mode_valid()) and the IRQ exit never preempts. The IRQ fields
 * (hardirq depth) are still kept at %gs:8 by irq_enter()/irq_exit(), so
 * in_interrupt() works.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/gs_count.h"

#define PREEMPT_MODEL_NAME "off"
#define PREEMPT_HAS_COUNT 0          /* preempt_disable() adds nothing */
#define PREEMPT_FOLDS_RESCHED 0
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_IPI_FOLDS 0          /* the RESCHEDULE IPI does the fold */
#define PREEMPT_ENABLED 0u

static __always_inline u32 preempt_count_raw(void) { return gs_count_read(); }
static __always_inline void preempt_count_set(u32 v) { gs_count_write(v); }
static __always_inline void __preempt_count_add(u32 v) { gs_count_add(v); }
static __always_inline void __preempt_count_sub(u32 v) { gs_count_sub(v); }
/* preempt_disable()/preempt_enable() do not come here (kernel/preempt.h
 * makes them barriers when PREEMPT_HAS_COUNT is 0). */
static __always_inline void __preempt_count_inc(void) {}
static __always_inline void __preempt_count_dec(void) {}
static __always_inline bool __preempt_count_dec_and_test(void) { return false; }

static __always_inline void set_preempt_need_resched(void) {}
static __always_inline void clear_preempt_need_resched(void) {}
static __always_inline bool test_preempt_need_resched(void)
{
	return tif_need_resched();
}

/* cond_resched(): only the IRQ fields can make the count nonzero. */
static __always_inline bool should_resched(u32 offset)
{
	return (gs_count_read() & ~PREEMPT_NEED_RESCHED) == offset && tif_need_resched();
}
/* No count, no preemption at IRQ exit: the test compiles to nothing. */
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	return false;
}

static __always_inline void preempt_model_scheduler_ipi(void)
{
	preempt_fold_need_resched();
}
static __always_inline void preempt_model_switch(u32 *prev_saved, const u32 *next_saved)
{
	(void)prev_saved;
	(void)next_saved;
}
static __always_inline void preempt_model_resched_remote(u32 cpu)
{
	(void)cpu;
}
static __always_inline void preempt_count_init_stack(u64 stack_top, u32 count)
{
	(void)stack_top;
	(void)count;
}
static __always_inline u32 preempt_count_raw_of(u32 cpu, u64 stack_top)
{
	(void)stack_top;
	return per_cpu(PREEMPT_COUNT_FIELD, cpu);
}

#endif
