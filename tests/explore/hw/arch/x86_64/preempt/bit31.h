/* The explorer's arch/x86_64/preempt/bit31.h: the folded count's
 * instructions (andl, orl, cmpl on %gs:8) as C on this CPU's count; the
 * real folded.h includes it. Bit 31 is the inverted need-resched flag. */
#ifndef FOLD_ARCH_PREEMPT_BIT31_H
#define FOLD_ARCH_PREEMPT_BIT31_H
#include "arch/x86_64/preempt/gs_count.h"

#define PREEMPT_HAS_COUNT 1
#define PREEMPT_FOLDS_RESCHED 1
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED

static __always_inline void __preempt_count_inc(void) { gs_count_inc(); }
static __always_inline void __preempt_count_dec(void) { gs_count_dec(); }
static __always_inline bool __preempt_count_dec_and_test(void) { return gs_count_dec_is_zero(); }
static __always_inline void set_preempt_need_resched(void) { *hw_count() &= ~PREEMPT_NEED_RESCHED; }
static __always_inline void clear_preempt_need_resched(void) { *hw_count() |= PREEMPT_NEED_RESCHED; }
static __always_inline bool test_preempt_need_resched(void)
{
	return !(gs_count_read() & PREEMPT_NEED_RESCHED);
}
static __always_inline bool should_resched(u32 offset) { return gs_count_read() == offset; }
static __always_inline bool arch_irqentry_exit_need_resched(void) { return gs_count_read() == 0; }
#endif
