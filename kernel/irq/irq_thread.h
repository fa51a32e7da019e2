/* Threaded interrupt handlers (Linux's request_threaded_irq(),
 * kernel/irq/manage.c). A device line's hard handler does the least it
 * can (mask the line, note the time) and wakes the line's thread, a FIFO
 * kernel thread named irq/N-NAME, which does the rest: on PREEMPT_RT that
 * work may take sleeping locks, and a higher FIFO thread may preempt it.
 *
 * Forced on PREEMPT_RT, and on any kernel booted with `threadirqs`
 * (Linux's option of the same name). The timer, the RESCHEDULE and
 * CALL_FUNCTION IPIs, the APIC's error and spurious vectors stay hard in
 * every build, as Linux's system vectors do; so does a FIFO thread's
 * wake-up from its sleep's timer (Linux's HRTIMER_MODE_HARD): fold's
 * hrtimers all fire in hard interrupt context. */
#ifndef FOLD_KERNEL_IRQ_THREAD_H
#define FOLD_KERNEL_IRQ_THREAD_H
#include "lib/types.h"
#include "sched/wait.h"

#define IRQ_THREAD_PRIO 50   /* Linux's MAX_RT_PRIO / 2 */

struct irq_thread {
	struct thread *t;        /* NULL until irq_thread_start() */
	void (*fn)(void *arg);   /* the handler's work, in the thread */
	void *arg;
	volatile u32 pending;    /* set by the hard handler */
	struct wait_queue wq;
	u64 runs;                /* times fn ran */
};

/* Whether device handlers run in threads: PREEMPT_RT, or threadirqs. */
extern bool force_irqthreads;

/* Make its thread, irq/<irq>-<name>, at IRQ_THREAD_PRIO; once per line
 * (a started one is left as it is). 0, or -ENOMEM when no kernel stack or
 * memory is left. Process context. */
int irq_thread_start(struct irq_thread *it, u32 irq, const char *name,
		     void (*fn)(void *arg), void *arg);
/* From the hard handler: fn will run, once for any number of wakes before
 * the thread gets to it. */
void irq_thread_wake(struct irq_thread *it);
#endif
