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
	/* LAB(L7) BEGIN: until t's flags hold no EXIT_TO_USER_MODE_WORK,
	 * read them again after each round of work. Do the work with IRQs
	 * on: a fatal signal pending (fatal_signal_pending(t->proc)) ends the
	 * process, do_exit(W_SIGNALED(sig)); TIF_SIGPENDING otherwise cleared
	 * atomically (any CPU writes these flags); schedule() for
	 * TIF_NEED_RESCHED or TIF_NEED_RESCHED_LAZY (it clears both). IRQs
	 * off again before the next read, and on the way out. */
	for (;;) {
		u64 work = READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK;
		if (!work)
			break;
		local_irq_enable();
		if (work & _TIF_SIGPENDING) {
			if (fatal_signal_pending(t->proc))
				do_exit(W_SIGNALED(t->proc->kill_sig));
			__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);
		}
		if (work & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY))
			schedule(); /* clears both */
		local_irq_disable();
	}
	/* LAB(L7) END: lab_exit_to_user_fallback(t); */
}
