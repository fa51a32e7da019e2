/* Processes: see process/process.h. The address space is built by
 * process/exec.c; a process's first entry into ring 3 is process_start().
 *
 * Signals are only the fatal ones: a fault in user mode (force_sig) or
 * kill(pid, SIGKILL or SIGTERM). Either sets kill_sig and TIF_SIGPENDING
 * and makes sure the thread soon passes exit_to_user_mode(): it wakes it
 * if it sleeps (a sleep returns early with -EINTR) and, if it runs on
 * another CPU, sends that CPU a RESCHEDULE IPI whose return to ring 3
 * sees the flag (Linux's kick_process). */
#include "process/process.h"
#include "ipc/irq_notify.h"
#include "drivers/console_drv.h"
#include "mm/user_mm.h"
#include "process/exec.h"
#include "boot/module.h"
#include "kernel/entry/common.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/cmdline.h"
#include "mm/mm.h"
#include "kernel/locking/spinlock.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "ipc/ipc.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "uapi/errno.h"
#include "uapi/syscall.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(proc_lock); /* spinlock_t: process context only; sleeps on PREEMPT_RT */
static LIST_HEAD(processes);
static struct wait_queue exit_wq = WAIT_QUEUE_INIT(exit_wq);

/* The limits on spawn (both -EAGAIN, as Linux's fork()). max_threads is
 * Linux's threads-max (kernel/fork.c, set_max_threads()): kernel stacks
 * may take an eighth of RAM, and here also no more than the stack slots
 * boot left, less KTHREAD_STACKS for the kernel's own threads (tests,
 * benchmarks, the torture), so no tree of processes can take the last
 * stack. A fold process is one thread, so it counts processes: from the
 * start of their spawn until they are reaped (nr_processes). */
#define KTHREAD_STACKS 256
#define MIN_THREADS 20 /* Linux's floor */
static u32 max_threads;
static u32 nr_processes;

/* Linux's RLIMIT_NPROC counts a user's processes; fold has no users, so
 * nproc= limits the live children of each process (zombies count until
 * reaped). The kernel's own spawns (tests, the shell) have no parent and
 * only max_threads. Default: half of max_threads, as Linux's init_task
 * gets (fork_init()). */
static u32 nproc; /* 0: the default */

static int set_nproc(const char *v)
{
	return cmdline_u32(v, &nproc, 1, 1000000000);
}
early_param(nproc, set_nproc, nproc, "a count of children per process, 1 to 1G",
	    "half of threads-max");

void process_init(void)
{
	u64 by_ram = mem_usable_bytes / (8 * STACK_SIZE);
	u32 used = stack_slots_in_use();
	u32 slots = used + KTHREAD_STACKS + MIN_THREADS <= STACK_SLOTS ?
		    STACK_SLOTS - used - KTHREAD_STACKS : MIN_THREADS;
	max_threads = (u32)MAX(MIN(by_ram, slots), MIN_THREADS);
}

void process_limits(struct process_limits *l)
{
	u64 f = spin_lock_irqsave(&proc_lock);
	l->max_threads = max_threads;
	l->nproc = nproc ? nproc : max_threads / 2;
	l->nr_processes = nr_processes;
	spin_unlock_irqrestore(&proc_lock, f);
}

/* A place for one more process (and one more child of parent), or
 * -EAGAIN; given back by unreserve() if the spawn fails, else when the
 * process is reaped (unlink_locked()). */
static int reserve(struct process *parent)
{
	int err = 0;
	u64 f = spin_lock_irqsave(&proc_lock);
	if (nr_processes >= max_threads)
		err = -EAGAIN;
	else if (parent && parent->nr_children >= (nproc ? nproc : max_threads / 2))
		err = -EAGAIN;
	if (!err) {
		nr_processes++;
		if (parent)
			parent->nr_children++;
	}
	spin_unlock_irqrestore(&proc_lock, f);
	return err;
}

static void unreserve(struct process *parent)
{
	u64 f = spin_lock_irqsave(&proc_lock);
	nr_processes--;
	if (parent)
		parent->nr_children--;
	spin_unlock_irqrestore(&proc_lock, f);
}

/* Under proc_lock: a zombie off the list, reaped. A parent that has died
 * is NULL (do_exit): its count went with it. */
static void unlink_locked(struct process *p)
{
	list_del(&p->node);
	nr_processes--;
	if (p->parent)
		p->parent->nr_children--;
}

/* The new thread's first code: take the address space, build the user
 * register frame at the top of the kernel stack and leave through the
 * same exit every return to ring 3 takes. */
static void process_start(void *arg)
{
	struct process *p = arg;
	struct thread *t = current_thread();
	local_irq_disable();
	t->mm = p->mm;
	t->proc = p;
	switch_mm_irqs_off(t);
	local_irq_enable();
	WRITE_ONCE(p->state, PROC_RUNNING);

	struct pt_regs *regs = task_pt_regs(t);
	memset(regs, 0, sizeof(*regs));
	regs->rip = p->entry;
	regs->cs = USER_CS;
	regs->rflags = X86_EFLAGS_FIXED | X86_EFLAGS_IF;
	regs->rsp = p->user_sp;
	regs->ss = USER_DS;
	/* A written frame, as Linux's start_thread() said with force_iret().
	 * This first return is by IRETQ anyway (ret_to_user); the flag makes
	 * the first system call's exit check SYSRET's conditions in full and
	 * clear it, so every process takes that slow exit once. */
	force_iret(t);
	exit_to_user_mode(regs);
	ret_to_user(regs);
}

struct process *process_spawn(const struct spawn_args *a, int *err)
{
	return process_spawn_caps(a, 0, err);
}

struct process *process_spawn_caps(const struct spawn_args *a, u32 caps, int *err)
{
	process_reap_detached();
	const struct boot_module *m = module_find(a->name);
	if (!m) {
		*err = -ENOENT;
		return NULL;
	}
	if (a->nhandles < 0 || a->nhandles > SPAWN_HANDLES_MAX || (a->nhandles && !a->ipc_from)) {
		*err = -EINVAL;
		return NULL;
	}
	*err = reserve(a->parent);
	if (*err)
		return NULL;
	/* From here each failure undoes what came before it, in reverse. */
	struct process *p = kzalloc(sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		goto out_unreserve;
	}
	strlcpy(p->name, a->name, sizeof(p->name));
	p->parent = a->parent;
	p->detached = a->detached;
	p->caps = caps;
	p->state = PROC_STARTING;
	INIT_LIST_HEAD(&p->node);
	p->ipc = ipc_state_create(p, NULL);
	if (!p->ipc) {
		*err = -ENOMEM;
		goto out_free;
	}
	*err = 0;
	for (int i = 0; i < a->nhandles; i++) {
		*err = handle_copy(a->ipc_from, a->handles[i], p->ipc);
		if (*err < 0)
			break;
		*err = 0;
	}
	if (!*err)
		*err = exec_load(p, m, a->argc, a->argv);
	if (*err)
		goto out_ipc;
	struct thread *t = kthread_create(process_start, p, p->name, PRIO_NORMAL, a->cpus);
	if (!t) {
		/* No stack slot is a limit, like Linux's pid space: -EAGAIN. */
		*err = stack_slots_in_use() >= STACK_SLOTS ? -EAGAIN : -ENOMEM;
		mm_destroy(p->mm);
		goto out_ipc;
	}
	p->thread = t;
	p->ipc->t = t;
	p->pid = (int)t->id;
	u64 f = spin_lock_irqsave(&proc_lock);
	list_add_tail(&p->node, &processes);
	spin_unlock_irqrestore(&proc_lock, f);
	wake_up_thread(t);
	return p;

out_ipc:
	ipc_state_destroy(p->ipc); /* and the handles copied into it */
out_free:
	kfree(p);
out_unreserve:
	unreserve(a->parent);
	return NULL;
}

/* Free an exited process: its thread (stack and struct, once it is off
 * its CPU for good) and itself. It is already off the list. */
static void release(struct process *p)
{
	thread_join(p->thread);
	ipc_state_destroy(p->ipc);
	kfree(p);
}

void process_reap_detached(void)
{
	for (;;) {
		struct process *found = NULL, *it;
		u64 f = spin_lock_irqsave(&proc_lock);
		list_for_each_entry(it, &processes, node)
			if (it->detached && it->state == PROC_ZOMBIE) {
				found = it;
				break;
			}
		if (found)
			unlink_locked(found);
		spin_unlock_irqrestore(&proc_lock, f);
		if (!found)
			return;
		release(found);
	}
}

int process_wait(struct process *p)
{
	wait_event(&exit_wq, READ_ONCE(p->state) == PROC_ZOMBIE);
	u64 f = spin_lock_irqsave(&proc_lock);
	unlink_locked(p);
	spin_unlock_irqrestore(&proc_lock, f);
	int status = p->status;
	release(p);
	return status;
}

/* Under proc_lock: a zombie child matching pid (or -1 for any), and
 * whether any child matches at all. */
static struct process *find_zombie_child(struct process *self, int pid, bool *any)
{
	struct process *it;
	*any = false;
	list_for_each_entry(it, &processes, node) {
		if (it->parent != self || (pid != -1 && it->pid != pid))
			continue;
		*any = true;
		if (it->state == PROC_ZOMBIE)
			return it;
	}
	return NULL;
}

int process_wait_child(int pid, int *status, bool nohang)
{
	struct process *self = current_process(), *z = NULL;
	bool any = false;
	for (;;) {
		struct waiter w = { 0 };
		INIT_LIST_HEAD(&w.node);
		prepare_to_wait(&exit_wq, &w);
		u64 f = spin_lock_irqsave(&proc_lock);
		z = find_zombie_child(self, pid, &any);
		if (z)
			unlink_locked(z);
		spin_unlock_irqrestore(&proc_lock, f);
		if (z || !any || nohang || fatal_signal_pending(self)) {
			finish_wait(&exit_wq, &w);
			break;
		}
		schedule();
		finish_wait(&exit_wq, &w);
	}
	if (!z)
		return !any ? -ECHILD : nohang ? 0 : -EINTR;
	*status = z->status;
	int zpid = z->pid;
	release(z);
	return zpid;
}

__noreturn void do_exit(int status)
{
	struct thread *t = current_thread();
	struct process *p = t->proc;
	BUG_ON(!p);
	/* Off the address space before it is freed: back to the kernel's. */
	local_irq_disable();
	t->mm = NULL;
	switch_mm_irqs_off(t);
	local_irq_enable();
	/* p->mm cleared before the pages go: a reader on p's CPU with
	 * preemption off (the user suite's isolation case) sees either the
	 * whole address space or none, never one half freed. */
	struct mm *mm = p->mm;
	WRITE_ONCE(p->mm, NULL);
	mm_destroy(mm);
	irq_release_process(p);  /* its interrupt lines: masked, unbound */
	console_drv_exit(p);     /* the console's driver: the kernel takes it back */
	ipc_state_exit(p->ipc); /* its caller learns it died; its handles close */

	/* Its children are orphans: nobody will wait for them. The kernel
	 * reaps them, as Linux's init does: the zombies among them now, the
	 * others once they exit (at the next spawn, exit or ps anywhere). */
	u64 f = spin_lock_irqsave(&proc_lock);
	struct process *it;
	list_for_each_entry(it, &processes, node)
		if (it->parent == p) {
			it->parent = NULL;
			it->detached = true;
		}
	spin_unlock_irqrestore(&proc_lock, f);
	process_reap_detached(); /* before p is a zombie: it never reaps itself */

	f = spin_lock_irqsave(&proc_lock);
	p->status = status;
	__atomic_store_n(&p->state, PROC_ZOMBIE, __ATOMIC_SEQ_CST);
	spin_unlock_irqrestore(&proc_lock, f);
	wake_up_all(&exit_wq);
	thread_exit();
}

static void send_fatal(struct process *p, int sig)
{
	struct thread *t = p->thread;
	int none = 0;
	__atomic_compare_exchange_n(&p->kill_sig, &none, sig, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&t->flags, _TIF_SIGPENDING, __ATOMIC_SEQ_CST);
	if (wake_up_thread(t))
		return;
	preempt_disable();
	if (t != current_thread() && READ_ONCE(t->on_cpu))
		smp_send_reschedule((u32)READ_ONCE(t->cpu));
	preempt_enable();
}

void force_sig(int sig)
{
	send_fatal(current_process(), sig);
}

int process_kill(int pid, int sig)
{
	if (sig != 0 && sig != SIGKILL && sig != SIGTERM)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL; /* no process groups in fold */
	int ret = -ESRCH;
	u64 f = spin_lock_irqsave(&proc_lock);
	struct process *it, *found = NULL;
	list_for_each_entry(it, &processes, node)
		if (it->pid == pid)
			found = it;
	if (found) {
		ret = 0;
		if (sig && found->state != PROC_ZOMBIE)
			send_fatal(found, sig);
	} else if (thread_exists((u32)pid)) {
		ret = -EPERM; /* a kernel thread */
	}
	spin_unlock_irqrestore(&proc_lock, f);
	return ret;
}

void process_for_each(void (*fn)(struct process *p, void *arg), void *arg)
{
	u64 f = spin_lock_irqsave(&proc_lock);
	struct process *it;
	list_for_each_entry(it, &processes, node)
		fn(it, arg);
	spin_unlock_irqrestore(&proc_lock, f);
}
