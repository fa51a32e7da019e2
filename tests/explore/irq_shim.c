/* The kernel around kernel/irq/irq_thread.c, for the explorer: one
 * device line's struct irq_thread, thread_create() and the wait queue's
 * calls. irq_thread_start() is compiled as it is in the tree; its
 * rt_mutex is rtmutex.c's own, so a start that finds the line busy
 * sleeps and is woken as in the kernel.
 *
 * What must hold, whatever the interleaving of two binds of the line:
 *   one thread     thread_create() is called once for the line
 *   its queue      nobody re-initialises the wait queue once a thread
 *                  has been made to sleep on it
 * The points: a start reads the line's thread first (it->t, the test
 * that decides whether to make one); thread_create() and WRITE_ONCE() of
 * it->t write it; wait_queue_init() writes the queue. A made thread does
 * not run here: it would sleep on the queue until the line's first
 * interrupt, which is what a re-initialisation breaks. */
#include "tests/explore/shim.h"
#include "tests/explore/explore.h"
#include "kernel/irq/irq_thread.h"
#include "kernel/locking/rtmutex.h"
#include "sched/sched.h"
#include "sched/wait.h"

#include <stdio.h>
#include <string.h>

#define IRQ_LINE 4

/* irq_thread.c's own lock, static there: explore.mk makes the symbol
 * global in the explorer's copy of the object (objcopy), so that each
 * run starts with it free and the invariants watch it as any lock. */
extern struct rt_mutex irq_request_mutex;

static struct irq_thread it;
static struct thread made_thread;
static int made;                   /* thread_create() calls for the line */
static int maker = -1;             /* the explorer's thread that made it */

struct rt_mutex *shim_irq_mutex(void)
{
	return &irq_request_mutex;
}

void shim_irq_reset(void)
{
	rt_mutex_init(&irq_request_mutex, "irq_request_mutex");
	memset(&it, 0, sizeof(it));
	memset(&made_thread, 0, sizeof(made_thread));
	made = 0;
	maker = -1;
}

bool shim_irq_watched(const volatile void *p)
{
	return p == &it.t;
}

static void line_work(void *arg)
{
	(void)arg;
}

int shim_irq_start(void)
{
	ex_point1(&it.t, EX_READ, NULL, NULL);
	ex_log("the line's thread (it->t) is %s", it.t ? it.t->name : "none yet");
	int r = irq_thread_start(&it, IRQ_LINE, "notify", line_work, NULL);
	ex_log("irq_thread_start() returns %d; the line's thread is %s", r,
	       it.t ? it.t->name : "none");
	return r;
}

int shim_irq_threads_made(void)
{
	return made;
}

struct thread *thread_create(void (*fn)(void *), void *arg, const char *name, int prio,
			     u64 allowed_cpus)
{
	(void)fn;
	(void)prio;
	(void)allowed_cpus;
	ex_point1(&it.t, EX_WRITE, NULL, NULL);
	if (arg == &it && made)
		ex_fail("%s makes a second thread for IRQ %d: %s, made by %s, already waits "
			"for its interrupts", ex_thread_name(ex_self()), IRQ_LINE,
			made_thread.name, ex_thread_name(maker));
	made++;
	maker = ex_self();
	snprintf(made_thread.name, sizeof(made_thread.name), "%s", name);
	made_thread.id = 100 + (u32)made;
	ex_log("thread_create(%s)", name);
	return &made_thread;
}

void wait_queue_init(struct wait_queue *wq)
{
	ex_point1(wq, EX_WRITE, NULL, NULL);
	if (wq == &it.wq && made)
		ex_fail("%s re-initialises the wait queue that %s, made by %s, sleeps on",
			ex_thread_name(ex_self()), made_thread.name, ex_thread_name(maker));
	INIT_LIST_HEAD(&wq->head);
	ex_log("wait_queue_init(the line's queue)");
}

/* The made thread's loop (irq_thread_fn) and irq_thread_wake() are
 * compiled but never run here: no interrupt comes. */
static void never(const char *what)
{
	ex_fail("%s: the explorer runs no IRQ thread and raises no interrupt", what);
	ex_thread_abort();
}

void prepare_to_wait(struct wait_queue *wq, struct waiter *w)
{
	(void)wq;
	(void)w;
	never("prepare_to_wait()");
}

void finish_wait(struct wait_queue *wq, struct waiter *w)
{
	(void)wq;
	(void)w;
	never("finish_wait()");
}

int wake_up_one(struct wait_queue *wq)
{
	(void)wq;
	never("wake_up_one()");
	return 0;
}
