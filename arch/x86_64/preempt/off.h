/* COUNT=off: no preempt count, as Linux without CONFIG_PREEMPT_COUNT.
 * preempt_disable() and preempt_enable() compile to compiler barriers
 * (the ceiling the other models are measured against), and nothing can
 * tell when preemption would be safe, so the full mode is refused
 * (Makefile, preempt_mode_valid()) and the IRQ exit never preempts. The
 * IRQ fields (hardirq depth) are still kept at %gs:8 by
 * irq_enter()/irq_exit(), so in_interrupt() works.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/gs_count.h"
#include "arch/x86_64/preempt/tif_flag.h"

#define PREEMPT_MODEL_NAME "off"
#define PREEMPT_HAS_COUNT 0          /* preempt_disable() adds nothing */
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_IPI_FOLDS 0

/* What preempt_disable()/preempt_enable() do: nothing. */
static __always_inline void __preempt_count_inc(void) {}
static __always_inline void __preempt_count_dec(void) {}
static __always_inline bool __preempt_count_dec_and_test(void) { return false; }

/* cond_resched(): only the IRQ fields can make the count nonzero. */
static __always_inline bool should_resched(u32 offset)
{
	return gs_count_read() == offset && tif_need_resched();
}
/* No count, no preemption at IRQ exit: the test compiles to nothing. */
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	return false;
}

#endif
