/* System call numbers, shared by the kernel's table (process/syscall.c)
 * and the user library's stubs (user/lib/syscall.h). Where Linux has the
 * call, the number is Linux's x86-64 one (arch/x86/entry/syscalls/
 * syscall_64.tbl), so `strace`-style traces read the same; fold's own
 * calls start at 500, above every number Linux uses today.
 *
 * The ABI is Linux's: `syscall` with the number in rax and up to six
 * arguments in rdi, rsi, rdx, r10, r8, r9; the result comes back in rax,
 * a negative errno (uapi/errno.h) on failure. rcx and r11 are clobbered
 * (the CPU puts the return address and RFLAGS there: SDM Vol. 2B SYSCALL). */
#ifndef FOLD_UAPI_SYSCALL_H
#define FOLD_UAPI_SYSCALL_H

#define __NR_write            1   /* write(fd, buf, len): fd 1 and 2 go to the console */
#define __NR_sched_yield     24
#define __NR_nanosleep       35   /* nanosleep(const struct timespec *req, struct timespec *rem) */
#define __NR_getpid          39
#define __NR_exit            60   /* exit(code): the calling thread (fold: its process) */
#define __NR_wait4           61   /* wait4(pid or -1, int *status, options 0, NULL) */
#define __NR_kill            62   /* kill(pid, sig): SIGKILL or SIGTERM end it, 0 probes */
#define __NR_sched_getparam 143   /* sched_getparam(tid, struct sched_param *) */
#define __NR_sched_setscheduler 144 /* sched_setscheduler(tid, policy, const struct sched_param *) */
#define __NR_sched_getscheduler 145 /* sched_getscheduler(tid): the policy */
#define __NR_ioperm         173   /* ioperm(from, num, on): ports from..from+num-1 (CAP_SYS_RAWIO; below 0x400) */
#define __NR_gettid         186
#define __NR_clock_gettime  228   /* clock_gettime(clockid, struct timespec *) */
#define __NR_clock_nanosleep 230  /* clock_nanosleep(clockid, flags, req, rem) */
#define __NR_exit_group     231
#define __NR_spawn          500   /* fold: spawn(name, argv, handles, n): a boot module, returns its pid */
/* fold's IPC (uapi/ipc.h): seL4's operations, seL4's names. */
#define __NR_endpoint_create 501  /* () -> a handle with SEND|RECV|GRANT */
#define __NR_notification_create 502 /* () -> a handle with SIGNAL|WAIT */
#define __NR_handle_mint    503   /* (h, badge, rights) -> a new handle */
#define __NR_handle_close   504   /* (h) */
#define __NR_ipc_send       505   /* (h, tag, w0, w1, w2, buf) */
#define __NR_ipc_recv       506   /* (h, buf) -> the message in registers */
#define __NR_ipc_call       507   /* (h, tag, w0, w1, w2, buf) -> the reply */
#define __NR_ipc_reply      508   /* (tag, w0, w1, w2, buf) */
#define __NR_ipc_reply_recv 509   /* (h, tag, w0, w1, w2, buf) -> the next message */
#define __NR_notify_signal  510   /* (h, bits) */
#define __NR_notify_wait    511   /* (h) -> the bits */
/* fold's user-level drivers (uapi/irq.h): CAP_SYS_RAWIO only. */
#define __NR_irq_bind       512   /* (irq, notification h, bit): the IRQ signals 1 << bit */
#define __NR_irq_ack        513   /* (irq): handled, unmask the line */
#define __NR_console_register 514 /* (endpoint h): the console's writes come to it */

#define NR_SYSCALLS         520   /* table size: numbers 0..519 */
#define SPAWN_HANDLES_MAX     8   /* handles spawn() passes to the child (slots 0..n-1) */

/* Clocks (Linux's numbers): both are fold's monotonic clock since boot. */
#define CLOCK_REALTIME   0
#define CLOCK_MONOTONIC  1
#define TIMER_ABSTIME    1        /* clock_nanosleep flags: req is a deadline */

/* Signals kill() understands (Linux's numbers). */
#define SIGKILL  9
#define SIGSEGV 11
#define SIGTERM 15
#define SIGILL   4
#define SIGTRAP  5
#define SIGFPE   8
#define SIGBUS   7

/* wait4()'s status word, as Linux encodes it (exit code << 8, or the
 * signal in the low 7 bits). */
#define W_EXITCODE(code)   (((code) & 0xff) << 8)
#define W_SIGNALED(sig)    ((sig) & 0x7f)
#define WIFEXITED(s)       (((s) & 0x7f) == 0)
#define WEXITSTATUS(s)     (((s) >> 8) & 0xff)
#define WIFSIGNALED(s)     (((s) & 0x7f) != 0)
#define WTERMSIG(s)        ((s) & 0x7f)

/* Scheduling policies (Linux's numbers). SCHED_OTHER is fold's
 * round-robin band (priority 0); SCHED_FIFO its real-time band, priority
 * 1..99, higher first, no time slice, throttled to 95% of each second for
 * user threads as Linux's sched_rt_runtime_us does (sched/rt.c). */
#define SCHED_OTHER 0
#define SCHED_FIFO  1
#define SCHED_FIFO_PRIO_MIN 1
#define SCHED_FIFO_PRIO_MAX 99

struct sched_param {
	int sched_priority;
};

struct timespec {
	long tv_sec;
	long tv_nsec;
};

#endif
