/* The return to user mode (kernel/entry/common.c, after Linux's
 * kernel/entry/common.c). */
#ifndef FOLD_KERNEL_ENTRY_COMMON_H
#define FOLD_KERNEL_ENTRY_COMMON_H
#include "lib/types.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "kernel/debug/checks.h"

/* The thread flags that keep a thread from returning to ring 3 until
 * they are handled. Either reschedule flag: user space is where a lazy
 * request is honoured without waiting for the tick (Linux's too). */
#define EXIT_TO_USER_MODE_WORK (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY | _TIF_SIGPENDING)
/* The system call exit's one test of the flags: the work above, or a
 * frame the kernel wrote, whose SYSRET conditions need checking
 * (process/syscall.h). */
#define SYSCALL_EXIT_WORK (EXIT_TO_USER_MODE_WORK | _TIF_IRET)

/* The saved CS's RPL: fold runs code in rings 0 and 3 only, so any
 * nonzero RPL is user mode (Linux's user_mode(), arch/x86/include/asm/
 * ptrace.h, tests the same two bits): one `testb $3`. */
static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) != 0;
}

/* The work loop (kernel/entry/common.c): entered with IRQs off and work
 * pending, returns with IRQs off and none left. May not return (a fatal
 * signal). */
void exit_to_user_mode_loop(struct thread *t);
/* Reports a count that is wrong for user mode and sets it right. */
void exit_to_user_mode_bad_count(u32 raw);

/* What the count must be when user code runs: nothing disabled, and, in
 * a model that folds, no folded request (one would have been acted on in
 * the work loop, with IRQs off since). The racy model's remote writes may
 * clear bit 31 at any time, so it is exempt from the second half. A debug
 * check: a release build reads the count here not at all
 * (kernel/debug/checks.h). */
static __always_inline void exit_to_user_mode_check(void)
{
	if (!DEBUG_CHECKS)
		return;
#if PREEMPT_FOLDS_RESCHED && PREEMPT_IPI_FOLDS
	bool ok = preempt_count_raw() == PREEMPT_ENABLED; /* count 0 and nothing folded */
#else
	bool ok = preempt_count() == 0;
#endif
	if (unlikely(!ok))
		exit_to_user_mode_bad_count(preempt_count_raw());
}

/* Before every return to ring 3, with IRQs on or off: the work loop if
 * any flag asks for it, returns with IRQs off. Inline, as Linux's
 * exit_to_user_mode_prepare() is: the common case is one test of the
 * flags, on every interrupt from user mode (a system call's exit makes
 * the same test, process/syscall.h). */
static __always_inline void exit_to_user_mode(struct pt_regs *regs)
{
	(void)regs;
	struct thread *t = current_thread();
	local_irq_disable();
	if (unlikely(READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK))
		exit_to_user_mode_loop(t);
	exit_to_user_mode_check();
}

/* Whoever writes a thread's user frame (its RIP, RSP, RFLAGS, selectors,
 * or the RCX and R11 SYSRET reads) calls this, as Linux's start_thread()
 * and signal code called force_iret(): without it the system call exit
 * trusts the frame to be the one its `syscall` saved. */
static inline void force_iret(struct thread *t)
{
	__atomic_fetch_or(&t->flags, _TIF_IRET, __ATOMIC_SEQ_CST);
}

/* A new user thread's first return (arch/x86_64/entry/entry.asm). */
__noreturn void ret_to_user(struct pt_regs *regs);
#endif
