/* Part A's front end over the scheduler shim (tests/explore/shim.c):
 * the one scenario of threads that call the real kernel/locking/
 * rtmutex.c that has not moved to the real scheduler yet (owner-exits:
 * a thread's exit and free; the others run in sched_scenarios.c), each
 * thread a script of lock,
 * unlock, trylock and sched_setscheduler() calls, and the invariants
 * checked after every step of every interleaving:
 *   mutual exclusion   at most one thread inside each lock
 *   waiter order       each lock's waiters by prio, highest first, each
 *                      queued at its task's priority when quiescent
 *   PI                 at a quiescent point (no thread holds
 *                      rt_mutex_pi_lock): each thread's prio is the max of
 *                      its normal_prio and the priority of every thread
 *                      waiting on a lock it owns; pi_blocked_on and the
 *                      pi_locks lists agree with the waiter lists
 *   the end            no thread asleep with nobody left to wake it: every
 *                      thread finishes, and a cycle ends in exactly the
 *                      -EDEADLK reports expected. */
#include "tests/explore/rtmutex_scenarios.h"
#include "tests/explore/explore.h"
#include "tests/explore/shim.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/spinlock.h"
#include "sched/sched.h"

#include <stdio.h>
#include <string.h>

#define NLOCKS 3
#define NALL (NLOCKS + 1)  /* the scripts' locks and S's */

static struct thread th[EX_MAX_THREADS];
static struct thread *thp[EX_MAX_THREADS];
static struct rt_mutex L[NLOCKS];
static spinlock_t S;                     /* a PREEMPT_RT spinlock_t */
static struct rt_mutex *all_locks[NALL];
static int inside[NLOCKS + 1];           /* 1 + the thread in its section */
static int flag[4], event;
static int edeadlk[EX_MAX_THREADS];
static bool exited[EX_MAX_THREADS];
static const struct ex_scenario *cur;
static char why[512];

static void reset(const struct ex_scenario *sc)
{
	cur = sc;
	for (int i = 0; i < sc->nthreads; i++) {
		struct thread *t = &th[i];
		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", sc->threads[i].name);
		t->prio = t->normal_prio = sc->threads[i].prio;
		t->state = t->saved_state = THREAD_RUNNING;
		INIT_LIST_HEAD(&t->pi_locks);
		thp[i] = t;
	}
	for (int i = 0; i < NLOCKS; i++) {
		rt_mutex_init(&L[i], sc->names[i] ? sc->names[i] : "?");
		all_locks[i] = &L[i];
	}
	spin_lock_init(&S, "S");
	all_locks[NLOCKS] = &S.lock;
	memset(inside, 0, sizeof(inside));
	memset(flag, 0, sizeof(flag));
	memset(edeadlk, 0, sizeof(edeadlk));
	memset(exited, 0, sizeof(exited));
	event = 0;
	shim_reset(thp, sc->nthreads, all_locks, NALL);
	for (int i = 0; i < sc->nthreads; i++)
		if (strchr(sc->threads[i].prog, 'X'))
			shim_watch_exits();
	/* rtmutex.c's own PI check, outside the threads (no points): it
	 * also makes the shim meet rt_mutex_pi_lock, which B waits on. */
	if (rt_mutex_check_pi())
		fprintf(stderr, "explore: rt_mutex_check_pi() fails at the start\n");
}

/* ---- the scripts' operations ---- */

static void enter(int l)
{
	int me = ex_self();
	ex_point1(&inside[l], EX_WRITE, NULL, NULL);
	if (inside[l])
		ex_fail("mutual exclusion: %s enters %s while %s is inside", th[me].name,
			all_locks[l]->name, th[inside[l] - 1].name);
	else if (rt_mutex_owner(all_locks[l]) != &th[me])
		ex_fail("%s enters %s, whose owner word does not name it", th[me].name,
			all_locks[l]->name);
	inside[l] = me + 1;
	ex_log("inside %s", all_locks[l]->name);
}

static void leave(int l)
{
	ex_point1(&inside[l], EX_WRITE, NULL, NULL);
	inside[l] = 0;
	ex_log("leaves %s", all_locks[l]->name);
}

static bool is_set(const void *arg)
{
	return *(const int *)arg != 0;
}

/* B's wait: thread t has gone to sleep on an rt_mutex (it may be awake
 * again). A read of rt_mutex_pi_lock, whose release ended that step. */
static bool has_slept(const void *arg)
{
	return shim_slept_on_lock((int)((const struct thread *)arg - th));
}

static void set_state(int state)
{
	struct thread *me = &th[ex_self()];
	ex_point1((const void *)&me->state, EX_WRITE, NULL, NULL);
	me->state = state;
	ex_log("%s's state = %s", me->name, shim_state_str(state));
}

/* One word of a script: L0 lock, U0 unlock, T0 trylock, S1 signal flag
 * 1, W1 wait for it, P2=40 sched_setscheduler(thread 2, 40), and for
 * B2 wait until thread 2 has slept on an rt_mutex, and for
 * the spinlock_t: K spin_lock(S), k spin_unlock(S), Z prepare to wait
 * (state SLEEPING), Y wait for the event (schedule() unless it came),
 * E2 the event, then wake_up_thread(thread 2); X exit, the thread's
 * memory freed (last). A lock or trylock that fails skips its unlock. */
static void run_script(int self)
{
	const char *p = cur->threads[self].prog;
	bool skip[NLOCKS] = { false };
	while (*p) {
		char op = *p++;
		int n = 0, v = 0;
		while (*p >= '0' && *p <= '9')
			n = n * 10 + (*p++ - '0');
		if (*p == '=')
			for (p++; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
		while (*p == ' ')
			p++;
		switch (op) {
		case 'L':
			ex_activity("rt_mutex_lock(%s)", L[n].name);
			if (rt_mutex_lock(&L[n]) == 0) {
				enter(n);
			} else {
				edeadlk[self]++;
				skip[n] = true;
				ex_log("rt_mutex_lock(%s) returns -EDEADLK", L[n].name);
			}
			break;
		case 'T':
			ex_activity("rt_mutex_trylock(%s)", L[n].name);
			if (rt_mutex_trylock(&L[n]))
				enter(n);
			else
				skip[n] = true;
			break;
		case 'U':
			if (skip[n]) {
				skip[n] = false;
				break;
			}
			ex_activity("rt_mutex_unlock(%s)", L[n].name);
			leave(n);
			rt_mutex_unlock(&L[n]);
			break;
		case 'S':
			ex_activity("signal %d", n);
			ex_point1(&flag[n], EX_WRITE, NULL, NULL);
			flag[n] = 1;
			ex_log("sets flag %d", n);
			break;
		case 'W':
			ex_activity("wait for flag %d", n);
			ex_point1(&flag[n], EX_READ, is_set, &flag[n]);
			ex_log("sees flag %d", n);
			break;
		case 'B':
			ex_activity("wait until %s sleeps on a lock", th[n].name);
			ex_point1(shim_pi_lock(), EX_READ, has_slept, &th[n]);
			ex_log("sees that %s went to sleep on a lock", th[n].name);
			break;
		case 'P':
			ex_activity("sched_setscheduler(%s, %d)", th[n].name, v);
			rt_mutex_adjust_pi(&th[n], v);
			break;
		case 'K':
			ex_activity("spin_lock(S)");
			spin_lock(&S);
			enter(NLOCKS);
			break;
		case 'k':
			ex_activity("spin_unlock(S)");
			leave(NLOCKS);
			spin_unlock(&S);
			break;
		case 'Z':
			ex_activity("prepare to wait");
			set_state(THREAD_SLEEPING);
			break;
		case 'Y':
			ex_activity("wait for the event");
			ex_point1(&event, EX_READ, NULL, NULL);
			if (!event)
				schedule();
			set_state(THREAD_RUNNING);
			break;
		case 'X':
			ex_activity("exits");
			exited[self] = true;
			shim_thread_exit(&th[self]);
			break;
		case 'E':
			ex_activity("the event, wake_up_thread(%s)", th[n].name);
			ex_point1(&event, EX_WRITE, NULL, NULL);
			event = 1;
			ex_log("event = 1");
			wake_up_thread(&th[n]);
			break;
		}
	}
	ex_activity("returns");
}

/* ---- the invariants ---- */

static const char *check_step(void)
{
	for (int l = 0; l < NALL; l++) {
		struct rt_mutex *m = all_locks[l];
		struct rt_mutex_waiter *w;
		int prev = 1000;
		list_for_each_entry(w, &m->waiters, node) {
			if (w->prio > prev) {
				snprintf(why, sizeof(why), "waiter order: %s waits on %s at prio %d "
					 "behind one of prio %d", w->task->name, m->name, w->prio, prev);
				return why;
			}
			prev = w->prio;
		}
	}
	if (shim_raw_locks_held())
		return NULL;
	/* Quiescent: nobody is inside rt_mutex_pi_lock's sections. */
	for (int i = 0; i < cur->nthreads; i++) {
		struct thread *t = &th[i];
		if (exited[i])
			continue;
		int want = t->normal_prio;
		for (int l = 0; l < NALL; l++) {
			struct rt_mutex *m = all_locks[l];
			struct rt_mutex_waiter *w;
			if (rt_mutex_owner(m) != t)
				continue;
			list_for_each_entry(w, &m->waiters, node)
				if (w->task->prio > want)
					want = w->task->prio;
		}
		if (t->prio != want) {
			snprintf(why, sizeof(why), "PI: %s runs at prio %d, but its own priority "
				 "and its waiters' give %d", t->name, t->prio, want);
			return why;
		}
		struct rt_mutex_waiter *w = t->pi_blocked_on;
		if (w && (w->task != t || w->prio != t->prio || list_empty(&w->node))) {
			snprintf(why, sizeof(why), "%s's waiter is stale: prio %d, task prio %d%s",
				 t->name, w->prio, t->prio, list_empty(&w->node) ? ", not queued" : "");
			return why;
		}
	}
	for (int l = 0; l < NALL; l++) {
		struct rt_mutex *m = all_locks[l];
		struct thread *o = rt_mutex_owner(m);
		bool want = o && !list_empty(&m->waiters), found = false;
		struct rt_mutex *h;
		if (o)
			list_for_each_entry(h, &o->pi_locks, held_node)
				found |= h == m;
		if (want != found || (!want && !list_empty(&m->held_node))) {
			snprintf(why, sizeof(why), "%s %s on %s's pi_locks list", m->name,
				 found ? "is" : "is not", o ? o->name : "nobody");
			return why;
		}
	}
	return NULL;
}

static const char *check_end(void)
{
	int n = 0, reports = 0;
	why[0] = 0;
	for (int i = 0; i < cur->nthreads; i++) {
		n += edeadlk[i];
		reports += shim_deadlock_reports(i);
		if (ex_thread_done(i))
			continue;
		struct thread *t = &th[i];
		char o[32];
		size_t len = strlen(why);
		if (t->pi_blocked_on) {
			struct rt_mutex *m = t->pi_blocked_on->lock;
			struct rt_mutex_waiter *top = list_first_entry(&m->waiters,
					struct rt_mutex_waiter, node);
			snprintf(why + len, sizeof(why) - len, "%s%s sleeps (%s) on %s for ever: "
				 "owner word %s, top waiter %s", len ? "; " : "", t->name,
				 shim_state_str(t->state), m->name,
				 shim_owner_str(m->owner, o, sizeof(o)), top->task->name);
		} else {
			snprintf(why + len, sizeof(why) - len, "%s%s never finishes (%s)",
				 len ? "; " : "", t->name, shim_state_str(t->state));
		}
	}
	if (why[0]) {
		size_t len = strlen(why);
		snprintf(why + len, sizeof(why) - len, ": a lost wake-up, nobody is left to wake %s",
			 n == 1 ? "it" : "them");
		return why;
	}
	if (n != cur->arg || reports != cur->arg) {
		snprintf(why, sizeof(why), "%d -EDEADLK returns and %d reports, expected %d",
			 n, reports, cur->arg);
		return why;
	}
	return NULL;
}

#define T(n, p, s) { n, p, run_script, s }
#define SCENARIO(nm, w, q, a, lk, ...) {                                      \
	.name = nm, .what = w, .quick = q, .arg = a, .names = lk,             \
	.nthreads = sizeof((struct ex_thread_def[]){ __VA_ARGS__ }) /          \
		    sizeof(struct ex_thread_def),                              \
	.threads = { __VA_ARGS__ }, .reset = reset,                            \
	.check_step = check_step, .check_end = check_end }
#define LOCKS(...) { __VA_ARGS__ }

const struct ex_scenario rtmutex_scenarios[] = {
	SCENARIO("owner-exits", "the owner unlocks and exits while a taker checks for a cycle",
		 true, 0, LOCKS("L"),
		 T("O", 1, "L0 S0 U0 X"), T("T", 10, "W0 L0 U0")),
};
const int rtmutex_nscenarios = sizeof(rtmutex_scenarios) / sizeof(rtmutex_scenarios[0]);
