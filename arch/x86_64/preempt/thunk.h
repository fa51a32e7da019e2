/* preempt_enable()'s slow path, the same for every count model: a call
 * to preempt_schedule() through preempt_schedule_thunk
 * (arch/x86_64/preempt_thunk.asm), which saves every caller-clobbered
 * register, so the compiler sees an asm that clobbers nothing and keeps
 * the caller's registers live across it. */
#ifndef FOLD_ARCH_PREEMPT_THUNK_H
#define FOLD_ARCH_PREEMPT_THUNK_H

/* Makes GCC set up the frame before an asm that contains a call
 * (Linux's ASM_CALL_CONSTRAINT). */
register unsigned long current_stack_pointer __asm__("rsp");
#define ASM_CALL_CONSTRAINT "+r"(current_stack_pointer)

static __always_inline void __preempt_schedule(void)
{
	__asm__ __volatile__("call preempt_schedule_thunk" : ASM_CALL_CONSTRAINT::"memory");
}

#endif
