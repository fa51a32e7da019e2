/* The way back to user mode, in C, as Linux's kernel/entry/common.c has
 * it. Every return to ring 3 passes exit_to_user_mode(): the interrupt
 * exit (arch/x86_64/entry/irq.c), the syscall exit (process/syscall.c) and a new
 * process's first return (process/process.c).
 *
 * User space is always preemptible, in every preemption mode, none
 * included: a pending TIF_NEED_RESCHED (or, in lazy mode,
 * TIF_NEED_RESCHED_LAZY) is honoured here, where nothing of
 * the kernel's is held, so `preempt=none` still time-slices CPU-bound
 * user programs (the tick's request, sched/wake.c). What the modes decide
 * is only whether the kernel may be preempted. */
#include "kernel/entry/common.h"
#include "kernel/preempt.h"
#include "process/process.h"
#include "kernel/panic.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "uapi/syscall.h"

void exit_to_user_mode_bad_count(u32 raw)
{
	report_bug("return to user mode with preempt count 0x%x (expected 0x%x)", raw,
		   PREEMPT_ENABLED);
	preempt_count_set(PREEMPT_ENABLED);
}

void exit_to_user_mode_loop(struct thread *t)
{
	for (;;) {
		u64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;
		if (!work)
			break;
		local_irq_enable();
		if (work & _TIF_SIGPENDING) {
			struct process *p = t->proc;
			if (p && p->kill_sig)
				do_exit(W_SIGNALED(p->kill_sig));
			__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);
		}
		if (work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))
			schedule(); /* clears both */
		local_irq_disable();
	}
}
