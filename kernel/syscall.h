/* The system call table (kernel/syscall.c) and the calls behind it. The
 * numbers and the ABI are uapi/syscall.h's. Every call takes six u64
 * arguments (unused ones ignored) and returns a value or a negative errno;
 * nothing a user passes may oops the kernel: pointers go through
 * kernel/uaccess.h, numbers are range-checked. */
#ifndef FOLD_KERNEL_SYSCALL_H
#define FOLD_KERNEL_SYSCALL_H
#include "lib/types.h"

struct pt_regs;
/* From entry_SYSCALL_64 with IRQs off: the call, then exit_to_user_mode().
 * True if the return may use SYSRET (see kernel/syscall.c). */
bool do_syscall_64(struct pt_regs *regs);
/* The end of every system call, with regs->rax set: exit_to_user_mode(),
 * then whether SYSRET may return (the IPC fast path's too). */
bool syscall_exit_to_user_mode(struct pt_regs *regs);

#define SYSCALL_ARGS u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5
typedef long (*syscall_fn)(SYSCALL_ARGS);

/* kernel/sys_write.c. While user_write_capture is set (by a test), what
 * user programs write also goes into it (only into it if it is quiet);
 * one capture for all CPUs, since a process may run on any. */
long sys_write(SYSCALL_ARGS);
struct printk_capture;
extern struct printk_capture *volatile user_write_capture;
/* kernel/sys_time.c */
long sys_sched_yield(SYSCALL_ARGS);
long sys_nanosleep(SYSCALL_ARGS);
long sys_clock_gettime(SYSCALL_ARGS);
long sys_clock_nanosleep(SYSCALL_ARGS);
/* kernel/sys_process.c */
long sys_getpid(SYSCALL_ARGS);
long sys_gettid(SYSCALL_ARGS);
long sys_exit(SYSCALL_ARGS);
long sys_wait4(SYSCALL_ARGS);
long sys_kill(SYSCALL_ARGS);
long sys_spawn(SYSCALL_ARGS);
/* kernel/sys_sched.c */
long sys_sched_setscheduler(SYSCALL_ARGS);
long sys_sched_getscheduler(SYSCALL_ARGS);
long sys_sched_getparam(SYSCALL_ARGS);
/* kernel/sys_ipc.c (uapi/ipc.h) */
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
/* kernel/sys_irq.c (uapi/irq.h) */
long sys_ioperm(SYSCALL_ARGS);
long sys_irq_bind(SYSCALL_ARGS);
long sys_irq_ack(SYSCALL_ARGS);
long sys_console_register(SYSCALL_ARGS);
#endif
