/* The system call table (process/syscall.c) and the calls behind it. The
 * numbers and the ABI are uapi/syscall.h's. Every call takes six u64
 * arguments (unused ones ignored) and returns a value or a negative errno;
 * nothing a user passes may oops the kernel: pointers go through
 * mm/uaccess.h, numbers are range-checked. */
#ifndef FOLD_KERNEL_SYSCALL_H
#define FOLD_KERNEL_SYSCALL_H
#include "lib/types.h"
#include "kernel/entry/common.h"
#include "kernel/percpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/kernel/gdt.h"
#include "uapi/layout.h"

/* From entry_SYSCALL_64, after the call it made from sys_call_table
 * with IRQs on: the result into the frame, then
 * syscall_exit_to_user_mode(). True if the return may use SYSRET; IRQs
 * off. */
bool do_syscall_exit(struct pt_regs *regs, long ret);
/* The same for a number beyond the table, which the entry calls instead
 * of a table slot: counted and traced as any call, -ENOSYS. */
bool do_syscall_bad(struct pt_regs *regs);
/* May this return use SYSRET? It restores RIP from RCX and RFLAGS from
 * R11 and loads fixed selectors (SDM Vol. 2B, SYSRET), so the frame must
 * say exactly that. A frame the kernel changed on the way (a new
 * process's; a signal's or an exec's, had fold them) needs IRETQ, which
 * restores everything from the frame: its writer says so with
 * force_iret() (kernel/entry/common.h), and only then are these
 * conditions checked (syscall_exit_work(), process/syscall.c). */
static __always_inline bool sysret_frame_intact(const struct pt_regs *regs)
{
	return regs->rcx == regs->rip && regs->r11 == regs->rflags && regs->cs == USER_CS &&
	       regs->ss == USER_DS;
}

/* The conditions a user breaks on its own, checked on every return. RCX
 * must be canonical: Intel's SYSRET checks it only after it has switched
 * to ring 3's privilege... and raises the #GP in ring 0, on the user's
 * stack and GS (CVE-2012-0217; SDM Vol. 2B SYSRET, "If RCX is not
 * canonical ... #GP(0)"): a `syscall` in the last two bytes below
 * USER_TOP returns to a non-canonical address (user/sysret_hole.c).
 * IRETQ checks before it leaves, and a fault there is a fault of the
 * process (arch/x86_64/kernel/traps.c, bad_iret). RF and TF in R11 would
 * be dropped or misapplied by SYSRET; Linux returns by IRET for them too
 * (arch/x86/entry/common.c, do_syscall_64). */
static __always_inline bool sysret_user_ok(const struct pt_regs *regs)
{
	if (regs->rcx >= USER_TOP) /* the user half is canonical below it */
		return false;
	return !(regs->r11 & (X86_EFLAGS_RF | X86_EFLAGS_TF));
}

static __always_inline bool sysret_ok(const struct pt_regs *regs)
{
	return sysret_frame_intact(regs) && sysret_user_ok(regs);
}

/* process/syscall.c: the exit's slow half, out of line: the work loop,
 * TIF_IRET consumed and SYSRET's conditions checked in full. True: SYSRET. */
bool syscall_exit_work(struct pt_regs *regs, struct thread *t);
/* process/syscall.c: a frame SYSRET would restore wrongly although no one
 * called force_iret() (debug build): said, and false (IRETQ). */
bool sysret_frame_bug(const struct pt_regs *regs);

/* The end of every system call, with regs->rax set: whether SYSRET may
 * return (the IPC fast path's too). The common case is one test of the
 * flags (SYSCALL_EXIT_WORK: work to do, or a frame the kernel wrote) and
 * the user's two conditions; the debug build then asserts that the frame
 * is indeed the one `syscall` saved. */
static __always_inline bool syscall_exit_to_user_mode(struct pt_regs *regs)
{
	struct thread *t = current_thread();
	local_irq_disable();
	if (unlikely(READ_ONCE(t->flags) & SYSCALL_EXIT_WORK) || unlikely(!sysret_user_ok(regs)))
		return syscall_exit_work(regs, t);
	exit_to_user_mode_check();
	if (DEBUG_CHECKS && unlikely(!sysret_frame_intact(regs)))
		return sysret_frame_bug(regs);
	return true;
}

#define SYSCALL_ARGS u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5
typedef long (*syscall_fn)(SYSCALL_ARGS);
/* process/syscall.c: the calls by number, sys_ni_syscall in the holes. */
extern const syscall_fn sys_call_table[];
long sys_ni_syscall(SYSCALL_ARGS);

/* process/sys_write.c. While user_write_capture is set (by a test), what
 * user programs write also goes into it (only into it if it is quiet);
 * one capture for all CPUs, since a process may run on any. */
long sys_write(SYSCALL_ARGS);
struct printk_capture;
extern struct printk_capture *volatile user_write_capture;
/* process/sys_time.c */
long sys_sched_yield(SYSCALL_ARGS);
long sys_nanosleep(SYSCALL_ARGS);
long sys_clock_gettime(SYSCALL_ARGS);
long sys_clock_nanosleep(SYSCALL_ARGS);
/* process/sys_process.c */
long sys_getpid(SYSCALL_ARGS);
long sys_gettid(SYSCALL_ARGS);
long sys_exit(SYSCALL_ARGS);
long sys_wait4(SYSCALL_ARGS);
long sys_kill(SYSCALL_ARGS);
long sys_spawn(SYSCALL_ARGS);
/* process/sys_sched.c */
long sys_sched_setscheduler(SYSCALL_ARGS);
long sys_sched_getscheduler(SYSCALL_ARGS);
long sys_sched_getparam(SYSCALL_ARGS);
/* process/sys_ipc.c (uapi/ipc.h) */
long sys_endpoint_create(SYSCALL_ARGS);
long sys_notification_create(SYSCALL_ARGS);
long sys_handle_mint(SYSCALL_ARGS);
long sys_handle_close(SYSCALL_ARGS);
long sys_ipc_send(SYSCALL_ARGS);
long sys_ipc_recv(SYSCALL_ARGS);
long sys_ipc_call(SYSCALL_ARGS);
long sys_ipc_reply(SYSCALL_ARGS);
long sys_ipc_reply_recv(SYSCALL_ARGS);
/* The rest of an ipc_call or ipc_reply_recv whose thread blocked in the
 * fast path (ipc/fastpath.c) and was switched to by the scheduler: wait
 * on if need be, then the message into regs and the buffer (its sixth
 * argument). The result for rax. */
long ipc_syscall_resume(struct pt_regs *regs);
long sys_notify_signal(SYSCALL_ARGS);
long sys_notify_wait(SYSCALL_ARGS);
/* process/sys_irq.c (uapi/irq.h) */
long sys_ioperm(SYSCALL_ARGS);
long sys_irq_bind(SYSCALL_ARGS);
long sys_irq_ack(SYSCALL_ARGS);
long sys_console_register(SYSCALL_ARGS);
#endif
