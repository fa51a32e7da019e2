/* The run queue, shared by the scheduler's files (sched/core.c: the
 * switch; sched/wake.c: wake-ups, the tick, idle pulling). Not for use
 * outside sched/. */
#ifndef FOLD_SCHED_RQ_H
#define FOLD_SCHED_RQ_H
#include "sched/sched.h"
#include "kernel/spinlock.h"
#include "lib/list.h"

struct rq {
	struct spinlock lock;
	struct list_head fifo;     /* prio 1..99, highest first, FIFO within */
	struct list_head normal;   /* prio 0, round-robin */
	u32 nr_queued;             /* in the two lists (curr is not) */
	struct thread *curr;
	struct thread *idle;
};

extern struct rq rqs[MAX_CPUS];

/* Put t on rq: FIFO threads by priority (at the head of their priority
 * when head is set: a preempted FIFO thread runs next), normal threads
 * at the tail (or head). */
void enqueue(struct rq *rq, struct thread *t, bool head);

/* The second half of a switch, on the thread switched to (sched/core.c). */
void finish_switch(struct thread *prev);

static inline void dequeue(struct rq *rq, struct thread *t)
{
	list_del_init(&t->rq_node);
	rq->nr_queued--;
}
#endif
