/* The scheduler's interface. Per-CPU run queues with two bands: real-time
 * FIFO (prio 1..99, higher first, no time slice) above normal round-robin
 * (prio 0, a time slice of SCHED_SLICE_TICKS ticks). */
#ifndef FOLD_SCHED_SCHED_H
#define FOLD_SCHED_SCHED_H
#include "lib/types.h"
#include "sched/thread.h"
#include "kernel/percpu.h"
#include "kernel/debug/checks.h"

#define SM_NONE 0      /* the thread blocked or yielded */
#define SM_PREEMPT 1   /* the thread was preempted (stays runnable) */
#define SCHED_SLICE_TICKS 5
#define ALL_CPUS (~0UL)

static inline struct thread *current_thread(void)
{
	return this_cpu_read(current);
}

/* core.c: the switch, and the scheduling side of preemption. */
void __schedule(int mode);
void schedule(void);
void yield(void);
struct thread *rq_curr(u32 cpu);
void resched_curr(u32 cpu);             /* ask `cpu` to reschedule */
void resched_curr_lazy(u32 cpu);        /* the same for a normal thread: lazy mode defers it */
void scheduler_ipi(void);               /* the RESCHEDULE IPI's work */
/* preempt_schedule(), from preempt_enable(): arch/x86_64/preempt/thunk.h */
void preempt_schedule_irq(void);        /* from the IRQ exit, IRQs off */
void irqentry_exit_cond_resched(void);  /* the IRQ exit: full and lazy preempt */

/* wake.c: wake-ups, the tick, idle pulling, boot. */
void sched_init(void);                  /* boot CPU: run queues, boot thread */
void sched_prepare_cpu(u32 cpu);        /* boot CPU, before starting an AP */
void sched_init_ap(u32 cpu);            /* the AP itself: current = idle */
bool wake_up_thread(struct thread *t);  /* false if it was not sleeping */
/* PREEMPT_RT's spinlock_t sleep (kernel/locking/spinlock_rt.c, Linux's
 * names): wake a thread asleep on one; save the state before the sleep
 * and set THREAD_RTLOCK_WAIT; put it back once the lock is taken (these
 * two exist on RT alone). */
bool wake_up_rtlock(struct thread *t);
void current_save_and_set_rtlock_wait_state(void);
void current_restore_rtlock_saved_state(void);
void scheduler_tick(void);
void sched_pull_work(void);
u32 rq_nr_running(u32 cpu);
extern bool sched_running;

/* thread.c. Both return NULL when no kernel stack or no memory is left
 * (mm/stack.c): a caller a system call or the shell can reach returns an
 * error; one that runs only at boot may panic, saying what it needed. */
struct thread *thread_create(void (*fn)(void *), void *arg, const char *name,
			     int prio, u64 allowed_cpus);
/* The same, not yet started: wake_up_thread() starts it (Linux's
 * kthread_create and wake_up_process). */
struct thread *kthread_create(void (*fn)(void *), void *arg, const char *name,
			      int prio, u64 allowed_cpus);
bool thread_exists(u32 id);
/* Thread `id`'s priority in *prio (-1 for an idle thread); false if there
 * is no such live thread. */
bool thread_prio_of(u32 id, int *prio);
__noreturn void thread_exit(void);
void thread_join(struct thread *t);     /* waits, then frees it */
void thread_for_each(void (*fn)(struct thread *t, void *arg), void *arg);
extern struct thread boot_thread;

/* rt.c: a thread's band and priority, as Linux's sched_setscheduler()
 * (0: SCHED_OTHER; 1..99: SCHED_FIFO). Requeues it if it is queued and
 * asks its CPU to reschedule if the order changed. -EINVAL for a bad prio. */
int sched_setscheduler(struct thread *t, int prio);
/* t's effective priority becomes prio (a boost, or its end), requeued and
 * rescheduled as above: kernel/locking/rtmutex.c's, under its lock. */
void rt_mutex_setprio(struct thread *t, int prio);

/* handoff.c: the current thread has marked itself SLEEPING and made next
 * runnable-to-be (asleep, off every run queue): switch to next directly,
 * if it may run here now. False (nothing done) if not: wake it instead.
 * True once the current thread runs again. */
bool sched_handoff(struct thread *next);
/* The same for a waker that holds `held`, the lock of the wait queue
 * next sleeps on (node: its entry there), taken with IRQs off
 * (raw_spin_lock_irqsave() from a preemptible caller): while it is held
 * next cannot leave that queue, so cannot exit. True once the current
 * thread runs again, node off the queue, `held` released and IRQs on;
 * false with nothing changed, `held` still held and IRQs still off. */
struct raw_spinlock;
bool sched_handoff_wake(struct thread *next, struct raw_spinlock *held, struct list_head *node);
/* The same switch in steps, for the IPC fast path: sched/handoff.h and
 * sched/context_switch.h. The end of every switch but the fast path's:
 * the second half (finish_switch_irqs_off()), then IRQs on. */
void finish_switch(struct thread *prev);

/* idle.c */
extern bool idle_poll; /* idle=poll: spin, TIF_POLLING_NRFLAG set, instead of hlt */
__noreturn void cpu_idle(void);

/* sleep.c */
void sleep_until(u64 deadline_ns);
/* The same, but a pending signal (TIF_SIGPENDING) ends it: true then. */
bool sleep_until_interruptible(u64 deadline_ns);
void sleep_ns(u64 ns);

/* preempt_mode.c: the voluntary preemption points, Linux's semantics per mode. */
int cond_resched(void);
void might_resched(void);
/* Linux's might_sleep(): the report of a call from atomic context, then
 * the preemption point (__might_sleep()); in a release build only the
 * point, as in Linux without CONFIG_DEBUG_ATOMIC_SLEEP
 * (kernel/debug/checks.h). */
#define might_sleep()                                      \
	do {                                               \
		if (DEBUG_CHECKS)                          \
			__might_sleep(__FILE__, __LINE__); \
		else                                       \
			might_resched();                   \
	} while (0)
void __might_sleep(const char *file, int line);
#endif
