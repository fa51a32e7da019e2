/* COUNT=folded: the final design (Linux's arch/x86/include/asm/preempt.h
 * since 3.13). The count is per CPU, and bit 31 holds TIF_NEED_RESCHED
 * INVERTED: 1 = no reschedule wanted. So the raw 32 bits are 0 exactly
 * when this CPU may be preempted AND a reschedule is wanted, and
 *   preempt_enable()  is  decl %gs:8; je <preempt_schedule_thunk>
 *   the IRQ exit      is  cmpl $0, %gs:8; jne <return>
 * The flag itself stays in the thread (any CPU may set it); the owner
 * copies it into bit 31 ("folds" it) in the RESCHEDULE IPI and after a
 * context switch, with one unlocked andl (sched/core.c).
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/gs_count.h"

#define PREEMPT_MODEL_NAME "folded"
#define PREEMPT_HAS_COUNT 1
#define PREEMPT_FOLDS_RESCHED 1      /* bit 31 is the inverted flag */
#define PREEMPT_COUNT_ON_STACK 0
#define PREEMPT_IPI_FOLDS 1          /* the RESCHEDULE IPI does the fold */
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED

static __always_inline u32 preempt_count_raw(void) { return gs_count_read(); }
static __always_inline void preempt_count_set(u32 v) { gs_count_write(v); }
static __always_inline void __preempt_count_add(u32 v) { gs_count_add(v); }
static __always_inline void __preempt_count_sub(u32 v) { gs_count_sub(v); }
static __always_inline void __preempt_count_inc(void) { gs_count_inc(); }
static __always_inline void __preempt_count_dec(void) { gs_count_dec(); }

/* ZF after `decl` says it all: depth 0 and bit 31 clear. */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	return gs_count_dec_is_zero();
}

/* The folded copy of TIF_NEED_RESCHED: clear bit 31 = a reschedule is
 * wanted. Only the owning CPU writes it. */
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

/* cond_resched()'s test, and the IRQ exit's: one compare of the raw
 * value, which the folded encoding makes the whole question. */
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

/* The RESCHEDULE IPI, on the owner: fold the flag into bit 31. */
static __always_inline void preempt_model_scheduler_ipi(void)
{
	if (preempt_fold_need_resched())
		this_cpu_stat_inc(folds);
}

/* Nothing to do: the count is per CPU and SWITCH_PREEMPT_COUNT on both
 * sides of every switch, and the fold after the switch (finish_switch)
 * sets bit 31 for the incoming thread. */
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
