/* Threaded interrupt handlers: kernel/irq/irq_thread.h says what and why. */
#include "kernel/irq/irq_thread.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/cmdline.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "lib/format.h"
#include "lib/string.h"
#include "sched/sched.h"
#include "uapi/errno.h"

bool force_irqthreads = PREEMPT_RT;

/* threadirqs (a bare word, as on Linux; threadirqs=0 turns it off, except
 * on PREEMPT_RT, where threading is not optional). */
static int set_threadirqs(const char *v)
{
	bool on;
	if (cmdline_flag(v, &on))
		return -1;
	force_irqthreads = on || PREEMPT_RT;
	return 0;
}
early_param(threadirqs, set_threadirqs, force_irqthreads, "nothing, on or off",
	    "off (on with PREEMPT_RT)");

static void irq_thread_fn(void *arg)
{
	struct irq_thread *it = arg;
	for (;;) {
		wait_event(&it->wq, READ_ONCE(it->pending));
		__atomic_store_n(&it->pending, 0, __ATOMIC_SEQ_CST);
		it->fn(it->arg);
		it->runs++;
	}
}

/* Serialises the starts (Linux's irq_desc request_mutex): two binds of one
 * line at once would both see no thread, and the second would make a
 * thread of its own and re-initialise the wait queue the first thread
 * sleeps on. A sleeping lock: thread_create() may sleep. */
static DEFINE_RT_MUTEX(irq_request_mutex);

int irq_thread_start(struct irq_thread *it, u32 irq, const char *name,
		     void (*fn)(void *arg), void *arg)
{
	int ret = 0;
	rt_mutex_lock(&irq_request_mutex);
	if (it->t)
		goto out;
	char tname[THREAD_NAME_LEN];
	snprintf(tname, sizeof(tname), "irq/%u-%s", irq, name);
	it->fn = fn;
	it->arg = arg;
	it->pending = 0;
	wait_queue_init(&it->wq);
	struct thread *t = thread_create(irq_thread_fn, it, tname, IRQ_THREAD_PRIO, 0);
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	WRITE_ONCE(it->t, t);
	pr_info("irq: IRQ %u's handler runs in thread %s (id %u), FIFO %d\n", irq, tname,
		t->id, IRQ_THREAD_PRIO);
out:
	rt_mutex_unlock(&irq_request_mutex);
	return ret;
}

void irq_thread_wake(struct irq_thread *it)
{
	__atomic_store_n(&it->pending, 1, __ATOMIC_SEQ_CST);
	wake_up_one(&it->wq);
}
