/* The kernel around kernel/locking/rtmutex.c and spinlock_rt.c, for the
 * explorer's shim binary (explore; explore-sched has the real scheduler
 * instead, tests/explore/hw.c): the scheduler (current_thread, schedule,
 * the wake-ups, the priority change), the raw spinlock; and the
 * scheduling points of shim/explore_shim.h's atomics and WRITE_ONCE()
 * (printk and BUG: tests/explore/report.c). Each
 * operation that another CPU could see first stops at a point
 * (ex_point), then happens, alone. */
#include "tests/explore/shim.h"
#include "tests/explore/explore.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct thread **threads;
static int nthreads;
static struct rt_mutex **locks;
static int nlocks;
static raw_spinlock_t *raws[8];
static int nraws, held;
static bool slept[EX_MAX_THREADS];
/* Threads that have exited, their memory free: what a freed struct
 * thread may hold, a pi_blocked_on that leads to `freed`, a lock no code
 * may touch. Watched only in scenarios with an exit (shim_watch_exits). */
static bool watch_exits;
static struct rt_mutex freed = RT_MUTEX_INIT(freed, "freed memory");
static struct rt_mutex_waiter freed_waiter = { .lock = &freed };

void shim_reset(struct thread **t, int n, struct rt_mutex **l, int nl)
{
	threads = t;
	nthreads = n;
	locks = l;
	nlocks = nl;
	for (int i = 0; i < nraws; i++)
		raws[i]->holder = 0;
	held = 0;
	memset(report_deadlocks, 0, EX_MAX_THREADS * sizeof(int));
	memset(slept, 0, sizeof(slept));
	watch_exits = false;
}

void shim_watch_exits(void)
{
	watch_exits = true;
}

void shim_thread_exit(struct thread *t)
{
	ex_point1(t, EX_WRITE, NULL, NULL);
	t->pi_blocked_on = &freed_waiter;
	t->prio = t->normal_prio = -1000;
	ex_log("its struct thread is freed");
}

bool shim_slept_on_lock(int i)
{
	return slept[i];
}

int shim_raw_locks_held(void) { return held; }
int shim_deadlock_reports(int i) { return report_deadlocks[i]; }

const char *shim_state_str(int state)
{
	switch (state) {
	case THREAD_RUNNING: return "RUNNING";
	case THREAD_SLEEPING: return "SLEEPING";
	case THREAD_RTLOCK_WAIT: return "RTLOCK_WAIT";
	default: return "DEAD";
	}
}

const char *shim_owner_str(u64 v, char *buf, size_t size)
{
	struct thread *o = (struct thread *)(v & ~RT_MUTEX_HAS_WAITERS);
	bool bit = v & RT_MUTEX_HAS_WAITERS;
	if (!o)
		snprintf(buf, size, "%s", bit ? "waiters bit" : "0");
	else
		snprintf(buf, size, "%s%s", o->name, bit ? "|waiters" : "");
	return buf;
}

struct thread *current_thread(void)
{
	return threads[ex_self()];
}

/* ---- points on the owner words and the thread states ---- */

static struct rt_mutex *lock_of_owner(const volatile void *p)
{
	for (int i = 0; i < nlocks; i++)
		if (p == &locks[i]->owner)
			return locks[i];
	return NULL;
}

static struct thread *thread_of_state(const volatile void *p)
{
	for (int i = 0; i < nthreads; i++)
		if (p == &threads[i]->state)
			return threads[i];
	return NULL;
}

void explore_atomic_point(const volatile void *p, int write, const char *expr)
{
	(void)expr;
	if (p == &freed.owner)
		ex_fail("%s reads a thread that has exited: an owner it loaded before "
			"unlocked, exited and was freed meanwhile",
			threads[ex_self()]->name);
	if (lock_of_owner(p))
		ex_point1((const void *)p, write ? EX_WRITE : EX_READ, NULL, NULL);
	/* ipc/endpoint.c's and object.c's atomics, on the heap: a thread's
	 * state or usage, an ipc_state's wait, an object's refs. */
	if (ex_self() >= 0 && shim_heap_object((const void *)p)) {
		ex_point1((const void *)p, write ? EX_WRITE : EX_READ, NULL, NULL);
		shim_heap_check((const void *)p, "an atomic access");
	}
}

void explore_atomic_done(const volatile void *p, const char *op, u64 before)
{
	struct thread *t = thread_of_state(p);
	char buf[64];
	if (t && ex_logging)
		ex_log("%s %s's state: %s -> %s", op, t->name, shim_state_str((int)before),
		       shim_state_str(t->state));
	else if (ex_logging && ex_self() >= 0 && shim_heap_str((const void *)p, buf, sizeof(buf)))
		ex_log(!strcmp(op, "load") ? "%s %s: %llu" : "%s %s: %llu -> %llu", op, buf,
		       (unsigned long long)before, (unsigned long long)*(const volatile u32 *)p);
	struct rt_mutex *m = lock_of_owner(p);
	if (!m)
		return;
	/* An owner just loaded is a pointer the code may follow: in a
	 * scenario where threads exit, that owner may exit before it does
	 * (a point here, a read of the owner's struct thread). */
	struct thread *o = (struct thread *)(before & ~RT_MUTEX_HAS_WAITERS);
	if (watch_exits && !strcmp(op, "load") && o && o != threads[ex_self()])
		ex_point1(o, EX_READ, NULL, NULL);
	if (!ex_logging)
		return;
	char a[32], b[32];
	shim_owner_str(before, a, sizeof(a));
	shim_owner_str(m->owner, b, sizeof(b));
	if (m->owner == before && !strcmp(op, "cmpxchg"))
		ex_log("cmpxchg of %s's owner word fails: it is %s", m->name, a);
	else if (m->owner == before)
		ex_log("%s %s's owner word: %s", op, m->name, a);
	else
		ex_log("%s %s's owner word: %s -> %s", op, m->name, a, b);
}

bool explore_read_watched(const volatile void *p)
{
	(void)p;
	return false;
}

void explore_write_point(const volatile void *p)
{
	shim_heap_check((const void *)p, "WRITE_ONCE()");
	if (thread_of_state(p))
		ex_point1((const void *)p, EX_WRITE, NULL, NULL);
}

void explore_write_done(const volatile void *p)
{
	struct thread *t = thread_of_state(p);
	if (t)
		ex_log("%s's state = %s", t->name, shim_state_str(t->state));
}

/* ---- the raw spinlock ---- */

/* After a section of rt_mutex_pi_lock: every contended lock's waiters. */
static void log_waiters(void)
{
	for (int i = 0; i < nlocks; i++) {
		struct rt_mutex *m = locks[i];
		if (list_empty(&m->waiters))
			continue;
		char buf[160], o[32];
		int n = snprintf(buf, sizeof(buf), "%s (owner word %s) waiters:", m->name,
				 shim_owner_str(m->owner, o, sizeof(o)));
		struct rt_mutex_waiter *w;
		list_for_each_entry(w, &m->waiters, node)
			if (n < (int)sizeof(buf))
				n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %s(%d)",
					      w->task->name, w->prio);
		ex_log("%s", buf);
	}
}

static bool raw_free(const void *arg)
{
	return ((const raw_spinlock_t *)arg)->holder == 0;
}

raw_spinlock_t *shim_pi_lock(void)
{
	return nraws ? raws[0] : NULL;
}

void raw_spin_lock(raw_spinlock_t *l)
{
	int i;
	for (i = 0; i < nraws && raws[i] != l; i++)
		;
	if (i == nraws && nraws < (int)(sizeof(raws) / sizeof(raws[0])))
		raws[nraws++] = l;
	if (ex_self() < 0)
		return; /* the scenario's setup, outside the threads */
	shim_heap_check(l, "raw_spin_lock()");
	ex_point1(l, EX_WRITE, raw_free, l);
	shim_heap_check(l, "raw_spin_lock()");
	l->holder = ex_self() + 1;
	held++;
	ex_log("takes %s", l->name);
}

void raw_spin_unlock(raw_spinlock_t *l)
{
	if (ex_self() < 0)
		return;
	ex_point1(l, EX_WRITE, NULL, NULL);
	if (l->holder != ex_self() + 1) {
		ex_fail("%s releases %s, which it does not hold", current_thread()->name, l->name);
		ex_thread_abort();
	}
	l->holder = 0;
	held--;
	ex_log("releases %s", l->name);
	if (ex_logging)
		log_waiters();
}

u64 raw_spin_lock_irqsave(raw_spinlock_t *l)
{
	raw_spin_lock(l);
	return 0x200; /* IF: IRQs were on */
}

void raw_spin_unlock_irqrestore(raw_spinlock_t *l, u64 flags)
{
	(void)flags;
	raw_spin_unlock(l);
}

static bool holds_raw(void)
{
	for (int i = 0; i < nraws; i++)
		if (raws[i]->holder == ex_self() + 1)
			return true;
	return false;
}

/* ---- the scheduler ---- */

static bool is_running(const void *arg)
{
	return ((const struct thread *)arg)->state == THREAD_RUNNING;
}

void schedule(void)
{
	struct thread *me = current_thread();
	if (holds_raw())
		ex_fail("%s calls schedule() holding a raw spinlock", me->name);
	ex_log("calls schedule() in state %s", shim_state_str(me->state));
	if (me->pi_blocked_on)
		slept[ex_self()] = true;
	ex_point1((const void *)&me->state, EX_READ, is_running, me);
	ex_log("runs on after schedule()");
}

/* sched/wake.c's try_to_wake_up() on PREEMPT_RT, its state test: a
 * thread asleep on a spinlock_t keeps that sleep, and a wake-up for the
 * state it saved goes to saved_state. The run queue is not modelled: a
 * RUNNING thread may be picked. */
static bool try_to_wake_up(struct thread *t, int state, const char *how)
{
	shim_heap_check(t, how); /* a freed thread, or a pointer read from freed memory */
	ex_point1((const void *)&t->state, EX_WRITE, NULL, NULL);
	shim_heap_check(t, how);
	if (state != THREAD_RTLOCK_WAIT && t->state == THREAD_RTLOCK_WAIT) {
		bool woken = t->saved_state == state;
		if (woken)
			t->saved_state = THREAD_RUNNING;
		ex_log("%s(%s): %s in RTLOCK_WAIT: saved state %s", how, t->name,
		       t->name, woken ? "-> RUNNING" : "left alone");
		return woken;
	}
	if (t->state != state) {
		ex_log("%s(%s): %s is %s, not woken", how, t->name, t->name,
		       shim_state_str(t->state));
		return false;
	}
	t->state = THREAD_RUNNING;
	ex_log("%s(%s): %s -> RUNNING", how, t->name, shim_state_str(state));
	return true;
}

bool wake_up_thread(struct thread *t)
{
	return try_to_wake_up(t, THREAD_SLEEPING, "wake_up_thread");
}

bool wake_up_rtlock(struct thread *t)
{
	return try_to_wake_up(t, THREAD_RTLOCK_WAIT, "wake_up_rtlock");
}

/* sched/wake.c's, under the run-queue lock: one step. */
void current_save_and_set_rtlock_wait_state(void)
{
	struct thread *me = current_thread();
	ex_point1((const void *)&me->state, EX_WRITE, NULL, NULL);
	me->saved_state = me->state;
	me->state = THREAD_RTLOCK_WAIT;
	ex_log("state = RTLOCK_WAIT, saved %s", shim_state_str(me->saved_state));
}

void current_restore_rtlock_saved_state(void)
{
	struct thread *me = current_thread();
	ex_point1((const void *)&me->state, EX_WRITE, NULL, NULL);
	me->state = me->saved_state;
	me->saved_state = THREAD_RUNNING;
	ex_log("state = saved %s", shim_state_str(me->state));
}

/* sched/rt.c's: the run queue is not modelled, the priority is kept. */
void rt_mutex_setprio(struct thread *t, int prio)
{
	ex_point1(&t->prio, EX_WRITE, NULL, NULL);
	ex_log("rt_mutex_setprio(%s, %d), was %d", t->name, prio, t->prio);
	t->prio = prio;
}

void thread_for_each(void (*fn)(struct thread *t, void *arg), void *arg)
{
	for (int i = 0; i < nthreads; i++)
		fn(threads[i], arg);
}

void __might_sleep(const char *file, int line)
{
	if (holds_raw())
		ex_fail("%s:%d: might_sleep() with a raw spinlock held", file, line);
}
