/* preempt_enable()'s slow path, the same for every count model: a call
 * to preempt_schedule() through preempt_schedule_thunk
 * (arch/x86_64/preempt/preempt_thunk.asm), which saves every caller-clobbered
 * register, so the compiler sees an asm that clobbers nothing and keeps
 * the caller's registers live across it. */
#ifndef FOLD_ARCH_PREEMPT_THUNK_H
#define FOLD_ARCH_PREEMPT_THUNK_H

/* Makes GCC set up the frame before an asm that contains a call
 * (Linux's ASM_CALL_CONSTRAINT). */
register unsigned long current_stack_pointer __asm__("rsp");
#define ASM_CALL_CONSTRAINT "+r"(current_stack_pointer)

/* The scheduler's side of preempt_enable()'s slow path (sched/core.c),
 * behind the thunk or, with PREEMPT_ENABLE_CALL=c, called directly. */
void preempt_schedule(void);

#if PREEMPT_ENABLE_CALL_C
/* PREEMPT_ENABLE_CALL=c (make experiments, E5): a plain C call, what a
 * kernel without the thunk writes. The compiler must then treat every
 * caller-clobbered register as lost across the call and every caller as
 * a non-leaf: the code generation Linus warned about (LWN, "Optimizing
 * preemption", 2013-08-14). preempt_schedule() then asks the mode
 * itself, as no patch site does. */
static __always_inline void __preempt_schedule(void)
{
	preempt_schedule();
}
#else
static __always_inline void __preempt_schedule(void)
{
	__asm__ __volatile__("call preempt_schedule_thunk" : ASM_CALL_CONSTRAINT::"memory");
}
#endif

#endif
