/* The system call table, which the entry calls (arch/x86_64/entry/
 * syscall_64.asm), and the C half of every system call's exit. */
#include "process/syscall.h"
#include "kernel/entry/common.h"
#include "kernel/percpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/cpu.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "kernel/trace/trace.h"

/* Linux's sys_ni_syscall: a number the table has no call for. */
long sys_ni_syscall(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	return -ENOSYS;
}

/* Every slot holds a function, so the entry indexes the table with a
 * number below NR_SYSCALLS and calls without a test. The holes are
 * sys_ni_syscall, the range's default that the calls override (GCC's
 * range designator; the override is the point, hence the pragma). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const syscall_fn sys_call_table[NR_SYSCALLS] = {
	[0 ... NR_SYSCALLS - 1] = sys_ni_syscall,
	[__NR_write] = sys_write,
	[__NR_sched_yield] = sys_sched_yield,
	[__NR_nanosleep] = sys_nanosleep,
	[__NR_getpid] = sys_getpid,
	[__NR_exit] = sys_exit,
	[__NR_wait4] = sys_wait4,
	[__NR_kill] = sys_kill,
	[__NR_sched_getparam] = sys_sched_getparam,
	[__NR_sched_setscheduler] = sys_sched_setscheduler,
	[__NR_sched_getscheduler] = sys_sched_getscheduler,
	[__NR_gettid] = sys_gettid,
	[__NR_clock_gettime] = sys_clock_gettime,
	[__NR_clock_nanosleep] = sys_clock_nanosleep,
	[__NR_exit_group] = sys_exit,
	[__NR_spawn] = sys_spawn,
	[__NR_endpoint_create] = sys_endpoint_create,
	[__NR_notification_create] = sys_notification_create,
	[__NR_handle_mint] = sys_handle_mint,
	[__NR_handle_close] = sys_handle_close,
	[__NR_ipc_send] = sys_ipc_send,
	[__NR_ipc_recv] = sys_ipc_recv,
	[__NR_ipc_call] = sys_ipc_call,
	[__NR_ipc_reply] = sys_ipc_reply,
	[__NR_ipc_reply_recv] = sys_ipc_reply_recv,
	[__NR_notify_signal] = sys_notify_signal,
	[__NR_notify_wait] = sys_notify_wait,
	[__NR_ioperm] = sys_ioperm,
	[__NR_irq_bind] = sys_irq_bind,
	[__NR_irq_ack] = sys_irq_ack,
	[__NR_console_register] = sys_console_register,
};
#pragma GCC diagnostic pop

bool do_syscall_exit(struct pt_regs *regs, long ret)
{
	trace_event(sys_exit, regs->error_code, ret);
	regs->rax = (u64)ret;
	return syscall_exit_to_user_mode(regs);
}

bool do_syscall_bad(struct pt_regs *regs)
{
	this_cpu_stat_inc(syscalls);
	trace_event(sys_enter, regs->error_code, regs);
	return do_syscall_exit(regs, -ENOSYS);
}

bool syscall_exit_work(struct pt_regs *regs, struct thread *t)
{
	exit_to_user_mode(regs);
	if (READ_ONCE(t->flags) & _TIF_IRET) /* this frame is checked below */
		__atomic_fetch_and(&t->flags, ~_TIF_IRET, __ATOMIC_SEQ_CST);
	if (likely(sysret_ok(regs)))
		return true;
	this_cpu_stat_inc(sysret_via_iret);
	return false;
}

bool sysret_frame_bug(const struct pt_regs *regs)
{
	report_bug("system call frame changed without force_iret(): rip %llx rcx %llx, rflags %llx r11 %llx, cs %llx ss %llx",
		   (unsigned long long)regs->rip, (unsigned long long)regs->rcx,
		   (unsigned long long)regs->rflags, (unsigned long long)regs->r11,
		   (unsigned long long)regs->cs, (unsigned long long)regs->ss);
	return false;
}
