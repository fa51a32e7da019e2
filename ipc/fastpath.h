/* The IPC fast path (ipc/fastpath.c), called from the system call entry
 * (arch/x86_64/entry/syscall_64.asm) for ipc_call and ipc_reply_recv. */
#ifndef FOLD_IPC_FASTPATH_H
#define FOLD_IPC_FASTPATH_H
#include "lib/types.h"

struct pt_regs;
struct thread;

/* Two registers back (rax, rdx in the SysV ABI): the partner's registers
 * to return to user mode from, and the thread switched away from; regs
 * NULL: not taken, the entry makes the call from the table. */
struct ipc_fast_ret {
	struct pt_regs *regs;
	struct thread *prev;
};

/* With IRQs off, on the caller's stack, right after the entry saved the
 * registers: the whole call or reply_recv when the fast path's conditions
 * hold. When taken, `current` is already the partner; the entry moves to
 * its stack and calls ipc_fastpath_finish(). */
struct ipc_fast_ret ipc_fastpath(struct pt_regs *regs);
/* On the partner's stack, %rsp at its registers regs: the rest of the
 * switch and of its system call. True if the return may use SYSRET. */
bool ipc_fastpath_finish(struct thread *prev, struct pt_regs *regs);
/* A parked thread the scheduler switched to, from
 * ipc_fastpath_resume_entry with %rsp at its registers. True: SYSRET. */
bool ipc_fastpath_resume(struct thread *prev, struct pt_regs *regs);
/* arch/x86_64/entry/syscall_64.asm: where a parked thread's switch_to() frame
 * returns. */
void ipc_fastpath_resume_entry(void);
#endif
