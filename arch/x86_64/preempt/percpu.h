/* COUNT=percpu: the 2013 RFC patch ("[RFC] per-cpu preempt_count", LKML,
 * 2013-08-12). The count moves from thread_info to a per-CPU variable at
 * %gs:8, so changing it is one instruction with no pointer to find, but
 * TIF_NEED_RESCHED is still only in the thread's flags (tif_flag.h):
 * preempt_enable() and the IRQ exit test the count, then load current and
 * test the flag. The count is saved into the outgoing thread and loaded
 * from the incoming one at every switch, as the patch's __switch_to() did.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/gs_count.h"
#include "arch/x86_64/preempt/tif_flag.h"

#define PREEMPT_MODEL_NAME "percpu"
#define PREEMPT_HAS_COUNT 1
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_IPI_FOLDS 0          /* nothing to fold */

static __always_inline void __preempt_count_inc(void) { gs_count_inc(); }
static __always_inline void __preempt_count_dec(void) { gs_count_dec(); }

/* ZF says depth 0; the flag is a second test, in the thread. */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	return gs_count_dec_is_zero() && tif_need_resched();
}

static __always_inline bool should_resched(u32 offset)
{
	return gs_count_read() == offset && tif_need_resched();
}
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	return should_resched(0); /* the count, then current->flags */
}

/* The RFC patch's switch: the outgoing thread keeps its count, the
 * incoming one brings its own. */
static __always_inline void preempt_model_switch(u32 *prev_saved, const u32 *next_saved)
{
	*prev_saved = gs_count_read();
	gs_count_write(*next_saved);
}
#define preempt_model_switch preempt_model_switch

#endif
