/* Lab L1, the fold (docs/10-labs.md, L1): preempt_fold_need_resched()
 * (kernel/preempt.h) and the RESCHEDULE IPI's work on the owner,
 * preempt_model_scheduler_ipi() (arch/x86_64/preempt/folded.h).
 *
 * A thread T on CPU X holds preemption off and IRQs off while CPU 0 asks
 * X to reschedule: the request must reach T's flags and leave X's count
 * alone (only the owner writes it); when T turns IRQs on, the IPI folds
 * the flag into bit 31 and counts one fold. A bare IPI, with no request
 * behind it, must fold nothing. The host checks the instruction
 * (tools/lab/checks.py: the fold is one unlocked read-modify-write of
 * %gs:8, in scheduler_ipi()). The fold copies the flag and leaves it in
 * the thread: the return to user mode tests the flag, so a request to a
 * CPU running user code must be served at the IPI's return there. Each
 * seed varies the nesting depth, how long T waits before it takes the
 * IPI, the number of rounds, and where in a tick period a request lands. */
#include "tests/labs/lab.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/cpu.h"
#include "kernel/panic.h"
#include "kernel/time/hrtimer.h"
#include "process/process.h"
#include "tests/kernel/user_run.h"
#include "uapi/syscall.h"

#define BIT31 PREEMPT_NEED_RESCHED

static void set_tif(bool on)
{
	struct thread *self = current_thread();
	if (on)
		__atomic_fetch_or(&self->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&self->flags, ~_TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
}

/* The function alone, on this CPU with IRQs off: no flag, no fold; a
 * flag, a fold, at every depth. */
static void fold_copies_the_flag(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 depth = 1 + prandom_below(&rs, 3);
		u64 f;
		/* Start with no request of our own, IRQs off so none comes. */
		for (;;) {
			if (need_resched())
				schedule();
			f = local_irq_save();
			if (!tif_need_resched())
				break;
			local_irq_restore(f);
		}
		for (u32 d = 0; d <= depth; d += depth) {
			for (u32 i = 0; i < d; i++)
				preempt_disable();
			u32 raw0 = preempt_count_raw();
			bool r0 = preempt_fold_need_resched();
			u32 raw1 = preempt_count_raw();
			set_tif(true);
			bool r1 = preempt_fold_need_resched();
			u32 raw2 = preempt_count_raw();
			bool kept = tif_need_resched();
			set_tif(false);
			clear_preempt_need_resched();
			for (u32 i = 0; i < d; i++)
				preempt_enable_no_resched();
			if (r0 || raw1 != raw0) {
				lab_fail(t, "seed %llu, depth %u: with no TIF_NEED_RESCHED, "
					 "preempt_fold_need_resched() returned %d and made the count "
					 "0x%x -> 0x%x: nothing to fold, nothing may change",
					 (unsigned long long)seed, d, r0, raw0, raw1);
				break;
			}
			if (!r1 || raw2 != (raw0 & ~BIT31)) {
				lab_fail(t, "seed %llu, depth %u: with TIF_NEED_RESCHED set, "
					 "preempt_fold_need_resched() returned %d and left the count "
					 "0x%x; expected 1 and 0x%x (bit 31 clear, the depth kept)",
					 (unsigned long long)seed, d, r1, raw2, raw0 & ~BIT31);
				break;
			}
			if (!kept) {
				lab_fail(t, "seed %llu, depth %u: preempt_fold_need_resched() cleared "
					 "TIF_NEED_RESCHED in the thread: the fold copies the flag into "
					 "the count, and the thread keeps it until schedule() serves it "
					 "(exit_to_user_mode() tests the flag, not the count)",
					 (unsigned long long)seed, d);
				break;
			}
		}
		local_irq_restore(f);
	}
}

/* T on X: depth preempt_disable()s, IRQs off, until CPU 0 has asked. */
struct owner {
	u32 depth, delay;
	volatile int ready, asked;
	bool tif_before;
	u32 raw_before, raw_after;
	u64 folds0, recv0, folds, recv;
};

static void owner_fn(void *arg)
{
	struct owner *o = arg;
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	for (u32 i = 0; i < o->depth; i++)
		preempt_disable();
	local_irq_disable();
	o->folds0 = READ_ONCE(st->folds);
	o->recv0 = READ_ONCE(st->resched_ipi_received);
	o->ready = 1;
	lab_spin_until(READ_ONCE(o->asked), 20 * NSEC_PER_MSEC);
	for (u32 i = 0; i < o->delay; i++)
		cpu_relax();
	o->tif_before = tif_need_resched();
	o->raw_before = preempt_count_raw();
	local_irq_enable(); /* the pending IPI is taken here */
	lab_spin_until(READ_ONCE(st->resched_ipi_received) != o->recv0, NSEC_PER_MSEC);
	o->raw_after = preempt_count_raw();
	o->folds = READ_ONCE(st->folds) - o->folds0;
	o->recv = READ_ONCE(st->resched_ipi_received) - o->recv0;
	for (u32 i = 0; i < o->depth; i++)
		preempt_enable();
}

/* One round: a request (or, bare, only the IPI) from here to T on X.
 * Returns what this CPU saw of X's count just after asking. */
static u32 ask_owner(struct owner *o, u32 x, bool bare)
{
	struct thread *th = thread_create(owner_fn, o, "lab-owner", PRIO_NORMAL, 1UL << x);
	lab_spin_until(READ_ONCE(o->ready), 20 * NSEC_PER_MSEC);
	preempt_disable();
	if (bare)
		smp_send_reschedule(x);
	else
		resched_curr(x);
	u32 seen = READ_ONCE(per_cpu(preempt_count, x));
	preempt_enable();
	o->asked = 1;
	thread_join(th);
	return seen;
}

static void ipi_folds_on_owner(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no remote request");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		u32 rounds = 2 + prandom_below(&rs, 3);
		for (u32 r = 0; r < rounds; r++) {
			struct owner o = { .depth = 1 + prandom_below(&rs, 3),
					   .delay = prandom_below(&rs, 4000) };
			u32 seen = ask_owner(&o, x, false);
			if (!o.tif_before)
				lab_fail(t, "seed %llu round %u: the request never set "
					 "TIF_NEED_RESCHED in the flags of X's thread",
					 (unsigned long long)seed, r);
			else if (!(seen & BIT31) || !(o.raw_before & BIT31))
				lab_fail(t, "seed %llu round %u: X's count was 0x%x (CPU 0 read "
					 "0x%x) before X took the IPI: bit 31 was cleared from "
					 "CPU 0; only the owner writes its count, in the IPI",
					 (unsigned long long)seed, r, o.raw_before, seen);
			else if (o.raw_after != o.depth)
				lab_fail(t, "seed %llu round %u: after the RESCHEDULE IPI X's count "
					 "is 0x%x, expected 0x%x (depth %u, bit 31 clear): %s",
					 (unsigned long long)seed, r, o.raw_after, o.depth, o.depth,
					 o.recv ? "the IPI came and did not fold" :
						  "no IPI came in 1 ms");
			else if (o.folds != 1)
				lab_fail(t, "seed %llu round %u: X counted %llu folds for one "
					 "request (its stats' folds), expected 1",
					 (unsigned long long)seed, r, (unsigned long long)o.folds);
			else
				continue;
			break; /* this seed's first failure says it */
		}
	}
}

static void bare_ipi_folds_nothing(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no IPI to send");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 3);
		struct owner o = { .depth = 1 + prandom_below(&rs, 3),
				   .delay = prandom_below(&rs, 4000) };
		ask_owner(&o, x, true);
		if (o.recv != 1 || o.raw_after != (BIT31 | o.depth) || o.folds)
			lab_fail(t, "seed %llu: a RESCHEDULE IPI with no request behind it "
				   "(%llu received) made X's count 0x%x -> 0x%x and counted %llu "
				   "folds: with TIF_NEED_RESCHED clear the fold changes nothing",
				   (unsigned long long)seed, (unsigned long long)o.recv, o.raw_before,
				   o.raw_after, (unsigned long long)o.folds);
	}
}

/* Why it matters: A on X holds preemption off; a FIFO thread B pinned to
 * X is woken from CPU 0. The IPI folds, so A's last preempt_enable()
 * (decl; je) sees 0 and switches to B inside it. */
struct pair {
	volatile int a_ready, b_woken, b_ran;
	int b_before, b_after;
	u32 raw_disabled, spin;
	struct completion go;
};

static void pair_b(void *arg)
{
	struct pair *p = arg;
	wait_for_completion(&p->go);
	p->b_ran = 1;
}

static void pair_a(void *arg)
{
	struct pair *p = arg;
	preempt_disable();
	p->a_ready = 1;
	lab_spin_until(READ_ONCE(p->b_woken), 20 * NSEC_PER_MSEC);
	lab_spin_until(!(preempt_count_raw() & BIT31), 2 * NSEC_PER_MSEC);
	for (u32 i = 0; i < p->spin; i++)
		cpu_relax();
	p->raw_disabled = preempt_count_raw();
	p->b_before = p->b_ran;
	preempt_enable();
	p->b_after = p->b_ran;
}

static void remote_wake_preempts_at_enable(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no remote wake-up");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 4);
		static struct pair p;
		p = (struct pair){ .spin = prandom_below(&rs, 3000) };
		init_completion(&p.go);
		struct thread *b = thread_create(pair_b, &p, "lab-b", 50, 1UL << x);
		sleep_ns(NSEC_PER_MSEC); /* B waits on its completion */
		struct thread *a = thread_create(pair_a, &p, "lab-a", PRIO_NORMAL, 1UL << x);
		lab_spin_until(READ_ONCE(p.a_ready), 20 * NSEC_PER_MSEC);
		complete(&p.go); /* wakes B on X from here: an IPI to X */
		p.b_woken = 1;
		thread_join(a);
		thread_join(b);
		bool ok = p.raw_disabled == 1 && !p.b_before && p.b_after;
		if (!ok)
			lab_fail(t, "seed %llu: A's count with preemption off after the wake-up "
				   "0x%x (expected 0x1: depth 1, folded), B ran %s A's "
				   "preempt_enable() (expected inside it)", (unsigned long long)seed,
				   p.raw_disabled, p.b_before ? "before" : p.b_after ? "inside" : "after");
	}
}

/* The flag, not the count, is what the return to user mode tests
 * (exit_to_user_mode()): a request to a CPU running user code is served
 * at the RESCHEDULE IPI's return there. spin, a user program, runs on X;
 * B, FIFO, waits on X and is woken from CPU 0, anywhere in a tick period.
 * A request lost at the IPI waits for spin's slice (five ticks) to run
 * out, and every one of those ticks is charged to spin; served at the
 * IPI, B runs before spin is charged another tick. Time alone cannot say
 * which: under icount the vCPUs take turns on one clock, so the IPI may
 * reach X hundreds of microseconds after it was sent. A round fails when
 * spin was charged a tick before B ran and B ran late. */
struct user_wake {
	volatile int waiting;
	volatile u64 ran_ns;
	u64 ran_tick, spin_ticks;
	struct thread *spin;
	struct completion go;
};

/* Ticks charged to t, in user mode or in the kernel (scheduler_tick()). */
static u64 ticks_charged(const struct thread *t)
{
	return READ_ONCE(t->utime) + READ_ONCE(t->stime);
}

static void user_wake_b(void *arg)
{
	struct user_wake *w = arg;
	w->waiting = 1;
	wait_for_completion(&w->go);
	w->spin_ticks = ticks_charged(w->spin);
	w->ran_tick = tick_count(raw_smp_processor_id());
	w->ran_ns = ktime_get_ns();
}

#define SERVED_NS (200 * NSEC_PER_USEC)

/* Does the fold fold at all? (Where it does not, as in make lab's
 * skeleton, the IPI's return to user mode is no place to look.) */
static bool fold_folds(void)
{
	u64 f;
	for (;;) {
		if (need_resched())
			schedule();
		f = local_irq_save();
		if (!tif_need_resched())
			break;
		local_irq_restore(f);
	}
	preempt_disable();
	set_tif(true);
	bool folded = preempt_fold_need_resched() && !(preempt_count_raw() & BIT31);
	set_tif(false);
	clear_preempt_need_resched();
	preempt_enable_no_resched();
	local_irq_restore(f);
	return folded;
}

static void user_request_served_at_return(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no remote request");
	if (!user_have(t, "spin"))
		return;
	if (!fold_folds()) {
		lab_fail(t, "preempt_fold_need_resched() does not fold yet (fold_copies_the_flag): "
			   "this case, which needs it, did not run");
		return;
	}
	u64 seed;
	bool failed = false; /* then no other seed: each of its rounds waits for ticks */
	for_each_lab_seed(si, seed) {
		if (failed)
			break;
		struct prandom_state rs;
		prandom_seed(&rs, seed, 5);
		u32 rounds = 2 + prandom_below(&rs, 2);
		const char *argv[] = { "spin" };
		struct spawn_args sa = { "spin", 1, argv, NULL, false, 1UL << x, NULL, 0, NULL };
		int err = 0;
		user_quiet_begin();
		struct process *p = process_spawn(&sa, &err);
		if (!p) {
			user_quiet_end();
			lab_fail(t, "seed %llu: spawn spin: error %d", (unsigned long long)seed, err);
			break;
		}
		struct thread *spin = p->thread;
		for (u32 r = 0; r < rounds; r++) {
			static struct user_wake w;
			w = (struct user_wake){ .spin = spin };
			init_completion(&w.go);
			struct thread *b = thread_create(user_wake_b, &w, "lab-b", 50, 1UL << x);
			/* Spins, not sleeps, on this CPU: a wake-up here must not
			 * depend on the fold (in make lab's skeleton it does not
			 * come until a tick, and slowly). */
			lab_spin_until(READ_ONCE(w.waiting), 20 * NSEC_PER_MSEC);
			lab_spin_until(false, (100 + prandom_below(&rs, 900)) * NSEC_PER_USEC);
			bool user = lab_spin_until(rq_curr(x) == spin, 5 * NSEC_PER_MSEC);
			u64 bugs = bug_reports, tick = tick_count(x), charged = ticks_charged(spin);
			u64 t0 = ktime_get_ns();
			complete(&w.go); /* B is woken on X from here: a RESCHEDULE IPI */
			lab_spin_until(READ_ONCE(w.ran_ns), 10 * NSEC_PER_MSEC);
			lab_spin_until(READ_ONCE(b->state) == THREAD_DEAD, 10 * NSEC_PER_MSEC);
			thread_join(b);
			u64 waited = w.ran_ns ? w.ran_ns - t0 : 0;
			u64 spin_ticks = w.ran_ns ? w.spin_ticks - charged : ticks_charged(spin) - charged;
			/* Late by the clock alone: the IPI's delivery, not the kernel. */
			bool served = w.ran_ns && (waited <= SERVED_NS || !spin_ticks);
			if (user && served && bug_reports == bugs)
				continue;
			lab_fail(t, "seed %llu round %u: B (FIFO) woken on CPU %u as it ran user code%s: "
				   "%s %llu us later, after %llu of its ticks, %llu of them charged to spin "
				   "(expected at the IPI's return to user mode, which tests "
				   "TIF_NEED_RESCHED: before spin's next tick, or within %llu us)%s",
				   (unsigned long long)seed, r, x, user ? "" : " (or so it seemed: spin was not there)",
				   w.ran_ns ? "ran" : "not run", (unsigned long long)(waited / NSEC_PER_USEC),
				   (unsigned long long)(w.ran_ns ? w.ran_tick - tick : tick_count(x) - tick),
				   (unsigned long long)spin_ticks,
				   (unsigned long long)(SERVED_NS / NSEC_PER_USEC),
				   bug_reports != bugs ? "; the kernel reported a return to user mode with "
							 "the count folded" : "");
			failed = true;
			break;
		}
		process_kill(p->pid, SIGKILL);
		lab_spin_until(READ_ONCE(p->state) == PROC_ZOMBIE, 10 * NSEC_PER_MSEC);
		process_wait(p);
		user_quiet_end();
	}
}

LAB_SUITE(lab_l1,
	KTEST_CASE_TIMED(fold_copies_the_flag, 50),
	KTEST_CASE_TIMED(ipi_folds_on_owner, 50),
	KTEST_CASE_TIMED(bare_ipi_folds_nothing, 50),
	KTEST_CASE_TIMED(remote_wake_preempts_at_enable, 50),
	KTEST_CASE_TIMED(user_request_served_at_return, 50));
