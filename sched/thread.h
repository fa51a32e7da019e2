/* Kernel threads. */
#ifndef FOLD_SCHED_THREAD_H
#define FOLD_SCHED_THREAD_H

#include "lib/types.h"
#include "lib/list.h"

struct mm;
struct process;
struct pt_regs;
struct rt_mutex_waiter;

enum thread_state {
	THREAD_RUNNING,   /* on a CPU or on a run queue */
	THREAD_SLEEPING,  /* waiting for a wake-up */
	THREAD_DEAD,      /* exited, waiting to be joined */
	/* PREEMPT_RT: sleeping on a spinlock_t (Linux's TASK_RTLOCK_WAIT);
	 * the state it had before waits in saved_state, and a wake-up meant
	 * for that state goes there (sched/wake.c). */
	THREAD_RTLOCK_WAIT,
};

#define THREAD_NAME_LEN 16
#define PRIO_FIFO_MIN 1   /* 1..99: real-time FIFO band, higher runs first */
#define PRIO_NORMAL 0     /* the round-robin band */

struct thread {
	/* TIF_* bits (kernel/preempt.h). First field: the arch's
	 * tif_need_resched() reads it at offset 0. Set atomically from any
	 * CPU. */
	volatile u64 flags;
	u64 ksp;                   /* saved stack pointer while switched out */
	u32 id;
	char name[THREAD_NAME_LEN];
	volatile int state;
	volatile int saved_state;  /* THREAD_RTLOCK_WAIT's: under the rq lock */
	int prio;                  /* effective: normal_prio, or a PI boost */
	/* kernel/locking/rtmutex.c's, under rt_mutex_pi_lock: */
	int normal_prio;           /* its own priority (sched_setscheduler) */
	struct rt_mutex_waiter *pi_blocked_on; /* the rt_mutex it sleeps on */
	struct list_head pi_locks; /* rt_mutexes it owns that have waiters */
	volatile int cpu;          /* CPU it runs or is queued on */
	u64 nr_switches;
	/* Linux's nvcsw/nivcsw (getrusage's ru_nvcsw/ru_nivcsw): switches
	 * away from this thread because it blocked, and because it was
	 * switched out still runnable (preempted, cond_resched(), yield). */
	u64 nvcsw, nivcsw;
	u32 saved_preempt_count;   /* percpu model: saved at switch */
	u64 allowed_cpus;          /* affinity mask */
	void *stack;               /* lowest mapped address of the stack */
	u64 stack_top;
	void (*fn)(void *);
	void *arg;
	int slice;                 /* ticks left in the round-robin slice */
	/* The bands it ran in and left since the tick last accounted it
	 * (RAN_FIFO, RAN_NORMAL: sched/rq.h), under its rq lock. */
	u8 ran_bands;
	/* Allowed on more than one CPU (Linux: nr_cpus_allowed > 1): kept
	 * with allowed_cpus by thread_set_allowed_cpus(). */
	u8 migratory;
	volatile int on_rq;
	struct list_head rq_node;  /* run queue */
	struct list_head all_node; /* every thread, for ps */
	volatile int on_cpu;       /* 1 from switch-in until the switch-out completes */
	struct mm *mm;             /* its address space; NULL: a kernel thread */
	struct process *proc;      /* the process it belongs to, or NULL */
	u64 utime, stime;          /* ticks spent in user and in kernel mode */
	/* migrate_disable()'s count, PREEMPT_RT only (sched/migrate.h):
	 * written by the thread itself, read by whoever would move it. */
	u32 migration_disabled;
	/* References to the struct (Linux's task_struct usage): its
	 * joiner's, from creation, and one per get_task_struct(). The
	 * joiner frees the stack; the last put frees the struct. */
	volatile u32 usage;
};

/* Keep t's struct past its exit and join, as Linux's get_task_struct():
 * for a waker that uses t after dropping the lock that kept t from
 * exiting (ipc/endpoint.c). A dead thread's struct says THREAD_DEAD, so
 * a wake-up or a handoff of it does nothing. */
static inline void get_task_struct(struct thread *t)
{
	__atomic_fetch_add(&t->usage, 1, __ATOMIC_RELAXED);
}

void __put_task_struct(struct thread *t); /* sched/thread.c: frees it */
static inline void put_task_struct(struct thread *t)
{
	if (__atomic_sub_fetch(&t->usage, 1, __ATOMIC_ACQ_REL) == 0)
		__put_task_struct(t);
}

/* The register frame at the top of every kernel stack: where an entry
 * from ring 3 saves the user's registers (TSS.RSP0 = stack_top), and where
 * a new user thread builds its first return (Linux's task_pt_regs()).
 * thread_setup_stack() keeps it free in every thread. */
#define task_pt_regs(t) ((struct pt_regs *)(t)->stack_top - 1)

/* sched/thread.c, for the scheduler's own use: a thread with no stack
 * yet (idle threads; NULL if out of memory), and the first frame
 * switch_to() returns through. */
struct thread *thread_alloc(const char *name, int prio, u64 allowed);
/* Its affinity mask, and whether it has more than one CPU: only while t
 * is on no run queue (at creation, or asleep). */
void thread_set_allowed_cpus(struct thread *t, u64 allowed);
void thread_setup_stack(struct thread *t, u64 top);
/* A new thread's first C code (called by thread_entry, switch.asm). */
void thread_start(struct thread *prev);

#endif
