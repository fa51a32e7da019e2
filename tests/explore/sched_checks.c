/* The rules the scenarios over the real scheduler keep
 * (tests/explore/sched_scenarios.c; tests/explore/INVARIANTS.md states
 * them, with their sources), checked after every step:
 *   one CPU       no thread is current on two CPUs
 *   queued        a thread is on a run queue's list exactly when it is
 *                 on_rq and not its CPU's current thread
 *   outranks      at a quiescent point, a CPU with no reschedule pending
 *                 runs a thread of at least the priority of each it has
 *                 queued (a request served or never needed)
 * and, where no ticket lock is held, for the rt_mutexes:
 *   waiters bit   set in the owner word exactly when there are waiters
 *   PI            each thread runs at the higher of its own priority and
 *                 its top waiter's on every lock it owns
 * and after every step:
 *   mutual exclusion  nobody enters an rt_mutex's (or S's) section
 *                 while another is inside (sched_scenarios.c's enter())
 *   waiter order  each lock's waiters by priority, highest first
 *   FIFO          waiters of one priority in the order they queued
 *   handoff       a lock released to its top waiter (owner word: the
 *                 waiters bit alone) is next owned by that waiter or by
 *                 a thread that outranks it, never by a newcomer of
 *                 lower or equal priority
 * and at the end: every thread finished (no lost wake-up), a device
 * line started by irq_thread_start() with one thread, and a cycle with
 * exactly the -EDEADLK returns and reports the scenario expects. */
#include "tests/explore/sched_checks.h"
#include "tests/explore/sched_scenarios.h"
#include "tests/explore/explore.h"
#include "tests/explore/hw_sched.h"
#include "kernel/preempt.h"
#include "kernel/locking/rtmutex.h"
#include "sched/rq.h"

#include <stdio.h>
#include <string.h>

static char why[256];
/* FIFO's bookkeeping: when each thread's waiter was first seen queued
 * on each lock at its priority (0: not queued). */
static unsigned seen_at[SCHED_NALL][EX_MAX_THREADS], seen_clock;
static int seen_prio[SCHED_NALL][EX_MAX_THREADS];
static struct thread *handed_to[SCHED_NALL];     /* the top waiter a release woke */

void sched_checks_reset(void)
{
	memset(seen_at, 0, sizeof(seen_at));
	seen_clock = 0;
	memset(handed_to, 0, sizeof(handed_to));
}

static bool rq_locked(int c)
{
	return rqs[c].lock.next != rqs[c].lock.serving;
}

static bool on_a_list(const struct thread *t, int c)
{
	struct thread *it;
	list_for_each_entry(it, &rqs[c].fifo, rq_node)
		if (it == t)
			return true;
	list_for_each_entry(it, &rqs[c].normal, rq_node)
		if (it == t)
			return true;
	return false;
}

static int index_of(const struct thread *t)
{
	return (int)(t - sched_th);
}

/* The waiter order and FIFO among equals, after every step: each list
 * operation of rtmutex.c is within one step. */
static const char *check_fifo(void)
{
	for (int l = 0; l < SCHED_NALL; l++) {
		struct rt_mutex *m = sched_lock(l);
		bool queued[EX_MAX_THREADS] = { false };
		struct rt_mutex_waiter *w, *prev = NULL;
		list_for_each_entry(w, &m->waiters, node) {
			int i = index_of(w->task);
			queued[i] = true;
			if (!seen_at[l][i] || seen_prio[l][i] != w->prio) {
				seen_at[l][i] = ++seen_clock;
				seen_prio[l][i] = w->prio;
			}
			if (prev && prev->prio < w->prio) {
				snprintf(why, sizeof(why), "waiter order: %s waits on %s at prio %d "
					 "behind %s of prio %d", w->task->name, m->name, w->prio,
					 prev->task->name, prev->prio);
				return why;
			}
			if (prev && prev->prio == w->prio &&
			    seen_at[l][index_of(prev->task)] > seen_at[l][i]) {
				snprintf(why, sizeof(why), "FIFO: %s waits on %s ahead of %s, of the "
					 "same priority %d, which queued first", prev->task->name,
					 m->name, w->task->name, w->prio);
				return why;
			}
			prev = w;
		}
		for (int i = 0; i < EX_MAX_THREADS; i++)
			if (!queued[i])
				seen_at[l][i] = 0;
	}
	return NULL;
}

/* The rt_mutex rules, where no ticket lock is held (rt_mutex_pi_lock's
 * sections and the run queues' all ended). */
static const char *check_rt_mutexes(void)
{
	for (int l = 0; l < SCHED_NALL; l++) {
		struct rt_mutex *m = sched_lock(l);
		bool bit = m->owner & RT_MUTEX_HAS_WAITERS, any = !list_empty(&m->waiters);
		if (bit != any) {
			snprintf(why, sizeof(why), "waiters bit: %s's owner word %s the bit with %s",
				 m->name, bit ? "has" : "lacks", any ? "waiters" : "no waiters");
			return why;
		}
	}
	for (int i = 0; i < sched_cur->nthreads; i++) {
		if (sched_is_idle(i) || sched_is_timer(i) || sched_exited[i])
			continue;
		const struct thread *t = &sched_th[i];
		int want = t->normal_prio;
		for (int l = 0; l < SCHED_NALL; l++) {
			struct rt_mutex_waiter *w;
			if (rt_mutex_owner(sched_lock(l)) == t)
				list_for_each_entry(w, &sched_lock(l)->waiters, node)
					want = w->task->prio > want ? w->task->prio : want;
		}
		if (t->prio != want) {
			snprintf(why, sizeof(why), "PI: %s runs at prio %d, but its own priority "
				 "and its waiters' give %d", t->name, t->prio, want);
			return why;
		}
	}
	return NULL;
}

static const char *check_handoff(void)
{
	for (int l = 0; l < SCHED_NALL; l++) {
		struct rt_mutex *m = sched_lock(l);
		struct thread *o = rt_mutex_owner(m), *h = handed_to[l];
		if (!o && (m->owner & RT_MUTEX_HAS_WAITERS) && !list_empty(&m->waiters) && !h)
			handed_to[l] = list_first_entry(&m->waiters, struct rt_mutex_waiter,
							node)->task;
		if (!o || !h)
			continue;
		handed_to[l] = NULL;
		if (o != h && o->prio <= h->prio) {
			snprintf(why, sizeof(why), "handoff: %s (prio %d) takes %s, released to "
				 "its top waiter %s (prio %d)", o->name, o->prio, m->name, h->name,
				 h->prio);
			return why;
		}
	}
	return NULL;
}

const char *sched_check_step(void)
{
	int ncpus = hw_cpus();
	/* Tracked at every step, reported after the other rules. */
	const char *handoff = check_handoff(), *bad = check_fifo();
	if (bad)
		return bad;
	for (int c = 0; c < ncpus; c++)
		for (int d = c + 1; d < ncpus; d++)
			if (rqs[c].curr == rqs[d].curr) {
				snprintf(why, sizeof(why), "one CPU: %s is current on CPUs %d and %d",
					 rqs[c].curr->name, c, d);
				return why;
			}
	for (int c = 0; c < ncpus; c++)
		if (rq_locked(c))
			return handoff;
	if (!hw_ticket_locks_held()) {
		bad = check_rt_mutexes();
		if (bad)
			return bad;
	}
	for (int i = 0; i < sched_cur->nthreads; i++) {
		if (sched_is_idle(i) || sched_is_timer(i) || sched_exited[i])
			continue;
		const struct thread *t = &sched_th[i];
		bool listed = false;
		int running = -1; /* the CPU it is current on, if any */
		for (int c = 0; c < ncpus; c++) {
			listed |= on_a_list(t, c);
			if (rqs[c].curr == t)
				running = c;
		}
		bool want = t->on_rq && running < 0;
		if (listed != want) {
			snprintf(why, sizeof(why), "queued: %s is %son a run queue, on_rq %d, "
				 "%s %d", t->name, listed ? "" : "not ", t->on_rq,
				 running < 0 ? "current nowhere, its CPU" : "current on CPU",
				 running < 0 ? t->cpu : running);
			return why;
		}
	}
	for (int c = 0; c < ncpus; c++) {
		struct rq *rq = &rqs[c];
		struct thread *curr = rq->curr, *first = rq_first_queued(rq);
		if (!first || (curr->flags & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)))
			continue;
		int cp = curr == rq->idle ? -1 : curr->prio;
		if (first->prio > cp && curr->state == THREAD_RUNNING) {
			snprintf(why, sizeof(why), "outranks: CPU %d runs %s (prio %d) with %s "
				 "(prio %d) queued and no reschedule pending: a lost reschedule",
				 c, curr->name, cp, first->name, first->prio);
			return why;
		}
	}
	return handoff;
}

const char *sched_check_end(void)
{
	/* First: a cycle not detected leaves its threads asleep for ever,
	 * which the next rule would call a lost wake-up. */
	int want = SC_EDEADLK_OF(sched_cur->arg), reports = 0;
	for (int i = 0; i < sched_cur->nthreads; i++)
		reports += report_deadlocks[i];
	if (sched_edeadlk != want || reports != want) {
		snprintf(why, sizeof(why), "%d -EDEADLK returns and %d reports, expected %d",
			 sched_edeadlk, reports, want);
		return why;
	}
	why[0] = 0;
	for (int i = 0; i < sched_cur->nthreads; i++) {
		if (sched_is_idle(i) || sched_is_timer(i) || sched_exited[i] ||
		    strstr(sched_cur->threads[i].prog, " i"))
			continue;
		size_t len = strlen(why);
		snprintf(why + len, sizeof(why) - len, "%s%s never finishes (state %d, on_rq %d)",
			 len ? "; " : "", sched_th[i].name, sched_th[i].state, sched_th[i].on_rq);
	}
	if (why[0]) {
		size_t len = strlen(why);
		snprintf(why + len, sizeof(why) - len, ": a lost wake-up");
		return why;
	}
	bool loops = false;
	for (int i = 0; i < sched_cur->nthreads; i++)
		loops |= strstr(sched_cur->threads[i].prog, " i") != NULL;
	if (loops && (sched_line_lost() || !sched_line_runs())) {
		snprintf(why, sizeof(why), "a lost interrupt: the line's work ran %u times, and "
			 "its pending word is %s with its thread asleep", sched_line_runs(),
			 sched_line_lost() ? "set" : "clear");
		return why;
	}
	bool starts = false;
	for (int i = 0; i < sched_cur->nthreads; i++)
		starts |= strchr(sched_cur->threads[i].prog, 'I') != NULL;
	if (starts && sched_irq_threads_made() != 1) {
		snprintf(why, sizeof(why), "%d threads made for the line, expected 1",
			 sched_irq_threads_made());
		return why;
	}
	return NULL;
}
