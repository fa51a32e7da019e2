/* The FIFO band's policy: changing a thread's priority (Linux's
 * sched_setscheduler(), kernel/sched/syscalls.c, and rt_mutex_setprio(),
 * the same for a priority-inheritance boost), and throttling user
 * FIFO threads so that one spinning at priority 99 cannot take a CPU from
 * the shell for ever.
 *
 * Throttling follows Linux's defaults, sched_rt_period_us = 1000000 and
 * sched_rt_runtime_us = 950000 (Documentation/scheduler/sched-rt-group.rst):
 * in each second, FIFO threads of user processes may run for 95% of the
 * ticks; once they have, pick_next() passes over them until the second
 * ends, and the other 5% go to normal threads (or idle). fold's own kernel
 * FIFO threads (the benchmarks' measuring threads) are never throttled:
 * they sleep between short bursts, and a throttle would distort what they
 * measure. Time is counted in ticks, as scheduler_tick() sees it.
 *
 * A tick is charged to the FIFO band when the thread it interrupts is a
 * user FIFO thread, or was one at any moment since the tick before: a
 * running thread's change of policy records the band it leaves
 * (ran_bands), much as Linux charges RT runtime in update_curr_rt() when
 * a task leaves the class. So a program that flips between SCHED_FIFO and
 * SCHED_OTHER faster than the tick is charged for every tick it runs and
 * throttled as a FIFO spinner is; counting only what it was at the tick
 * let it keep a CPU for ever. Nor does a change of policy hand out a fresh
 * round-robin slice: each tick in which the thread was normal at any
 * moment spends it, and a thread that drops back to normal with its slice
 * spent gives way to a waiting one (Linux's switched_to_fair() kicks the
 * running task the same way). */
#include "sched/rq.h"
#include "kernel/time/hrtimer.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/trace/trace.h"
#include "uapi/errno.h"

#define RT_RUNTIME_PERMILLE 950

void rt_tick(struct rq *rq, struct thread *curr, u32 cpu)
{
	u32 period = tick_hz_param; /* one second of ticks */
	if (curr != rq->idle && (tick_bands(curr) & RAN_FIFO) && curr->mm) {
		rq->rt_ticks++;
		this_cpu_stat_inc(rt_ticks);
	}
	curr->ran_bands = 0;
	if (++rq->rt_period_ticks >= period) {
		rq->rt_period_ticks = 0;
		rq->rt_ticks = 0;
		if (rq->rt_throttled) {
			rq->rt_throttled = false;
			if (!list_empty(&rq->fifo))
				resched_curr(cpu); /* a held-back FIFO thread may outrank curr */
		}
		return;
	}
	if (!rq->rt_throttled && rq->rt_ticks >= (u64)period * RT_RUNTIME_PERMILLE / 1000) {
		rq->rt_throttled = true;
		this_cpu_stat_inc(rt_throttled);
		if (rt_throttled(rq, curr))
			resched_curr(cpu);
	}
}

/* t's run queue, locked (t may move between CPUs until we hold it). */
static struct rq *lock_task_rq(struct thread *t)
{
	for (;;) {
		u32 cpu = (u32)READ_ONCE(t->cpu);
		struct rq *rq = &rqs[cpu];
		raw_spin_lock(&rq->lock);
		if ((u32)t->cpu == cpu)
			return rq;
		raw_spin_unlock(&rq->lock);
	}
}

int sched_setscheduler(struct thread *t, int prio)
{
	if (prio < PRIO_NORMAL || prio > 99)
		return -EINVAL;
	rt_mutex_adjust_pi(t, prio); /* it calls rt_mutex_setprio() */
	return 0;
}

void rt_mutex_setprio(struct thread *t, int prio)
{
	u64 f = local_irq_save();
	struct rq *rq = lock_task_rq(t);
	u32 cpu = (u32)t->cpu;
	int old = t->prio;
	/* Linux's event, for every change of the effective priority made
	 * here: a boost, its end, and sched_setscheduler()'s. */
	if (prio != old)
		trace_event(sched_pi_setprio, t, prio);
	/* On a run queue's list: on the run queue and not the one running,
	 * whatever its state. A thread preempted between setting
	 * THREAD_SLEEPING and calling schedule() is on the list too: a
	 * preemption never takes a thread off the run queue (__schedule()). */
	bool queued = t->on_rq && rq->curr != t;
	if (queued)
		dequeue(rq, t);
	t->prio = prio;
	if (rq->curr == t) /* the tick charges the band it ran in until now */
		t->ran_bands |= old > PRIO_NORMAL ? RAN_FIFO : RAN_NORMAL;
	if (queued) {
		enqueue(rq, t, false); /* Linux: a changed priority goes to the tail */
		if (rq->curr == rq->idle || prio > rq->curr->prio)
			resched_curr(cpu);
	} else if (rq->curr == t && prio < old) {
		/* Lowered while it runs: a queued thread may outrank it now. */
		struct thread *next = rq_first_queued(rq);
		if (next && next->prio > prio)
			resched_curr(cpu);
		else if (next && prio == PRIO_NORMAL && t->slice <= 0)
			resched_curr_lazy(cpu); /* back to normal with its slice spent */
	} else if (rq->curr == t && rt_throttled(rq, t)) {
		resched_curr(cpu); /* raised on a throttled rq: pick_next() passes it over */
	}
	raw_spin_unlock(&rq->lock);
	local_irq_restore(f);
}
