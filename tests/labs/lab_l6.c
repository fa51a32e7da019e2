/* Lab L6, priority inheritance (docs/10-labs.md, L6): the rt_mutex's
 * waiter order, waiter_enqueue(); the boost along a chain, adjust_chain();
 * and its end at release, rt_mutex_slowunlock() (kernel/locking/rtmutex.c).
 *
 * Each case builds a scene of threads and rt_mutexes: holders that take
 * their locks and keep them until the case lets them go, and waiters
 * that block on a lock, each started once the one before is asleep, so
 * that the order in which they queue is the case's. A waiter that gets
 * the scene's logged lock writes its number in the log, then releases
 * it: the log is the order in which that lock's waiters were woken. The
 * priorities (what a boost gives, what a release leaves) are read while
 * every thread of the scene sleeps, or by the owner after its unlock.
 * Each seed varies the priorities, the chain's length and the order of
 * arrival. Every thread but the case's own runs on CPU X, and the case
 * takes no lock of theirs: a walk that loops for ever under
 * rt_mutex_pi_lock (a waiter requeued without list_del()) stops CPU X,
 * not the case's CPU, which then says the case ran out of time. */
#include "tests/labs/lab.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "lib/format.h"

#define NLOCKS 5
#define NWORKERS 8
#define WAIT_NS (10 * NSEC_PER_MSEC) /* for one thread to block or to own */

/* A worker: takes hold[0], hold[1] (free when it starts), then `wait`
 * (blocking), logs, and releases `wait`; with no `wait`, it keeps its
 * locks until `go`. Then it releases hold[1] and hold[0] (in `order`,
 * reversed when flip) and records its priority after each unlock. */
struct worker {
	int prio;
	struct rt_mutex *hold[2], *wait;
	bool flip;
	int after[2];             /* its prio after the first and second release */
	struct thread *t;
	struct scene *sc;
	u32 id;
};

struct scene {
	struct rt_mutex l[NLOCKS];
	struct worker w[NWORKERS];
	u32 n;
	struct completion go;
	struct rt_mutex *log_lock; /* the lock whose waiters log */
	u32 log[NWORKERS];
	volatile u32 logged, finished;
};

static void worker_fn(void *arg)
{
	struct worker *w = arg;
	struct scene *sc = w->sc;
	for (u32 i = 0; i < 2; i++)
		if (w->hold[i])
			rt_mutex_lock(w->hold[i]);
	if (w->wait) {
		rt_mutex_lock(w->wait);
		if (w->wait == sc->log_lock) { /* under the lock: one at a time */
			sc->log[sc->logged] = w->id;
			WRITE_ONCE(sc->logged, sc->logged + 1);
		}
		rt_mutex_unlock(w->wait);
	} else {
		wait_for_completion(&sc->go);
	}
	struct thread *me = current_thread();
	for (u32 k = 0, i = 0; i < 2; i++) {
		struct rt_mutex *m = w->hold[w->flip ? i : 1 - i];
		if (!m)
			continue;
		rt_mutex_unlock(m);
		w->after[k++] = me->prio;
	}
	__atomic_fetch_add(&sc->finished, 1, __ATOMIC_RELEASE);
}

static void scene_init(struct scene *sc, u32 log_lock)
{
	static const char *const names[NLOCKS] = { "lab_l0", "lab_l1", "lab_l2", "lab_l3",
						   "lab_l4" };
	*sc = (struct scene){ 0 };
	for (u32 i = 0; i < NLOCKS; i++)
		rt_mutex_init(&sc->l[i], names[i]);
	init_completion(&sc->go);
	sc->log_lock = log_lock < NLOCKS ? &sc->l[log_lock] : NULL;
}

/* Until cond holds, sleeping; false after WAIT_NS. */
#define scene_until(cond)                                        \
	({                                                       \
		u64 end__ = ktime_get_ns() + WAIT_NS;            \
		bool ok__;                                       \
		while (!(ok__ = (cond)) && ktime_get_ns() < end__) \
			sleep_ns(20 * NSEC_PER_USEC);            \
		ok__;                                            \
	})

static bool asleep_on(struct thread *t, struct rt_mutex *m)
{
	return rt_mutex_blocked_on(t) == m && READ_ONCE(t->state) != THREAD_RUNNING;
}

/* Start a worker and wait until it owns its locks and, if it has a
 * `wait`, sleeps on it; false if it does not get there. */
static struct worker *scene_add(struct scene *sc, int prio, struct rt_mutex *h0,
				struct rt_mutex *h1, struct rt_mutex *wait, bool *ok)
{
	struct worker *w = &sc->w[sc->n];
	*w = (struct worker){ prio, { h0, h1 }, wait, false, { -1, -1 }, NULL, sc, sc->n };
	sc->n++;
	w->t = thread_create(worker_fn, w, "lab-pi", prio, 1UL << lab_cpu_x());
	bool got = w->t && (!h0 || scene_until(rt_mutex_owner(h0) == w->t)) &&
		   (!h1 || scene_until(rt_mutex_owner(h1) == w->t)) &&
		   (!wait || scene_until(asleep_on(w->t, wait)));
	*ok = *ok && got;
	return w;
}

/* Let the holders go and join every worker; false if one never got
 * its lock (then the joins wait for it, until the case's time limit). */
static bool scene_end(struct scene *sc)
{
	for (u32 i = 0; i < sc->n; i++)
		if (!sc->w[i].wait)
			complete(&sc->go);
	bool done = scene_until(READ_ONCE(sc->finished) == sc->n);
	for (u32 i = 0; i < sc->n; i++)
		if (sc->w[i].t)
			thread_join(sc->w[i].t);
	return done;
}

static void log_text(const struct scene *sc, char *buf, u32 len)
{
	u32 at = 0;
	buf[0] = 0;
	for (u32 i = 0; i < sc->logged && at + 4 < len; i++)
		at += (u32)snprintf(buf + at, len - at, "%sW%u", i ? "," : "", sc->log[i]);
}

static int fifo_prio(struct prandom_state *rs, int lo, int hi)
{
	return lo + (int)prandom_below(rs, (u32)(hi - lo + 1));
}

/* Owner 0 holds L0; owner i holds Li and waits on L(i-1); H, above them
 * all, waits on the last lock: every owner runs at H's priority. */
static void chain_boosts_the_far_owner(struct ktest *t)
{
	static struct scene sc;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 61);
		u32 locks = 2 + prandom_below(&rs, 3);
		bool ok = true;
		scene_init(&sc, NLOCKS);
		scene_add(&sc, prandom_below(&rs, 2) ? PRIO_NORMAL : fifo_prio(&rs, 1, 9),
			  &sc.l[0], NULL, NULL, &ok);
		for (u32 i = 1; i < locks; i++)
			scene_add(&sc, fifo_prio(&rs, 1, 40), &sc.l[i], NULL, &sc.l[i - 1], &ok);
		int top = fifo_prio(&rs, 50, 90);
		struct worker *h = scene_add(&sc, top, NULL, NULL, &sc.l[locks - 1], &ok);
		int got[NLOCKS], low[NLOCKS], want[NLOCKS];
		bool boosted = ok, lowered = true;
		for (u32 i = 0; i < locks; i++)
			boosted &= (got[i] = sc.w[i].t->prio) == top;
		/* H's own priority drops to normal as it waits: the walk brings
		 * each owner down to what its waiters give it now. */
		if (ok)
			sched_setscheduler(h->t, PRIO_NORMAL);
		for (int i = (int)locks - 1, m = PRIO_NORMAL; ok && i >= 0; i--) {
			m = want[i] = sc.w[i].prio > m ? sc.w[i].prio : m;
			lowered &= (low[i] = sc.w[i].t->prio) == want[i];
		}
		bool done = scene_end(&sc);
		if (!ok || !done)
			lab_fail(t, "seed %llu: the chain of %u locks never %s", (unsigned long long)seed,
				 locks, ok ? "drained: a waiter was never woken" : "formed");
		else if (!boosted) {
			char prios[48];
			u32 at = 0;
			for (u32 i = 0; i < locks; i++)
				at += (u32)snprintf(prios + at, sizeof(prios) - at, "%s%d",
						    i ? ", " : "", got[i]);
			lab_fail(t, "seed %llu: a chain of %u locks under a waiter of prio %d: the "
				 "owners of L0 (the far one) to L%u run at %s (expected %d each, along "
				 "the chain)", (unsigned long long)seed, locks, top, locks - 1, prios,
				 top);
		} else if (!lowered) {
			char prios[96];
			u32 at = 0;
			for (u32 i = 0; i < locks; i++)
				at += (u32)snprintf(prios + at, sizeof(prios) - at, "%s%d (expected %d)",
						    i ? ", " : "", low[i], want[i]);
			lab_fail(t, "seed %llu: a chain of %u locks under a waiter of prio %d, whose "
				 "priority then dropped to normal as it waited: the owners of L0 to L%u "
				 "run at %s: a walk lowers owners as it raises them",
				 (unsigned long long)seed, locks, top, locks - 1, prios);
		}
	}
}

/* O holds LA and LB; a waiter of prio pa on LA, one of pb < pa on LB. O
 * runs at pa; releasing one lock leaves it at the other's waiter's
 * priority, releasing both at its own. */
static bool release_round(struct ktest *t, u64 seed, int own, int pa, int pb, bool flip)
{
	static struct scene sc;
	bool ok = true;
	scene_init(&sc, NLOCKS);
	struct worker *o = scene_add(&sc, own, &sc.l[0], &sc.l[1], NULL, &ok);
	o->flip = flip; /* which lock it releases first */
	scene_add(&sc, pa, NULL, NULL, &sc.l[0], &ok);
	scene_add(&sc, pb, NULL, NULL, &sc.l[1], &ok);
	int boosted = o->t->prio;
	bool done = scene_end(&sc);
	/* flip: LA (pa's) first, so LB's waiter still counts. */
	int first = flip ? pb : pa;
	if (!ok || !done)
		lab_fail(t, "seed %llu: the scene never %s", (unsigned long long)seed,
			 ok ? "drained: a waiter was never woken" : "formed");
	else if (boosted != pa || o->after[0] != first || o->after[1] != own)
		lab_fail(t, "seed %llu: O (prio %d) holds LA, waited on at %d, and LB, at %d: "
			 "O ran at %d (expected %d), after releasing %s at %d (expected %d: "
			 "the lock it still holds), after releasing both at %d (expected %d, "
			 "its own)", (unsigned long long)seed, own, pa, pb, boosted, pa,
			 flip ? "LA" : "LB", o->after[0], first, o->after[1], own);
	return !t->failed;
}

static void boost_ends_at_release(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 62);
		int own = prandom_below(&rs, 2) ? PRIO_NORMAL : fifo_prio(&rs, 1, 9);
		int pa = fifo_prio(&rs, 40, 80), pb = fifo_prio(&rs, 10, 39);
		/* Both orders of release, on every seed: which lock goes first
		 * decides what a release must leave, so no seed is luckier. */
		if (!release_round(t, seed, own, pa, pb, false) ||
		    !release_round(t, seed, own, pa, pb, true))
			return;
	}
}

/* What the log must be: waiters ids, by prio, highest first, and in
 * their order of arrival among equals. */
static void expected_order(const int *prio, const u32 *id, u32 n, u32 *out)
{
	bool used[NWORKERS] = { false };
	for (u32 k = 0; k < n; k++) {
		u32 best = n;
		for (u32 i = 0; i < n; i++)
			if (!used[i] && (best == n || prio[i] > prio[best]))
				best = i;
		used[best] = true;
		out[k] = id[best];
	}
}

static bool log_is(const struct scene *sc, const u32 *want, u32 n)
{
	if (sc->logged != n)
		return false;
	for (u32 i = 0; i < n; i++)
		if (sc->log[i] != want[i])
			return false;
	return true;
}

static void order_fail(struct ktest *t, u64 seed, const char *what, const struct scene *sc,
		       const u32 *want, u32 n)
{
	char got[64], exp[64];
	struct scene w = { .logged = n };
	for (u32 i = 0; i < n; i++)
		w.log[i] = want[i];
	log_text(sc, got, sizeof(got));
	log_text(&w, exp, sizeof(exp));
	lab_fail(t, "seed %llu: %s: woken in the order %s (expected %s: highest priority first, "
		 "first come first among equals)", (unsigned long long)seed, what, got, exp);
}

/* O holds L; waiters queue on it, a low one first, the last as low as
 * it: each release wakes the top waiter. */
static void woken_waiter_is_the_top_one(struct ktest *t)
{
	static struct scene sc;
	static const int band[3] = { 10, 20, 30 };
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 63);
		u32 n = 3 + prandom_below(&rs, 3);
		int prio[NWORKERS];
		u32 id[NWORKERS], want[NWORKERS];
		bool ok = true;
		scene_init(&sc, 0);
		scene_add(&sc, PRIO_NORMAL, &sc.l[0], NULL, NULL, &ok);
		for (u32 i = 0; i < n; i++) {
			prio[i] = i == 0 || i == n - 1 ? band[0] : i == 1 ? band[2] :
				  band[prandom_below(&rs, 3)];
			id[i] = scene_add(&sc, prio[i], NULL, NULL, &sc.l[0], &ok)->id;
		}
		expected_order(prio, id, n, want);
		bool done = scene_end(&sc);
		if (!ok)
			lab_fail(t, "seed %llu: the waiters never all slept on L", (unsigned long long)seed);
		else if (!done || !log_is(&sc, want, n))
			order_fail(t, seed, "waiters on one lock", &sc, want, n);
	}
}

/* C holds L2, waited on by two or three threads; B (low) holds L1 and
 * queues on L2 last; then H waits on L1: B, boosted to H's priority,
 * must be requeued on L2 where that priority goes. */
static void requeue_keeps_the_waiters_ordered(struct ktest *t)
{
	static struct scene sc;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 64);
		u32 n = 2 + prandom_below(&rs, 2);
		int prio[NWORKERS];
		u32 id[NWORKERS], want[NWORKERS];
		bool ok = true;
		scene_init(&sc, 2);
		scene_add(&sc, PRIO_NORMAL, &sc.l[2], NULL, NULL, &ok);
		for (u32 i = 0; i < n; i++) {
			prio[i] = 15 + 10 * (int)prandom_below(&rs, 3); /* 15, 25, 35 */
			id[i] = scene_add(&sc, prio[i], NULL, NULL, &sc.l[2], &ok)->id;
		}
		struct worker *b = scene_add(&sc, 5, &sc.l[1], NULL, &sc.l[2], &ok);
		int h = 20 + 5 * (int)prandom_below(&rs, 4); /* 20, 25, 30, 35 */
		scene_add(&sc, h, NULL, NULL, &sc.l[1], &ok);
		prio[n] = h; /* B, at its boost, in the order it was requeued */
		id[n] = b->id;
		expected_order(prio, id, n + 1, want);
		bool done = scene_end(&sc);
		if (!ok)
			lab_fail(t, "seed %llu: the scene never formed", (unsigned long long)seed);
		else if (!done || !log_is(&sc, want, n + 1))
			order_fail(t, seed, "B boosted while waiting on L2", &sc, want, n + 1);
	}
}

/* C holds L2; B (prio p) holds L1 and waits on L2, then Y (also p)
 * waits on L2 behind it; H, at or below p, waits on L1. B's priority
 * does not change, so the walk stops at B: L2's order stays B, Y. */
static void chain_walk_stops_where_priority_does_not_change(struct ktest *t)
{
	static struct scene sc;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 65);
		int p = fifo_prio(&rs, 20, 60);
		bool ok = true;
		scene_init(&sc, 2);
		struct worker *c = scene_add(&sc, PRIO_NORMAL, &sc.l[2], NULL, NULL, &ok);
		struct worker *b = scene_add(&sc, p, &sc.l[1], NULL, &sc.l[2], &ok);
		struct worker *y = scene_add(&sc, p, NULL, NULL, &sc.l[2], &ok);
		scene_add(&sc, p - (int)prandom_below(&rs, 11), NULL, NULL, &sc.l[1], &ok);
		int cprio = c->t->prio;
		u32 want[2] = { b->id, y->id };
		bool done = scene_end(&sc);
		if (!ok)
			lab_fail(t, "seed %llu: the scene never formed", (unsigned long long)seed);
		else if (cprio != p)
			lab_fail(t, "seed %llu: C, holding L2 with B (prio %d) waiting, runs at %d",
				 (unsigned long long)seed, p, cprio);
		else if (!done || !log_is(&sc, want, 2))
			order_fail(t, seed, "B, then Y of B's priority, on L2; H, not above B, on L1",
				   &sc, want, 2);
	}
}

LAB_SUITE(lab_l6,
	KTEST_CASE_TIMED(chain_boosts_the_far_owner, 50),
	KTEST_CASE_TIMED(boost_ends_at_release, 50),
	KTEST_CASE_TIMED(woken_waiter_is_the_top_one, 50),
	KTEST_CASE_TIMED(requeue_keeps_the_waiters_ordered, 50),
	KTEST_CASE_TIMED(chain_walk_stops_where_priority_does_not_change, 50));
