/* Lab L4, lazy preemption (docs/10-labs.md, L4): the lazy request of
 * __resched_curr() and lazy_request_ok() (sched/core.c), and its
 * promotion at the tick, scheduler_tick() (sched/wake.c).
 *
 * In lazy mode a request for a normal thread sets TIF_NEED_RESCHED_LAZY
 * and nothing else: no fold, no IPI, counted in resched_lazy (once: a
 * request that finds one pending, lazy or full, is no new one). One for a
 * FIFO thread or an idle CPU, or in any other mode, is full. The next
 * tick on the target turns a pending lazy request into a full one (flag
 * and fold, counted in lazy_promoted), so a normal thread woken where a
 * normal one runs waits for that tick and no longer. Each seed varies
 * the depth, where in the tick period the request lands and the hog's
 * preemption points. */
#include "tests/labs/lab.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/cpu.h"

#define BIT31 PREEMPT_NEED_RESCHED
#define BOTH (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)

static bool enter_mode(struct ktest *t, int mode, int *saved)
{
	*saved = preempt_mode;
	if (preempt_mode_set(mode) == 0)
		return true;
	ktest_skip(t, "COUNT=%s cannot run mode %s", preempt_model_name(), preempt_mode_name(mode));
	return false;
}

static u64 flags_of(struct thread *th)
{
	return READ_ONCE(th->flags) & BOTH;
}

/* T on X: preemption off, IRQs off until asked; then IRQs on, and (if
 * until_tick) on until X's next tick has come and gone. */
struct lazy_target {
	u32 depth, delay;
	bool until_tick;
	volatile int ready, asked;
	struct thread *self;
	u64 flags_asked, flags_after;
	u32 raw_asked, raw_after;
	u64 recv0, recv, promoted0, promoted, tick0, tick1;
};

static void lazy_target_fn(void *arg)
{
	struct lazy_target *g = arg;
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	u32 x = raw_smp_processor_id();
	g->self = current_thread();
	for (u32 i = 0; i < g->depth; i++)
		preempt_disable();
	local_irq_disable();
	g->recv0 = st->resched_ipi_received;
	g->promoted0 = st->lazy_promoted;
	g->ready = 1;
	lab_spin_until(READ_ONCE(g->asked), 20 * NSEC_PER_MSEC);
	g->flags_asked = flags_of(g->self);
	g->raw_asked = preempt_count_raw();
	g->tick0 = tick_count(x);
	local_irq_enable();
	for (u32 i = 0; i < g->delay; i++)
		cpu_relax(); /* an IPI would come now */
	g->recv = st->resched_ipi_received - g->recv0;
	if (g->until_tick) {
		lab_spin_until(tick_count(x) != g->tick0, 3 * NSEC_PER_MSEC);
		lab_spin_until(!(preempt_count_raw() & BIT31), 50 * NSEC_PER_USEC);
	}
	g->tick1 = tick_count(x);
	g->flags_after = flags_of(g->self);
	g->raw_after = preempt_count_raw();
	g->promoted = st->lazy_promoted - g->promoted0;
	for (u32 i = 0; i < g->depth; i++)
		preempt_enable();
}

/* Run T on X and make `asks` lazy requests for it from here, then, if
 * `full`, a full one. */
static void lazy_ask(struct lazy_target *g, u32 x, u32 asks, bool full, u64 *sent_d,
		     u64 *lazy_d, u32 *raw_seen)
{
	struct thread *th = thread_create(lazy_target_fn, g, "lab-lazy", PRIO_NORMAL, 1UL << x);
	lab_spin_until(READ_ONCE(g->ready), 20 * NSEC_PER_MSEC);
	preempt_disable();
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	u64 sent = st->resched_ipi_sent, lazy = st->resched_lazy;
	for (u32 i = 0; i < asks; i++)
		resched_curr_lazy(x);
	if (full)
		resched_curr(x);
	*sent_d = st->resched_ipi_sent - sent;
	*lazy_d = st->resched_lazy - lazy;
	*raw_seen = READ_ONCE(per_cpu(preempt_count, x));
	preempt_enable();
	g->asked = 1;
	thread_join(th);
}

static void lazy_request_sets_only_the_flag(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 depth = 1 + prandom_below(&rs, 3);
		/* Here: the flag alone, with IRQs off so no tick promotes it. */
		if (need_resched() || tif_need_resched_lazy())
			schedule();
		for (u32 i = 0; i < depth; i++)
			preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 f = local_irq_save();
		u64 sent = st->resched_ipi_sent, lazy = st->resched_lazy;
		u32 raw0 = preempt_count_raw();
		resched_curr_lazy(raw_smp_processor_id());
		u64 fl = flags_of(current_thread());
		u32 raw1 = preempt_count_raw();
		u64 sent_d = st->resched_ipi_sent - sent, lazy_d = st->resched_lazy - lazy;
		__atomic_fetch_and(&current_thread()->flags, ~BOTH, __ATOMIC_SEQ_CST);
		clear_preempt_need_resched();
		local_irq_restore(f);
		for (u32 i = 0; i < depth; i++)
			preempt_enable();
		bool ok = fl == _TIF_NEED_RESCHED_LAZY && raw1 == raw0 && !sent_d && lazy_d == 1;
		if (!ok)
			lab_fail(t, "seed %llu: a lazy request here: flags 0x%llx (expected 0x%lx, "
				   "the lazy flag only), count 0x%x -> 0x%x (expected unchanged), %llu "
				   "IPIs sent, resched_lazy +%llu (expected +1)", (unsigned long long)seed,
				   (unsigned long long)fl, _TIF_NEED_RESCHED_LAZY, raw0, raw1,
				   (unsigned long long)sent_d, (unsigned long long)lazy_d);
		/* On X, busy with IRQs off: no IPI, X's count untouched, the
		 * request counted. */
		u32 x = lab_cpu_x();
		if (!x)
			continue;
		struct lazy_target g = { .depth = depth, .delay = 2000 + prandom_below(&rs, 2000) };
		u32 raw_seen;
		lazy_ask(&g, x, 1, false, &sent_d, &lazy_d, &raw_seen);
		ok = g.flags_asked == _TIF_NEED_RESCHED_LAZY && !sent_d && !g.recv && lazy_d == 1 &&
		     raw_seen == g.raw_asked && (raw_seen & BIT31);
		if (!ok)
			lab_fail(t, "seed %llu: a lazy request to CPU %u: its thread's flags 0x%llx "
				   "(expected 0x%lx), %llu IPIs sent, %llu received there (expected "
				   "none), X's count 0x%x (read from here) and 0x%x (there), "
				   "resched_lazy +%llu (expected +1)", (unsigned long long)seed, x,
				   (unsigned long long)g.flags_asked, _TIF_NEED_RESCHED_LAZY,
				   (unsigned long long)sent_d, (unsigned long long)g.recv, raw_seen,
				   g.raw_asked, (unsigned long long)lazy_d);
	}
	preempt_mode_set(saved);
}

static void tick_promotes_the_request(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: the request is made from another");
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		sleep_ns(prandom_below(&rs, 1000) * NSEC_PER_USEC); /* somewhere in a period */
		struct lazy_target g = { .depth = 1 + prandom_below(&rs, 3), .until_tick = true,
					 .delay = prandom_below(&rs, 2000) };
		u64 sent_d, lazy_d;
		u32 raw_seen;
		lazy_ask(&g, x, 1, false, &sent_d, &lazy_d, &raw_seen);
		bool ok = g.tick1 != g.tick0 && g.flags_after == BOTH && g.promoted == 1 &&
			  g.raw_after == g.depth;
		if (!ok)
			lab_fail(t, "seed %llu: after a lazy request, X's tick %s: its thread's "
				   "flags 0x%llx (expected 0x%lx: promoted), count 0x%x (expected "
				   "0x%x: folded), lazy_promoted +%llu (expected +1)",
				   (unsigned long long)seed, g.tick1 != g.tick0 ? "came" : "never came",
				   (unsigned long long)g.flags_after, BOTH, g.raw_after, g.depth,
				   (unsigned long long)g.promoted);
	}
	preempt_mode_set(saved);
}

/* Only a new request counts: a lazy request that finds either flag set
 * adds nothing to resched_lazy, and a tick that finds a full request
 * beside the lazy one promotes nothing (lazy_promoted). */
static void lazy_counts_only_new_requests(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 6);
		u32 depth = 1 + prandom_below(&rs, 3);
		if (need_resched() || tif_need_resched_lazy())
			schedule();
		for (u32 i = 0; i < depth; i++)
			preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		struct thread *self = current_thread();
		u32 me = raw_smp_processor_id();
		u64 f = local_irq_save();
		resched_curr_lazy(me);
		u64 lazy = st->resched_lazy;
		resched_curr_lazy(me); /* the first is still pending */
		u64 again_d = st->resched_lazy - lazy;
		__atomic_fetch_and(&self->flags, ~BOTH, __ATOMIC_SEQ_CST);
		clear_preempt_need_resched();
		resched_curr(me);
		lazy = st->resched_lazy;
		resched_curr_lazy(me); /* a full one is pending */
		u64 full_d = st->resched_lazy - lazy;
		__atomic_fetch_and(&self->flags, ~BOTH, __ATOMIC_SEQ_CST);
		clear_preempt_need_resched();
		local_irq_restore(f);
		for (u32 i = 0; i < depth; i++)
			preempt_enable();
		if (again_d)
			lab_fail(t, "seed %llu: a second lazy request here, the first still pending, "
				   "counted in resched_lazy too (+%llu, expected +0): count a new "
				   "request only, one that finds neither flag set",
				   (unsigned long long)seed, (unsigned long long)again_d);
		if (full_d)
			lab_fail(t, "seed %llu: a lazy request here, a full one pending, counted in "
				   "resched_lazy (+%llu, expected +0): it finds TIF_NEED_RESCHED set, "
				   "no new request", (unsigned long long)seed,
				   (unsigned long long)full_d);
		/* On X: two lazy requests and a full one, then X's tick. */
		u32 x = lab_cpu_x();
		if (!x)
			continue;
		struct lazy_target g = { .depth = depth, .until_tick = true,
					 .delay = prandom_below(&rs, 2000) };
		u64 sent_d, lazy_d;
		u32 raw_seen;
		lazy_ask(&g, x, 2, true, &sent_d, &lazy_d, &raw_seen);
		if (lazy_d != 1)
			lab_fail(t, "seed %llu: two lazy requests to CPU %u, the second finding the "
				   "first pending: resched_lazy +%llu (expected +1)",
				   (unsigned long long)seed, x, (unsigned long long)lazy_d);
		if (g.tick1 == g.tick0 || g.promoted)
			lab_fail(t, "seed %llu: X's tick %s, a lazy and a full request pending: "
				   "lazy_promoted +%llu (expected +0: only a request still lazy "
				   "alone is promoted)", (unsigned long long)seed,
				   g.tick1 != g.tick0 ? "came" : "never came",
				   (unsigned long long)g.promoted);
	}
	preempt_mode_set(saved);
}

/* One request from here for this CPU, as the thread is now: it must be
 * full (the flag; the fold, at once or by an IPI, is L3's business). */
static void full_here(struct ktest *t, u64 seed, const char *who)
{
	if (need_resched() || tif_need_resched_lazy())
		schedule();
	preempt_disable();
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	u64 f = local_irq_save();
	u64 lazy = st->resched_lazy;
	resched_curr_lazy(raw_smp_processor_id());
	u64 fl = flags_of(current_thread());
	u64 lazy_d = st->resched_lazy - lazy;
	local_irq_restore(f);
	preempt_enable(); /* serves it */
	if (fl != _TIF_NEED_RESCHED || lazy_d)
		lab_fail(t, "seed %llu: resched_curr_lazy() for %s: flags 0x%llx, resched_lazy "
			 "+%llu; expected a full request (0x%lx, +0)", (unsigned long long)seed, who,
			 (unsigned long long)fl, (unsigned long long)lazy_d, _TIF_NEED_RESCHED);
}

static void lazy_is_full_for_fifo_idle_and_full(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 3);
		struct thread *self = current_thread();
		sched_setscheduler(self, 1 + (int)prandom_below(&rs, 98));
		full_here(t, seed, "a FIFO thread, in lazy mode");
		sched_setscheduler(self, PRIO_NORMAL);
		preempt_mode_set(PREEMPT_MODE_FULL);
		full_here(t, seed, "a normal thread, in full mode");
		preempt_mode_set(PREEMPT_MODE_LAZY);
		u32 x = lab_cpu_x();
		if (!x)
			continue;
		struct thread *idle = per_cpu(idle, x);
		if (!lab_spin_until(rq_curr(x) == idle && !flags_of(idle), 5 * NSEC_PER_MSEC))
			continue;
		preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 lazy = st->resched_lazy;
		resched_curr_lazy(x);
		u64 fl = flags_of(idle), lazy_d = st->resched_lazy - lazy;
		preempt_enable();
		bool ok = (fl & _TIF_NEED_RESCHED) && !lazy_d;
		if (!ok)
			lab_fail(t, "seed %llu: resched_curr_lazy() for idle CPU %u: its idle "
				   "thread's flags 0x%llx, resched_lazy +%llu (expected a full "
				   "request: an idle CPU has no work to finish first)",
				   (unsigned long long)seed, x, (unsigned long long)fl,
				   (unsigned long long)lazy_d);
	}
	preempt_mode_set(saved);
}

/* The lazy flag is not in the count: preempt_enable() ignores it. */
static void lazy_never_reaches_the_count(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		if (need_resched() || tif_need_resched_lazy())
			schedule();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		preempt_disable();
		u64 f = local_irq_save();
		u32 raw0 = preempt_count_raw();
		resched_curr_lazy(raw_smp_processor_id());
		u32 raw1 = preempt_count_raw();
		u64 calls = st->preempt_schedule_calls;
		preempt_enable();
		u64 calls_d = st->preempt_schedule_calls - calls;
		local_irq_restore(f);
		schedule(); /* serve it */
		bool ok = raw1 == raw0 && !calls_d;
		if (!ok)
			lab_fail(t, "seed %llu: a lazy request made the count 0x%x -> 0x%x and "
				   "preempt_enable() called preempt_schedule() %llu times (expected "
				   "unchanged, none)", (unsigned long long)seed, raw0, raw1,
				   (unsigned long long)calls_d);
	}
	preempt_mode_set(saved);
}

/* H hogs X with a preemption point now and then; a normal W, woken from
 * here, runs at H's first preemption point after X's next tick. */
struct hog {
	volatile int running, stop, w_waiting;
	u32 every;
	struct completion go;
	u64 wake_tick, run_tick, wake_ns, run_ns;
};

static void hog_fn(void *arg)
{
	struct hog *h = arg;
	h->running = 1;
	while (!READ_ONCE(h->stop)) {
		preempt_disable();
		for (u32 i = 0; i < h->every; i++)
			cpu_relax();
		preempt_enable();
	}
}

static void waiter_fn(void *arg)
{
	struct hog *h = arg;
	h->w_waiting = 1;
	wait_for_completion(&h->go);
	h->run_tick = tick_count((u32)current_thread()->cpu);
	h->run_ns = ktime_get_ns();
	h->stop = 1;
}

static void normal_wakeup_waits_for_the_tick(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: the wake-up comes from another");
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 5);
		static struct hog h;
		h = (struct hog){ .every = 50 + prandom_below(&rs, 500) };
		init_completion(&h.go);
		struct thread *w = thread_create(waiter_fn, &h, "lab-w", PRIO_NORMAL, 1UL << x);
		lab_spin_until(READ_ONCE(h.w_waiting), 20 * NSEC_PER_MSEC);
		sleep_ns(NSEC_PER_MSEC);
		struct thread *hg = thread_create(hog_fn, &h, "lab-hog", PRIO_NORMAL, 1UL << x);
		lab_spin_until(READ_ONCE(h.running), 20 * NSEC_PER_MSEC);
		sleep_ns((1000 + prandom_below(&rs, 1000)) * NSEC_PER_USEC);
		preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 sent = st->resched_ipi_sent;
		h.wake_tick = tick_count(x);
		h.wake_ns = ktime_get_ns();
		complete(&h.go);
		u64 sent_d = st->resched_ipi_sent - sent;
		preempt_enable();
		lab_spin_until(READ_ONCE(h.stop), 4 * NSEC_PER_MSEC); /* W stops H */
		h.stop = 1;
		thread_join(w);
		thread_join(hg);
		u64 waited = h.run_ns - h.wake_ns, period = NSEC_PER_SEC / tick_hz;
		bool ok = !sent_d && h.run_tick > h.wake_tick && h.run_tick <= h.wake_tick + 1 &&
			  waited <= period + 50 * NSEC_PER_USEC;
		if (!ok)
			lab_fail(t, "seed %llu: W, normal, woken on X where a normal hog ran: %llu "
				   "IPIs sent, ran %llu us later at tick %llu (woken at tick %llu; "
				   "expected no IPI, and the first tick after, within %llu us)",
				   (unsigned long long)seed, (unsigned long long)sent_d,
				   (unsigned long long)(waited / NSEC_PER_USEC),
				   (unsigned long long)h.run_tick, (unsigned long long)h.wake_tick,
				   (unsigned long long)(period / NSEC_PER_USEC + 50));
	}
	preempt_mode_set(saved);
}

LAB_SUITE(lab_l4,
	KTEST_CASE_TIMED(lazy_request_sets_only_the_flag, 50),
	KTEST_CASE_TIMED(tick_promotes_the_request, 50),
	KTEST_CASE_TIMED(lazy_counts_only_new_requests, 50),
	KTEST_CASE_TIMED(lazy_is_full_for_fifo_idle_and_full, 50),
	KTEST_CASE_TIMED(lazy_never_reaches_the_count, 50),
	KTEST_CASE_TIMED(normal_wakeup_waits_for_the_tick, 50));
