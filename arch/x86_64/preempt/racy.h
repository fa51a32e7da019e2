/* COUNT=racy: the article's first idea, kept to count what it loses.
 * folded's encoding (bit 31 = inverted need-resched), but a remote CPU
 * clears the target's bit 31 itself, with a locked andl, instead of
 * leaving the fold to the target's IPI handler. The owner's incl/decl are
 * UNLOCKED read-modify-writes: one that read the count before the remote
 * clear and writes after it puts bit 31 back, and the request is lost to
 * preempt_enable(). The IPI handler counts each such loss (lost_resched in
 * `stat`) and repairs it, as the folded design does every time.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/gs_count.h"

#define PREEMPT_MODEL_NAME "racy"
#define PREEMPT_HAS_COUNT 1
#define PREEMPT_FOLDS_RESCHED 1
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_IPI_FOLDS 0          /* the RESCHEDULE IPI does the fold */
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED

static __always_inline u32 preempt_count_raw(void) { return gs_count_read(); }
static __always_inline void preempt_count_set(u32 v) { gs_count_write(v); }
static __always_inline void __preempt_count_add(u32 v) { gs_count_add(v); }
static __always_inline void __preempt_count_sub(u32 v) { gs_count_sub(v); }
static __always_inline void __preempt_count_inc(void) { gs_count_inc(); }
static __always_inline void __preempt_count_dec(void) { gs_count_dec(); }
static __always_inline bool __preempt_count_dec_and_test(void)
{
	return gs_count_dec_is_zero();
}

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

static __always_inline bool should_resched(u32 offset)
{
	return gs_count_read() == offset;
}
/* The IRQ exit's whole test, one instruction: cmpl $0, %gs:8 (written
 * as asm so that it stays one compare with memory, not a load and a test). */
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	bool zero;
	__asm__ __volatile__("cmpl $0, %%gs:%c1"
			     : "=@cce"(zero)
			     : "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
	return zero;
}

/* The sender cleared bit 31 already (below); if it is set again, the
 * owner's own update overwrote the clear. Count the loss, then repair. */
static __always_inline void preempt_model_scheduler_ipi(void)
{
	if (tif_need_resched() && !test_preempt_need_resched()) {
		this_cpu_stat_inc(lost_resched);
		set_preempt_need_resched();
	}
}

/* resched_curr() on another CPU: clear the target's bit 31 from here,
 * racing the owner's unlocked incl/decl. */
static __always_inline void preempt_model_resched_remote(u32 cpu)
{
	__atomic_fetch_and(&per_cpu(PREEMPT_COUNT_FIELD, cpu), ~PREEMPT_NEED_RESCHED,
			   __ATOMIC_SEQ_CST);
}

static __always_inline void preempt_model_switch(u32 *prev_saved, const u32 *next_saved)
{
	(void)prev_saved;
	(void)next_saved;
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
