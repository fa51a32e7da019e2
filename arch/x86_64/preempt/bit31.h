/* The folded encoding, shared by folded.h and racy.h: a per-CPU count
 * whose bit 31 holds TIF_NEED_RESCHED INVERTED (1 = no reschedule wanted),
 * so the raw 32 bits are 0 exactly when this CPU may be preempted AND a
 * reschedule is wanted (Linux's arch/x86/include/asm/preempt.h). */
#ifndef FOLD_ARCH_PREEMPT_BIT31_H
#define FOLD_ARCH_PREEMPT_BIT31_H

#include "arch/x86_64/preempt/gs_count.h"

#define PREEMPT_HAS_COUNT 1
#define PREEMPT_FOLDS_RESCHED 1      /* bit 31 is the inverted flag */
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED

static __always_inline void __preempt_count_inc(void) { gs_count_inc(); }
static __always_inline void __preempt_count_dec(void) { gs_count_dec(); }

/* ZF after `decl` says it all: depth 0 and bit 31 clear. */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	return gs_count_dec_is_zero();
}

/* The folded copy of TIF_NEED_RESCHED: clear bit 31 = a reschedule is
 * wanted. Only the owning CPU writes it, with one unlocked instruction. */
static __always_inline void set_preempt_need_resched(void)
{
	__asm__ __volatile__("andl %0, %%gs:%c1" ::"i"(~PREEMPT_NEED_RESCHED),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline void clear_preempt_need_resched(void)
{
	__asm__ __volatile__("orl %0, %%gs:%c1" ::"i"(PREEMPT_NEED_RESCHED),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline bool test_preempt_need_resched(void)
{
	return !(gs_count_read() & PREEMPT_NEED_RESCHED);
}

/* cond_resched()'s test: one compare of the raw value. */
static __always_inline bool should_resched(u32 offset)
{
	return gs_count_read() == offset;
}

/* The IRQ exit's whole test, one instruction: cmpl $0, %gs:8 (written
 * as asm so that it stays one compare with memory, not a load and a test). */
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	/* LAB(L2) BEGIN: true when the raw count is 0 (depth 0 and bit 31
	 * clear), tested by one instruction that compares %gs:8 with 0 and
	 * leaves the answer in ZF (asm with a flag output, "=@cce"). */
	bool zero;
	__asm__ __volatile__("cmpl $0, %%gs:%c1"
			     : "=@cce"(zero)
			     : "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
	return zero;
	/* LAB(L2) END: return false; */
}

#endif
