/* The run queue, shared by the scheduler's files (sched/core.c: the
 * switch; sched/wake.c: wake-ups, the tick, idle pulling). Not for use
 * outside sched/. */
#ifndef FOLD_SCHED_RQ_H
#define FOLD_SCHED_RQ_H
#include "sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "lib/list.h"

struct rq {
	raw_spinlock_t lock;       /* raw: the scheduler itself, IRQs off */
	struct list_head fifo;     /* prio 1..99, highest first, FIFO within */
	struct list_head normal;   /* prio 0, round-robin */
	u32 nr_queued;             /* in the two lists (curr is not) */
	/* Some queued thread may run on another CPU: set by enqueue(),
	 * cleared by an idle CPU's sched_pull_work() that finds none. */
	u8 migratory_queued;
	struct thread *curr;
	struct thread *idle;
	/* sched/rt.c: user FIFO time in this period of one second. */
	u32 rt_ticks;              /* ticks a user FIFO thread was current */
	u32 rt_period_ticks;       /* ticks into the period */
	bool rt_throttled;         /* user FIFO threads wait for the next period */
};

extern struct rq rqs[MAX_CPUS];

/* This CPU's run queue: one %gs load of the pointer sched_prepare_cpu()
 * left in the per-CPU area, where &rqs[raw_smp_processor_id()] is a load
 * and an index computation (the IPC fast path counts both). */
static __always_inline struct rq *this_rq(void)
{
	return (struct rq *)this_cpu_read(rq);
}

/* Put t on rq: FIFO threads by priority (at the head of their priority
 * when head is set: a preempted FIFO thread runs next), normal threads
 * at the tail (or head). */
void enqueue(struct rq *rq, struct thread *t, bool head);

/* The thread pick_next() would take from rq (the first FIFO thread not
 * throttled, else the first normal one), left queued; NULL if none. */
struct thread *rq_first_queued(struct rq *rq);

/* Switch this CPU from prev to next (sched/core.c), with rq->lock held,
 * IRQs off and the count at SWITCH_PREEMPT_COUNT; next is off the queue.
 * Returns when prev runs again, the lock released and IRQs on. */
void context_switch(struct rq *rq, struct thread *prev, struct thread *next);

/* context_switch() in its three steps, for a switch that changes stacks
 * its own way (sched_handoff_prepare(), for the IPC fast path):
 * switch_prepare() and finish_switch_irqs_off(), inline in
 * sched/context_switch.h. */

/* A thread's bands, for the tick: what it ran as since the last tick. */
#define RAN_NORMAL 1
#define RAN_FIFO 2

/* The bands curr ran in during the tick now ending: the one it is in, and
 * each it left since the tick last accounted it (rt_mutex_setprio()
 * records those). A thread that changes its policy between ticks spent
 * time in both: the tick charges both its slice and the FIFO budget. */
static inline u32 tick_bands(const struct thread *curr)
{
	return curr->ran_bands | (curr->prio > PRIO_NORMAL ? RAN_FIFO : RAN_NORMAL);
}

/* sched/rt.c, from scheduler_tick() with rq->lock held, after the slice:
 * account the tick to the FIFO band, start or end throttling, and clear
 * curr->ran_bands (the tick has accounted them). */
void rt_tick(struct rq *rq, struct thread *curr, u32 cpu);

/* May pick_next() not run t now? A user FIFO thread on a throttled rq. */
static inline bool rt_throttled(const struct rq *rq, const struct thread *t)
{
	return rq->rt_throttled && t->prio > PRIO_NORMAL && t->mm;
}

static inline void dequeue(struct rq *rq, struct thread *t)
{
	list_del_init(&t->rq_node);
	rq->nr_queued--;
}
#endif
