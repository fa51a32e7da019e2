/* The context switch and the stack switch (arch/x86_64/entry/switch.asm,
 * arch/x86_64/entry/stack_switch.asm). */
#ifndef FOLD_ARCH_SWITCH_H
#define FOLD_ARCH_SWITCH_H
#include "lib/types.h"
struct thread;

/* Save prev's callee-saved registers and stack pointer, load next's;
 * returns prev on next's stack. */
struct thread *switch_to(struct thread *prev, struct thread *next);
/* switch_to()'s frame on a switched-out stack: six callee-saved registers
 * (callee_saved.inc, rbp the highest) and the return address. */
#define SWITCH_FRAME_WORDS 7
/* switch_to() for a prev that keeps nothing on its kernel stack but its
 * user registers (parked by the IPC fast path, ipc/fastpath.c): it gets
 * the frame that resumes it from those (PARK_FRAME, callee_saved.inc). */
__noreturn void switch_to_park(struct thread *prev, struct thread *next);
/* A new thread's first instructions (the return address thread_setup_stack
 * puts on its stack): calls thread_start(prev). */
void thread_entry(void);
/* Run fn(arg) on the stack ending at stack_top, never to return. */
__noreturn void switch_to_stack(void (*fn)(void *), void *arg, u64 stack_top);
#endif
