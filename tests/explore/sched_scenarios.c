/* Scenarios over the real scheduler (sched/ on tests/explore/hw.c's
 * CPUs): kernel threads, each a script, placed on CPUs (the first on a
 * CPU runs there, the others wait on its run queue), an idle thread per
 * CPU running the real cpu_idle(), and a timer that sends ticks. The
 * invariants (tests/explore/INVARIANTS.md states them, with their
 * sources) are checked after every step:
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
 *   FIFO          waiters of one priority in the order they queued
 *   handoff       a lock released to its top waiter (owner word: the
 *                 waiters bit alone) is next owned by that waiter or by
 *                 a thread that outranks it, never by a newcomer of
 *                 lower or equal priority
 * and at the end: every thread finished (no lost wake-up). */
#include "tests/explore/sched_scenarios.h"
#include "tests/explore/explore.h"
#include "tests/explore/hw_sched.h"
#include "kernel/preempt.h"
#include "kernel/locking/rtmutex.h"
#include "sched/rq.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"

#include <stdio.h>
#include <string.h>

static struct thread th[EX_MAX_THREADS];
static bool queued_at_start[EX_MAX_THREADS], exited[EX_MAX_THREADS];
static struct wait_queue wq;
static struct mutex M;
static struct completion done;
static struct rt_mutex L[2];
/* FIFO's bookkeeping: when each thread's waiter was first seen queued
 * on each lock at its priority (0: not queued). */
static unsigned seen_at[2][EX_MAX_THREADS], seen_clock;
static int seen_prio[2][EX_MAX_THREADS];
static struct thread *handed_to[2];     /* the top waiter a release woke */
static volatile int flag[4];
static const struct ex_scenario *cur;
static char why[256];

/* A thread's placement and kind: its script's first word. "@1" CPU 1
 * (default 0), "@1m" may run on every CPU; "idle" the CPU's idle
 * thread (in CPU order); "timer" no kernel thread: it sends ticks. */
static int cpu_of(const char *prog)
{
	return prog[0] == '@' ? prog[1] - '0' : 0;
}

static bool is_idle(int i) { return !strcmp(cur->threads[i].prog, "idle"); }
static bool is_timer(int i) { return !strncmp(cur->threads[i].prog, "timer", 5); }

static void reset(const struct ex_scenario *sc)
{
	cur = sc;
	int ncpus = 0;
	for (int i = 0; i < sc->nthreads; i++)
		ncpus += is_idle(i);
	hw_reset(ncpus);
	preempt_mode = sc->arg & SC_LAZY ? PREEMPT_MODE_LAZY : PREEMPT_MODE_FULL;
	idle_poll = sc->arg & SC_POLL;
	memset(rqs, 0, sizeof(rqs));
	for (int c = 0; c < ncpus; c++)
		sched_prepare_cpu((u32)c);
	sched_running = true;
	wait_queue_init(&wq);
	rt_mutex_init(&L[0], "L0");
	rt_mutex_init(&L[1], "L1");
	mutex_init(&M);
	init_completion(&done);
	memset(seen_at, 0, sizeof(seen_at));
	seen_clock = 0;
	handed_to[0] = handed_to[1] = NULL;
	memset((void *)flag, 0, sizeof(flag));
	memset(exited, 0, sizeof(exited));
	int idle = 0;
	for (int i = 0; i < sc->nthreads; i++) {
		const char *prog = sc->threads[i].prog;
		queued_at_start[i] = false;
		if (is_timer(i)) {
			hw_bind(i, NULL, 0);
			continue;
		}
		if (is_idle(i)) {
			struct rq *rq = &rqs[idle];
			hw_bind(i, rq->idle, idle);
			queued_at_start[i] = rq->curr != rq->idle;
			if (!queued_at_start[i]) { /* no thread placed before it */
				hw_set_context(idle, i);
				rq->idle->on_cpu = 1;
			}
			idle++;
			continue;
		}
		struct thread *t = &th[i];
		int c = cpu_of(prog);
		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", sc->threads[i].name);
		t->prio = t->normal_prio = sc->threads[i].prio;
		t->state = t->saved_state = THREAD_RUNNING;
		t->cpu = c;
		t->migratory = prog[0] == '@' && prog[2] == 'm';
		t->allowed_cpus = t->migratory ? ALL_CPUS : 1UL << c;
		t->slice = SCHED_SLICE_TICKS;
		t->usage = 1;
		INIT_LIST_HEAD(&t->pi_locks);
		INIT_LIST_HEAD(&t->rq_node);
		hw_bind(i, t, c);
		struct rq *rq = &rqs[c];
		if (rq->curr == rq->idle) {
			rq->curr = t;
			t->on_rq = t->on_cpu = 1;
			hw_set_context(c, i);
		} else {
			enqueue(rq, t, false);
			queued_at_start[i] = true;
		}
	}
}

/* ---- the scripts ----
 * w1 wait_event() until flag 1; s1 set flag 1, then wake_up_all();
 * k2 wake_up_thread(thread 2) after flag 3; y yield(); L0/U0
 * rt_mutex_lock/unlock(L0); p2=40 rt_mutex_adjust_pi(thread 2, 40);
 * t1 a tick to CPU 1 (the timer); r1 resched_curr(1); n1 a lazy
 * request to CPU 1 (resched_curr_lazy); P preempt_disable() ... E
 * preempt_enable(); f2 set flag 2 only; h1 block, handing the CPU to
 * thread 1 (sched_handoff(), else wake it), until flag 2 (then k0 from
 * another thread ends the wait); M/m mutex_lock/unlock (sched/wait.c);
 * c complete(), C wait_for_completion(). */

static void set_flag(int n)
{
	ex_point1((const void *)&flag[n], EX_WRITE, NULL, NULL);
	flag[n] = 1;
	ex_log("flag %d = 1", n);
}

/* wait_event()'s condition: a point, the read another CPU races. */
static bool flag_set(int n)
{
	ex_point1((const void *)&flag[n], EX_READ, NULL, NULL);
	return flag[n] != 0;
}

static void run_script(int self)
{
	if (is_idle(self)) {
		if (queued_at_start[self]) /* not current at the start: switched to */
			hw_first_switch_in();
		ex_activity("cpu_idle()");
		cpu_idle();
	}
	const char *p = cur->threads[self].prog;
	if (*p == '@')
		p += p[2] == 'm' ? 3 : 2;
	if (is_timer(self))
		p += 5;
	else if (queued_at_start[self])
		hw_first_switch_in();
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		char op = *p++;
		int n = 0, v = 0;
		while (*p >= '0' && *p <= '9')
			n = n * 10 + (*p++ - '0');
		if (*p == '=')
			for (p++; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
		switch (op) {
		case 'w':
			ex_activity("wait_event(flag %d)", n);
			wait_event(&wq, flag_set(n));
			break;
		case 's':
			ex_activity("flag %d, wake_up_all()", n);
			set_flag(n);
			wake_up_all(&wq);
			break;
		case 'k':
			ex_activity("wake_up_thread(%s)", th[n].name);
			wake_up_thread(&th[n]);
			break;
		case 'f':
			ex_activity("flag %d", n);
			set_flag(n);
			break;
		case 'h':
			ex_activity("hand off to %s until flag 2", th[n].name);
			for (;;) {
				__atomic_store_n(&th[self].state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
				if (flag_set(2))
					break;
				if (!sched_handoff(&th[n])) {
					wake_up_thread(&th[n]);
					schedule();
				}
			}
			__atomic_store_n(&th[self].state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
			wake_up_thread(&th[n]); /* if the flag came first: no handoff */
			break;
		case 'M':
			ex_activity("mutex_lock(M)");
			mutex_lock(&M);
			break;
		case 'm':
			ex_activity("mutex_unlock(M)");
			mutex_unlock(&M);
			break;
		case 'c':
			ex_activity("complete()");
			complete(&done);
			break;
		case 'C':
			ex_activity("wait_for_completion()");
			wait_for_completion(&done);
			break;
		case 'y':
			ex_activity("yield()");
			yield();
			break;
		case 'L':
			ex_activity("rt_mutex_lock(%s)", L[n].name);
			rt_mutex_lock(&L[n]);
			break;
		case 'U':
			ex_activity("rt_mutex_unlock(%s)", L[n].name);
			rt_mutex_unlock(&L[n]);
			break;
		case 'p':
			ex_activity("rt_mutex_adjust_pi(%s, %d)", th[n].name, v);
			rt_mutex_adjust_pi(&th[n], v);
			break;
		case 't':
			ex_activity("the tick");
			hw_send_irq((u32)n, HW_IRQ_TICK);
			break;
		case 'r':
			ex_activity("resched_curr(%d)", n);
			resched_curr((u32)n);
			break;
		case 'n':
			ex_activity("resched_curr_lazy(%d)", n);
			resched_curr_lazy((u32)n);
			break;
		case 'P':
			ex_activity("preempt_disable()");
			preempt_disable();
			break;
		case 'E':
			ex_activity("preempt_enable()");
			preempt_enable();
			break;
		}
	}
	if (is_timer(self))
		return;
	ex_activity("exits");
	exited[self] = true;
	__atomic_store_n(&th[self].state, THREAD_DEAD, __ATOMIC_SEQ_CST);
	schedule();
	ex_fail("%s runs after its exit", th[self].name);
	ex_thread_abort();
}

/* ---- the invariants ---- */

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
	return (int)(t - th);
}

/* FIFO among equals, after every step: each list operation of
 * rtmutex.c is within one step. */
static const char *check_fifo(void)
{
	for (int l = 0; l < 2; l++) {
		struct rt_mutex *m = &L[l];
		bool queued[EX_MAX_THREADS] = { false };
		struct rt_mutex_waiter *w, *prev = NULL;
		list_for_each_entry(w, &m->waiters, node) {
			int i = index_of(w->task);
			queued[i] = true;
			if (!seen_at[l][i] || seen_prio[l][i] != w->prio) {
				seen_at[l][i] = ++seen_clock;
				seen_prio[l][i] = w->prio;
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
	for (int l = 0; l < 2; l++) {
		struct rt_mutex *m = &L[l];
		bool bit = m->owner & RT_MUTEX_HAS_WAITERS, any = !list_empty(&m->waiters);
		if (bit != any) {
			snprintf(why, sizeof(why), "waiters bit: %s's owner word %s the bit with %s",
				 m->name, bit ? "has" : "lacks", any ? "waiters" : "no waiters");
			return why;
		}
	}
	for (int i = 0; i < cur->nthreads; i++) {
		if (is_idle(i) || is_timer(i) || exited[i])
			continue;
		const struct thread *t = &th[i];
		int want = t->normal_prio;
		for (int l = 0; l < 2; l++) {
			struct rt_mutex_waiter *w;
			if (rt_mutex_owner(&L[l]) == t)
				list_for_each_entry(w, &L[l].waiters, node)
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
	for (int l = 0; l < 2; l++) {
		struct rt_mutex *m = &L[l];
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

static const char *check_step(void)
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
	for (int i = 0; i < cur->nthreads; i++) {
		if (is_idle(i) || is_timer(i) || exited[i])
			continue;
		const struct thread *t = &th[i];
		bool listed = false;
		for (int c = 0; c < ncpus; c++)
			listed |= on_a_list(t, c);
		bool want = t->on_rq && rqs[t->cpu].curr != t;
		if (listed != want) {
			snprintf(why, sizeof(why), "queued: %s is %son a run queue, on_rq %d, "
				 "current on CPU %d: %s", t->name, listed ? "" : "not ", t->on_rq,
				 t->cpu, rqs[t->cpu].curr->name);
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

static const char *check_end(void)
{
	why[0] = 0;
	for (int i = 0; i < cur->nthreads; i++) {
		if (is_idle(i) || is_timer(i) || exited[i])
			continue;
		size_t len = strlen(why);
		snprintf(why + len, sizeof(why) - len, "%s%s never finishes (state %d, on_rq %d)",
			 len ? "; " : "", th[i].name, th[i].state, th[i].on_rq);
	}
	if (why[0]) {
		size_t len = strlen(why);
		snprintf(why + len, sizeof(why) - len, ": a lost wake-up");
		return why;
	}
	return NULL;
}

#define T(n, p, s) { n, p, run_script, s }
#define IDLE(n) { n, -1, run_script, "idle" }
#define SCENARIO(nm, w, q, a, ...) {                                          \
	.name = nm, .what = w, .quick = q, .arg = a,                          \
	.nthreads = sizeof((struct ex_thread_def[]){ __VA_ARGS__ }) /          \
		    sizeof(struct ex_thread_def),                              \
	.threads = { __VA_ARGS__ }, .reset = reset,                            \
	.check_step = check_step, .check_end = check_end,                      \
	.may_run = hw_may_run, .extra = hw_extra, .resume = hw_take_interrupt }

const struct ex_scenario sched_scenarios[] = {
	SCENARIO("lost-wakeup", "a wake-up on CPU 1 races W's wait_event() on CPU 0", true, 0,
		 T("W", 0, "@0 w0"), T("S", 0, "@1 s0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("wake-fifo", "a FIFO thread woken where a normal one runs preempts it", true, 0,
		 T("W", 10, "@0 w0"), T("N", 0, "@0 y"), T("S", 0, "@1 s0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("poll-idle", "resched_curr() of a polling idle CPU: the flag, no IPI", true,
		 SC_POLL, T("W", 5, "@1 w0"), T("S", 0, "@0 s0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("full-tick", "a full request and the tick on a CPU with preemption off", false,
		 0, T("A", 0, "@0 P E"), T("R", 0, "@1 r0"), T("timer", 0, "timer t0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("lazy-tick", "a lazy request, promoted by the tick (preempt=lazy)", true,
		 SC_LAZY, T("A", 0, "@0 y"), T("B", 0, "@0"), T("R", 0, "@1 n0"),
		 T("timer", 0, "timer t0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("boost-remote", "W on CPU 1 boosts O, the owner running on CPU 0", false, 0,
		 T("O", 1, "@0 L0 s0 w1 U0"), T("W", 20, "@1 w0 s1 L0 U0"), IDLE("idle/0"),
		 IDLE("idle/1")),
	SCENARIO("waiter-lowered", "W, blocked on O's lock, lowered by P: O's boost drops",
		 false, 0, T("P", 50, "@0 w0 p2=5 s1"), T("O", 1, "@1 L0 s0 w1 U0"),
		 T("W", 20, "@0 L0 U0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("handoff-wake", "A hands CPU 0 to B (sched_handoff) as C wakes A from CPU 1",
		 true, 0, T("B", 0, "@0 w0"), T("A", 0, "@0 f0 h0"), T("C", 0, "@1 f2 k1"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("mutex", "two CPUs contend for a sleeping mutex (sched/wait.c)", true, 0,
		 T("A", 0, "@0 M m"), T("B", 0, "@1 M m"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("completion", "complete() on CPU 1 races wait_for_completion() on CPU 0", true,
		 0, T("W", 0, "@0 C"), T("S", 0, "@1 c"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("setprio-queued", "P raises N, queued behind A on CPU 0: a remote reschedule",
		 true, 0, T("A", 10, "@0 w0"), T("N", 0, "@0"), T("P", 50, "@1 p1=40 s0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("yield-tick", "two normal threads yield while ticks come", true, 0,
		 T("A", 0, "@0 y"), T("B", 0, "@0 y"), T("timer", 0, "timer t0 t0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("rt-equal", "two waiters of equal priority: FIFO among equals", false, 0,
		 T("O", 1, "@0 L0 s0 U0"), T("A", 10, "@1 w0 L0 U0"), T("B", 10, "@1 w0 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("chain", "a chain: A waits on L1 (B's), B on L0 (O's), O boosted to 30",
		 false, 0, T("B", 5, "@0 L1 s1 w0 L0 U0 U1"), T("O", 1, "@0 L0 s0 U0"),
		 T("A", 30, "@1 w1 L1 U1"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("two", "two threads contend for one rt_mutex", true, 0,
		 T("A", 10, "@0 L0 U0"), T("B", 20, "@1 L0 U0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("steal", "a woken waiter's lock taken first by a higher priority", false, 0,
		 T("H", 30, "@1 w0 L0 U0"), T("O", 1, "@0 L0 s0 U0"), T("W", 10, "@1 w0 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("setprio-woken", "rt_mutex_adjust_pi() of a thread being woken", true, 0,
		 T("W", 5, "@0 w0"), T("S", 0, "@1 s0"), T("P", 50, "@2 p0=40"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
};
const int sched_nscenarios = sizeof(sched_scenarios) / sizeof(sched_scenarios[0]);
