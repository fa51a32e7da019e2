/* The return to user mode (kernel/entry/common.c, after Linux's
 * kernel/entry/common.c). */
#ifndef FOLD_KERNEL_ENTRY_COMMON_H
#define FOLD_KERNEL_ENTRY_COMMON_H
#include "lib/types.h"
#include "arch/x86_64/regs.h"

/* The thread flags that keep a thread from returning to ring 3 until
 * they are handled. Either reschedule flag: user space is where a lazy
 * request is honoured without waiting for the tick (Linux's too). */
#define EXIT_TO_USER_MODE_WORK (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY | _TIF_SIGPENDING)

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

/* Before every return to ring 3, with IRQs on or off: loops until no work
 * is left, returns with IRQs off. May not return (a fatal signal). */
void exit_to_user_mode(struct pt_regs *regs);

/* A new user thread's first return (arch/x86_64/entry.asm). */
__noreturn void ret_to_user(struct pt_regs *regs);
#endif
