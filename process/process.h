/* Processes: an address space, one fold thread with a user context, and
 * the Unix life cycle around them (spawn, exit, wait, kill). A process's
 * pid is its thread's id, as a Linux process's pid is its first thread's
 * tid, so `ps` shows kernel threads and processes in one list. */
#ifndef FOLD_KERNEL_PROCESS_H
#define FOLD_KERNEL_PROCESS_H
#include "lib/types.h"
#include "lib/list.h"
#include "sched/sched.h"

#define PROC_NAME_LEN 32

enum proc_state {
	PROC_STARTING,  /* loaded, its thread not yet in user mode */
	PROC_RUNNING,
	PROC_ZOMBIE,    /* exited: its status waits for wait4() */
};

struct process {
	int pid;
	char name[PROC_NAME_LEN];
	struct mm *mm;
	struct thread *thread;
	struct process *parent;  /* NULL: started by the kernel */
	bool detached;           /* nobody waits: reaped at the next spawn, exit or ps */
	u32 nr_children;         /* live and zombie, until reaped (under the process lock) */
	volatile int state;
	int status;              /* wait4()'s status word (uapi/syscall.h) */
	volatile int kill_sig;   /* the fatal signal pending, 0 if none */
	u64 entry, user_sp;      /* where its first return to ring 3 goes */
	struct ipc_state *ipc;   /* its handles and IPC state (ipc/ipc.h) */
	u32 caps;                /* CAP_SYS_RAWIO ...: what only drivers may do */
	struct list_head node;
};

/* Capabilities, Linux's idea (capabilities(7)) with one bit so far:
 * CAP_SYS_RAWIO lets a process take I/O ports (ioperm) and bind an
 * interrupt to a notification (irq_bind). Only the kernel hands it out,
 * at spawn (process_spawn_caps()): the serial driver (drivers/console_drv.c)
 * and the tests; spawn() from user space never passes it on. */
#define CAP_SYS_RAWIO (1U << 0)
static inline bool process_capable(const struct process *p, u32 cap)
{
	return p && (p->caps & cap) == cap;
}

struct spawn_args {
	const char *name;         /* a boot module (boot/module.h) */
	int argc;
	const char *const *argv;
	struct process *parent;   /* NULL: the kernel */
	bool detached;            /* nobody will wait */
	u64 cpus;                 /* allowed CPUs (0: all) */
	/* Handles the child starts with, in slots 0..nhandles-1: copies of
	 * handles[i] of ipc_from (a process's state, or a test's own). */
	struct ipc_state *ipc_from;
	int nhandles;
	const int *handles;
};
/* Load a boot module and start it. Returns the process, or NULL with
 * *err = -ENOENT (no such module), -ENOEXEC (a bad image: process/exec.c
 * says why), -E2BIG, -EINVAL, -EBADF or -EMFILE (the handles), -EAGAIN
 * (the parent has nproc children, max_threads processes exist, or every
 * kernel stack slot is taken), -ENOMEM; then nothing it took is kept. */
struct process *process_spawn(const struct spawn_args *a, int *err);
/* The same, the process holding capabilities caps (CAP_SYS_RAWIO): for
 * the kernel's own drivers and tests, never reached from spawn(). */
struct process *process_spawn_caps(const struct spawn_args *a, u32 caps, int *err);
/* The kernel waits for a process it spawned (not detached): its status,
 * after which p is gone. */
int process_wait(struct process *p);
/* wait4() for the calling process: a child's pid (its status in
 * *status), 0 with WNOHANG and none exited, -ECHILD, -EINTR. */
int process_wait_child(int pid, int *status, bool nohang);
__noreturn void do_exit(int status);
/* kill(): 0, -ESRCH, -EPERM (a kernel thread), -EINVAL (the signal). */
int process_kill(int pid, int sig);
/* A fatal signal for the calling process (a fault in user mode): it dies
 * on its way back to ring 3 (exit_to_user_mode). */
void force_sig(int sig);
static inline bool fatal_signal_pending(struct process *p)
{
	return p && p->kill_sig;
}
/* The calling thread's process (NULL for a kernel thread). Inline: every
 * system call that names its caller asks, getpid among them. */
static inline struct process *current_process(void)
{
	return current_thread()->proc;
}
/* Each process under the process lock (for ps). */
void process_for_each(void (*fn)(struct process *p, void *arg), void *arg);
/* Free the exited processes nobody waits for. */
void process_reap_detached(void);

/* The spawn limits (process/process.c), set at boot once the CPUs are up
 * (their stacks taken) by process_init(). */
struct process_limits {
	u32 max_threads;   /* processes at most (Linux's threads-max) */
	u32 nproc;         /* live children per process (nproc=, RLIMIT_NPROC) */
	u32 nr_processes;  /* now: spawning, running or zombie */
};
void process_init(void);
void process_limits(struct process_limits *l);
#endif
