/* COUNT=ti: the kernel before the change. The count lives in struct
 * thread_info at the lowest address of the STACK_SIZE-aligned kernel
 * stack, found by masking %rsp (i386 Linux's current_thread_info() until
 * 3.13; x86-64's read the stack's top from the per-CPU kernel_stack), and
 * TIF_NEED_RESCHED is tested in the thread's flags (tif_flag.h). Each thread
 * carries its own count, so a switch needs nothing; a new stack gets its
 * count written at its base (preempt_count_init_stack()).
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "kernel/percpu.h"
#include "mm/mm.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/preempt/tif_flag.h"

#define PREEMPT_MODEL_NAME "ti"
#define PREEMPT_HAS_COUNT 1
#define PREEMPT_COUNT_ON_STACK 1     /* at (rsp & ~(STACK_SIZE - 1)) */
#define PREEMPT_IPI_FOLDS 0          /* the RESCHEDULE IPI does the fold */

struct thread_info {
	u32 preempt_count;
	u32 pad;
};

static __always_inline struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)(read_rsp() & ~(STACK_SIZE - 1));
}
static __always_inline struct thread_info *stack_thread_info(u64 stack_top)
{
	return (struct thread_info *)(stack_top - STACK_SIZE);
}

static __always_inline u32 preempt_count_raw(void)
{
	return READ_ONCE(current_thread_info()->preempt_count);
}
static __always_inline void preempt_count_set(u32 v)
{
	WRITE_ONCE(current_thread_info()->preempt_count, v);
}
static __always_inline void __preempt_count_add(u32 v)
{
	__asm__ __volatile__("addl %1, %0"
			     : "+m"(current_thread_info()->preempt_count)
			     : "ri"(v)
			     : "memory");
}
static __always_inline void __preempt_count_sub(u32 v)
{
	__asm__ __volatile__("subl %1, %0"
			     : "+m"(current_thread_info()->preempt_count)
			     : "ri"(v)
			     : "memory");
}
static __always_inline void __preempt_count_inc(void)
{
	__asm__ __volatile__("incl %0"
			     : "+m"(current_thread_info()->preempt_count)::"memory");
}
static __always_inline void __preempt_count_dec(void)
{
	__asm__ __volatile__("decl %0"
			     : "+m"(current_thread_info()->preempt_count)::"memory");
}
/* Find thread_info, decl, then test the flag in the thread. */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	bool zero;
	__asm__ __volatile__("decl %0"
			     : "+m"(current_thread_info()->preempt_count),
			       "=@cce"(zero)
			     :
			     : "memory");
	return zero && tif_need_resched();
}

static __always_inline bool should_resched(u32 offset)
{
	return preempt_count_raw() == offset && tif_need_resched(); /* bit 31 unused */
}
static __always_inline bool arch_irqentry_exit_need_resched(void)
{
	return should_resched(0); /* thread_info's count, then the flag */
}

static __always_inline void preempt_count_init_stack(u64 stack_top, u32 count)
{
	stack_thread_info(stack_top)->preempt_count = count;
}
#define preempt_count_init_stack preempt_count_init_stack
/* Another CPU's count is on its running thread's stack. */
static __always_inline u32 preempt_count_raw_of(u32 cpu, u64 stack_top)
{
	(void)cpu;
	return stack_top ? READ_ONCE(stack_thread_info(stack_top)->preempt_count) : 0;
}
#define preempt_count_raw_of preempt_count_raw_of

#endif
