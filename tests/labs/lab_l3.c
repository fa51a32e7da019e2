/* Lab L3, asking for a reschedule (docs/10-labs.md, L3): the full
 * request of __resched_curr() (sched/core.c), local and remote.
 *
 *   local    the flag and the fold at once: no IPI to ourselves
 *   remote   the flag, and one RESCHEDULE IPI however often X is asked
 *            before it takes it (the flag says an IPI is on its way)
 *   idle     a halted idle CPU needs the IPI to wake; one polling the
 *            flag (idle=poll: TIF_POLLING_NRFLAG) sees it by itself
 * Counted by the requester's resched_ipi_sent and resched_ipi_avoided
 * and the target's resched_ipi_received. Each seed varies the number of
 * requests and rounds and how long the target waits. */
#include "tests/labs/lab.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "kernel/time/hrtimer.h"
#include "lib/format.h"

#define BIT31 PREEMPT_NEED_RESCHED

static void local_request_folds_at_once(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 depth = 1 + prandom_below(&rs, 3), wait = prandom_below(&rs, 3000);
		if (need_resched())
			schedule();
		for (u32 i = 0; i < depth; i++)
			preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u32 me = raw_smp_processor_id();
		u64 f = local_irq_save();
		u64 sent = st->resched_ipi_sent, recv = st->resched_ipi_received;
		u32 raw0 = preempt_count_raw();
		resched_curr(me);
		u32 raw1 = preempt_count_raw();
		bool tif = tif_need_resched();
		local_irq_restore(f);
		for (u32 i = 0; i < wait; i++)
			cpu_relax(); /* an IPI to ourselves would come now */
		u64 sent_d = st->resched_ipi_sent - sent, recv_d = st->resched_ipi_received - recv;
		for (u32 i = 0; i < depth; i++)
			preempt_enable();
		bool ok = tif && raw0 == (BIT31 | depth) && raw1 == depth && !sent_d && !recv_d;
		if (!ok)
			lab_fail(t, "seed %llu: resched_curr(this CPU) at depth %u: flag %s, count "
				   "0x%x -> 0x%x (expected 0x%x: folded at once), %llu IPIs sent, %llu "
				   "received here (expected none)", (unsigned long long)seed, depth,
				   tif ? "set" : "NOT set", raw0, raw1, depth,
				   (unsigned long long)sent_d, (unsigned long long)recv_d);
	}
}

/* T on X with IRQs off while CPU 0 asks `asks` times. */
struct target {
	volatile int ready, asked;
	u32 delay;
	bool tif;
	u64 recv0, recv;
};

static void target_fn(void *arg)
{
	struct target *g = arg;
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	preempt_disable();
	local_irq_disable();
	g->recv0 = READ_ONCE(st->resched_ipi_received);
	g->ready = 1;
	lab_spin_until(READ_ONCE(g->asked), 20 * NSEC_PER_MSEC);
	g->tif = tif_need_resched();
	local_irq_enable();
	for (u32 i = 0; i < g->delay; i++)
		cpu_relax();
	lab_spin_until(READ_ONCE(st->resched_ipi_received) != g->recv0, NSEC_PER_MSEC);
	for (u32 i = 0; i < 2000; i++)
		cpu_relax(); /* a second IPI would come now */
	g->recv = READ_ONCE(st->resched_ipi_received) - g->recv0;
	preempt_enable();
}

static void remote_request_sends_one_ipi(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no remote request");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		u32 asks = 1 + prandom_below(&rs, 4);
		struct target g = { .delay = prandom_below(&rs, 3000) };
		struct thread *th = thread_create(target_fn, &g, "lab-target", PRIO_NORMAL, 1UL << x);
		lab_spin_until(READ_ONCE(g.ready), 20 * NSEC_PER_MSEC);
		schedule(); /* bit 31 set again, whatever the wake-up left in it */
		preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 sent = st->resched_ipi_sent, avoided = st->resched_ipi_avoided;
		u32 raw0 = preempt_count_raw();
		for (u32 i = 0; i < asks; i++)
			resched_curr(x);
		u32 raw1 = preempt_count_raw();
		u64 sent_d = st->resched_ipi_sent - sent, avoided_d = st->resched_ipi_avoided - avoided;
		preempt_enable();
		g.asked = 1;
		thread_join(th);
		bool ok = g.tif && sent_d == 1 && !avoided_d && g.recv == 1 && raw1 == raw0;
		if (!ok)
			lab_fail(t, "seed %llu: %u requests to busy CPU %u: its thread's flag %s, "
				   "%llu IPIs sent (%llu avoided), %llu received there, this CPU's "
				   "count 0x%x -> 0x%x; expected the flag set, exactly one IPI and this "
				   "CPU's count left alone (a remote request folds nothing here)",
				   (unsigned long long)seed, asks, x, g.tif ? "set" : "NOT set",
				   (unsigned long long)sent_d, (unsigned long long)avoided_d,
				   (unsigned long long)g.recv, raw0, raw1);
	}
}

/* Switch idle= and wait until X idles polling (or not) with no request
 * pending: its idle loop takes the switch at its next wake-up, a tick
 * at the latest (sched/idle.c). */
static bool idle_as(u32 x, bool poll)
{
	WRITE_ONCE(idle_poll, poll);
	struct thread *idle = per_cpu(idle, x);
	u64 want = poll ? _TIF_POLLING_NRFLAG : 0;
	return lab_spin_until(rq_curr(x) == idle &&
				      (READ_ONCE(idle->flags) & (_TIF_POLLING_NRFLAG | _TIF_NEED_RESCHED)) ==
					      want,
			      5 * NSEC_PER_MSEC);
}

/* One request to idle X: IPIs sent and avoided here, how long X took to
 * serve it (its idle thread's flag clear again), in ns, and how many
 * ticks X took meanwhile. False if X had not served it after 5 ms. */
static bool ask_idle(u32 x, u64 *sent_d, u64 *avoided_d, u64 *served_ns, u64 *ticks_d)
{
	struct thread *idle = per_cpu(idle, x);
	preempt_disable();
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	u64 sent = st->resched_ipi_sent, avoided = st->resched_ipi_avoided;
	u64 ticks = READ_ONCE(per_cpu(stats.timer_ticks, x));
	u64 t0 = ktime_get_ns();
	resched_curr(x);
	*sent_d = st->resched_ipi_sent - sent;
	*avoided_d = st->resched_ipi_avoided - avoided;
	preempt_enable();
	bool served = lab_spin_until(!(READ_ONCE(idle->flags) & _TIF_NEED_RESCHED), 5 * NSEC_PER_MSEC);
	*ticks_d = READ_ONCE(per_cpu(stats.timer_ticks, x)) - ticks;
	*served_ns = ktime_get_ns() - t0;
	return served;
}

/* Served without the IPI (or the polling) that should wake X, X waits
 * for its next tick (1 ms, and no idle CPU stops its tick): a late
 * service with a tick of X's before it is that. Time alone cannot tell
 * it from a late IPI: under -icount QEMU runs the vCPUs in turn, and a
 * halted X may get its turn long after the IPI was sent. */
#define SERVED_NS (200 * NSEC_PER_USEC)

static void idle_requests(struct ktest *t, bool poll, u32 stream)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no idle CPU to ask");
	bool saved = idle_poll;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, stream);
		u32 rounds = 1 + prandom_below(&rs, 3);
		for (u32 r = 0; r < rounds; r++) {
			sleep_ns(prandom_below(&rs, 300) * NSEC_PER_USEC);
			if (!idle_as(x, poll)) {
				lab_fail(t, "seed %llu: CPU %u did not go idle (idle=%s) in 5 ms: it runs "
					   "%s, its idle thread's flags 0x%llx", (unsigned long long)seed, x,
					   poll ? "poll" : "halt", rq_curr(x)->name,
					   (unsigned long long)READ_ONCE(per_cpu(idle, x)->flags));
				break;
			}
			u64 sent, avoided, served_ns, ticks;
			bool served = ask_idle(x, &sent, &avoided, &served_ns, &ticks);
			bool woken = served && (served_ns < SERVED_NS || !ticks);
			bool ok = (poll ? !sent && avoided == 1 : sent == 1 && !avoided) && woken;
			if (!ok) {
				char when[64];
				if (served)
					snprintf(when, sizeof(when), "served after %llu us and %llu of its ticks",
						 (unsigned long long)(served_ns / NSEC_PER_USEC),
						 (unsigned long long)ticks);
				else
					snprintf(when, sizeof(when), "NOT served in 5 ms");
				lab_fail(t, "seed %llu round %u: a request to CPU %u idle (idle=%s): "
					   "%llu IPIs sent, %llu avoided, %s (expected %s, served "
					   "before its next tick)", (unsigned long long)seed,
					   r, x, poll ? "poll" : "halt", (unsigned long long)sent,
					   (unsigned long long)avoided, when,
					   poll ? "no IPI: it polls the flag" : "one IPI: it sleeps in hlt");
				break;
			}
		}
	}
	idle_as(x, saved);
}

static void halted_idle_gets_an_ipi(struct ktest *t)
{
	idle_requests(t, false, 3);
}

/* A thread P on X that polls as idle=poll does (TIF_POLLING_NRFLAG set,
 * spinning on the flag), and an interrupt on this CPU, d ns into
 * resched_curr(x), that stops P's polling as an idle loop going to
 * sleep does: it clears P's TIF_POLLING_NRFLAG and, finding no request
 * yet, would halt. From then on only an IPI wakes it: resched_curr()
 * must learn of the polling from the same atomic that sets the flag. */
static struct {
	struct thread *p;
	struct hrtimer timer;
	volatile u32 round, ready;
	volatile int fired, returned, asleep, late;
} pl;

#define PL_STOP 0xffffffffu

static void poller(void *arg)
{
	(void)arg;
	struct thread *me = current_thread();
	for (u32 r; (r = READ_ONCE(pl.round)) != PL_STOP;) {
		__atomic_fetch_or(&me->flags, _TIF_POLLING_NRFLAG, __ATOMIC_SEQ_CST);
		WRITE_ONCE(pl.ready, r);
		while (!need_resched() && READ_ONCE(pl.round) == r)
			cpu_relax();
		__atomic_fetch_and(&me->flags, ~_TIF_POLLING_NRFLAG, __ATOMIC_SEQ_CST);
		if (need_resched())
			schedule();
		while (READ_ONCE(pl.round) == r)
			cpu_relax();
	}
}

static void stop_polling(struct hrtimer *h)
{
	(void)h;
	u64 old = __atomic_fetch_and(&pl.p->flags, ~_TIF_POLLING_NRFLAG, __ATOMIC_SEQ_CST);
	WRITE_ONCE(pl.late, READ_ONCE(pl.returned));
	WRITE_ONCE(pl.asleep, !pl.late && !(old & _TIF_NEED_RESCHED));
	WRITE_ONCE(pl.fired, 1);
}

static void polling_stops_during_the_request(struct ktest *t, u64 seed, u32 x)
{
	pl.round = 0;
	pl.ready = PL_STOP;
	pl.p = thread_create(poller, NULL, "lab-poller", PRIO_NORMAL, 1UL << x);
	hrtimer_init(&pl.timer, stop_polling);
	for (u64 d = 1; d < 20000; d++) {
		WRITE_ONCE(pl.round, (u32)d);
		if (!lab_spin_until(READ_ONCE(pl.ready) == d && rq_curr(x) == pl.p &&
					    !(READ_ONCE(pl.p->flags) & _TIF_NEED_RESCHED), 5 * NSEC_PER_MSEC)) {
			lab_fail(t, "seed %llu: the polling thread on CPU %u did not poll again in 5 "
				   "ms: not your code's doing; rerun the case", (unsigned long long)seed, x);
			break;
		}
		pl.fired = pl.returned = pl.asleep = pl.late = 0;
		preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 sent = st->resched_ipi_sent;
		hrtimer_start(&pl.timer, ktime_get_ns() + d);
		resched_curr(x);
		WRITE_ONCE(pl.returned, 1);
		u64 sent_d = st->resched_ipi_sent - sent;
		preempt_enable();
		lab_spin_until(READ_ONCE(pl.fired), NSEC_PER_MSEC);
		hrtimer_cancel(&pl.timer);
		if (READ_ONCE(pl.asleep) && !sent_d) {
			lab_fail(t, "seed %llu: CPU %u polled TIF_NEED_RESCHED, and stopped %llu ns into "
				   "resched_curr(%u) (an idle loop going to sleep: TIF_POLLING_NRFLAG "
				   "cleared, no request yet): no IPI was sent, so it would sleep with the "
				   "request (expected one: the polling flag read by the same atomic that "
				   "sets TIF_NEED_RESCHED, not before it)", (unsigned long long)seed, x,
				   (unsigned long long)d, x);
			break;
		}
		if (READ_ONCE(pl.late))
			break; /* it came after the return: every boundary before was tried */
	}
	WRITE_ONCE(pl.round, PL_STOP);
	thread_join(pl.p);
}

static void polling_idle_needs_no_ipi(struct ktest *t)
{
	idle_requests(t, true, 4);
	u32 x = lab_cpu_x();
	if (!t->failed && x) /* every boundary, the same for any seed: once */
		polling_stops_during_the_request(t, lab_seed(0), x);
}

LAB_SUITE(lab_l3,
	KTEST_CASE_TIMED(local_request_folds_at_once, 50),
	KTEST_CASE_TIMED(remote_request_sends_one_ipi, 50),
	KTEST_CASE_TIMED(halted_idle_gets_an_ipi, 50),
	KTEST_CASE_TIMED(polling_idle_needs_no_ipi, 50));
