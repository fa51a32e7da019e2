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

/* From entry_SYSCALL_64 with IRQs off: the call, then exit_to_user_mode().
 * True if the return may use SYSRET (see process/syscall.c). */
bool do_syscall_64(struct pt_regs *regs);
/* May this return use SYSRET? It restores RIP from RCX and RFLAGS from
 * R11 and loads fixed selectors, so the frame must say exactly that: a
 * frame changed on the way (a new process's, a signal's) needs IRETQ.
 * And RIP must be canonical: Intel's SYSRET checks RCX only after it has
 * switched to ring 3's privilege... and raises the #GP in ring 0, on the
 * user's stack and GS (CVE-2012-0217; SDM Vol. 2B SYSRET, "If RCX is not
 * canonical ... #GP(0)"). IRETQ checks before it leaves, and a fault there
 * is a fault of the process (arch/x86_64/kernel/traps.c, bad_iret). RF and TF
 * would be dropped or misapplied by SYSRET; Linux returns by IRET for them
 * too (arch/x86/entry/common.c, do_syscall_64). */
static __always_inline bool sysret_ok(const struct pt_regs *regs)
{
	if (regs->rcx != regs->rip || regs->r11 != regs->rflags)
		return false;
	if (regs->cs != USER_CS || regs->ss != USER_DS)
		return false;
	if (regs->rip >= USER_TOP) /* the user half is canonical below it */
		return false;
	return !(regs->r11 & (X86_EFLAGS_RF | X86_EFLAGS_TF));
}

/* The end of every system call, with regs->rax set: exit_to_user_mode(),
 * then whether SYSRET may return (the IPC fast path's too). */
static __always_inline bool syscall_exit_to_user_mode(struct pt_regs *regs)
{
	exit_to_user_mode(regs);
	if (likely(sysret_ok(regs)))
		return true;
	this_cpu_stat_inc(sysret_via_iret);
	return false;
}

#define SYSCALL_ARGS u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5
typedef long (*syscall_fn)(SYSCALL_ARGS);

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
