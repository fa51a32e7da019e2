/* Lab L7, the return to user mode (docs/10-labs.md, L7): the work loop
 * exit_to_user_mode_loop() (kernel/entry/common.c), after Linux's.
 *
 * Four cases call the loop themselves, from the case's thread on CPU 0,
 * as exit_to_user_mode() does: IRQs off, work set in the thread's flags.
 * What happens while it runs is arranged beforehand: a timer interrupt
 * left pending (its deadline passed with IRQs off, so it comes at the
 * loop's first sti, SDM Vol. 3A 6.8.3: after the next instruction), or a
 * thread woken on this CPU that schedule() will run. The thread is a
 * kernel thread: a signal's work there is the clear alone (no process to
 * end). Two cases run the user program `spin` on CPU X and put work on
 * it, a kill from CPU 0 or a lazy request from a function X runs: the
 * IPI's return to ring 3 passes the loop. Each seed varies the timer's
 * deadline, the work, the moment of the request. */
#include "tests/labs/lab.h"
#include "tests/kernel/user_run.h"
#include "kernel/entry/common.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"
#include "process/process.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "uapi/syscall.h"

#define RESCHED_WORK (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)

/* The loop called here, and what came while it ran. */
static struct {
	struct thread *t;
	struct hrtimer timer;
	u64 add;                  /* the flags the interrupt sets on t */
	u64 flags_seen;           /* t's flags when it came */
	u64 rip;                  /* where it came */
	bool shadow;              /* right after sti's one-instruction shadow */
	volatile int fired, returned, fired_in_loop;
} lp;

struct loop_out {
	bool irqs_off;            /* when the loop returned */
	u64 left;                 /* EXIT_TO_USER_MODE_WORK set then */
	bool fired_in_loop;       /* the interrupt came before the return */
	bool shadow;              /* ... at the end of an sti's shadow */
	u64 rip;
	u64 flags_seen;
	u64 bugs;                 /* the kernel's bug reports meanwhile */
};

/* Did the interrupt come right after a locked instruction that followed
 * an sti? An interrupt pending at sti is recognized only after the next
 * instruction (SDM Vol. 2B, STI; Vol. 3A 6.8.3), which runs with IF set
 * already: `sti; lock andq` clears the flag with IRQs on, in C as
 * `local_irq_enable(); __atomic_fetch_and()`. The instruction before the
 * interrupted one is found by its two first bytes, sti (0xfb) and the
 * lock prefix (0xf0), at most 15 bytes (one instruction) before. */
static bool after_sti_shadow(u64 rip)
{
	const u8 *p = (const u8 *)rip;
	for (u32 k = 2; k <= 16; k++)
		if (p[-(long)k] == 0xfb && p[1 - (long)k] == 0xf0)
			return true;
	return false;
}

static void loop_irq(struct hrtimer *h)
{
	(void)h;
	struct pt_regs *regs = this_cpu_read(irq_regs);
	lp.rip = regs ? regs->rip : 0;
	lp.shadow = regs && after_sti_shadow(regs->rip);
	lp.flags_seen = READ_ONCE(lp.t->flags);
	WRITE_ONCE(lp.fired_in_loop, !READ_ONCE(lp.returned));
	if (lp.add)
		__atomic_fetch_or(&lp.t->flags, lp.add, __ATOMIC_SEQ_CST);
	WRITE_ONCE(lp.fired, 1);
}

/* With IRQs off: if irq_ns, a timer interrupt due in irq_ns is left
 * pending (or, with `during`, armed to come irq_ns later, as the loop
 * runs), which sets `add` on this thread when it comes; before() runs;
 * `work` is set in this thread's flags; then exit_to_user_mode_loop().
 * Whatever a wrong loop left undone is done after, so that the next
 * round starts clean. */
static struct loop_out run_loop(u64 work, u64 irq_ns, u64 add, void (*before)(void),
				bool during)
{
	struct loop_out o = { 0 };
	struct thread *me = current_thread();
	lp.t = me;
	lp.add = add;
	lp.flags_seen = lp.rip = 0;
	lp.shadow = false;
	lp.fired = lp.returned = lp.fired_in_loop = 0;
	hrtimer_init(&lp.timer, loop_irq);
	u64 bugs = bug_reports;
	local_irq_disable();
	if (irq_ns) {
		u64 at = ktime_get_ns() + irq_ns;
		hrtimer_start(&lp.timer, at);
		while (!during && ktime_get_ns() < at + 5 * NSEC_PER_USEC)
			cpu_relax();
	}
	if (before)
		before();
	__atomic_fetch_or(&me->flags, work, __ATOMIC_SEQ_CST);
	exit_to_user_mode_loop(me);
	WRITE_ONCE(lp.returned, 1);
	o.irqs_off = irqs_disabled();
	o.left = READ_ONCE(me->flags) & EXIT_TO_USER_MODE_WORK;
	local_irq_enable();
	if (irq_ns) {
		lab_spin_until(READ_ONCE(lp.fired), NSEC_PER_MSEC);
		hrtimer_cancel(&lp.timer);
	}
	__atomic_fetch_and(&me->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);
	if (READ_ONCE(me->flags) & RESCHED_WORK)
		schedule();
	o.fired_in_loop = READ_ONCE(lp.fired_in_loop);
	o.flags_seen = lp.flags_seen;
	o.shadow = lp.shadow;
	o.rip = lp.rip;
	o.bugs = bug_reports - bugs;
	return o;
}

static const char *work_name(u64 w)
{
	switch (w) {
	case _TIF_SIGPENDING: return "TIF_SIGPENDING";
	case _TIF_NEED_RESCHED: return "TIF_NEED_RESCHED";
	case _TIF_NEED_RESCHED_LAZY: return "TIF_NEED_RESCHED_LAZY";
	case _TIF_SIGPENDING | _TIF_NEED_RESCHED: return "TIF_SIGPENDING|TIF_NEED_RESCHED";
	default: return "work";
	}
}

static const u64 works[] = { _TIF_SIGPENDING, _TIF_NEED_RESCHED, _TIF_NEED_RESCHED_LAZY,
			     _TIF_SIGPENDING | _TIF_NEED_RESCHED };
#define NWORKS (sizeof(works) / sizeof(works[0]))

/* 1..4 us: the timer's deadline, passed with IRQs off before the loop. */
static u64 irq_delay(struct prandom_state *rs)
{
	return (1 + prandom_below(rs, 4)) * NSEC_PER_USEC;
}

/* The work runs with IRQs on: an interrupt pending when the loop starts
 * comes before any of the work is done. */
static void work_runs_with_irqs_on(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		for (u32 i = 0; i < NWORKS; i++) {
			u64 w = works[(i + seed) % NWORKS];
			struct loop_out o = run_loop(w, irq_delay(&rs), 0, NULL, false);
			/* none done; or the signal's clear alone, in sti's shadow */
			u64 seen = o.flags_seen | (o.shadow ? _TIF_SIGPENDING : 0);
			if (o.fired_in_loop && (seen & w) == w && !o.bugs)
				continue;
			lab_fail(t, "seed %llu: the loop entered with %s and a timer interrupt pending: "
				   "%s (expected: at once, with all of the work still to do: the work "
				   "runs with IRQs on)%s", (unsigned long long)seed, work_name(w),
				   !o.fired_in_loop ? "it came only after the loop returned" :
				   (o.flags_seen & w) != w ? "it came with some of the work done already" :
				   "it came in time",
				   o.bugs ? "; the kernel reported a bug meanwhile (schedule() with IRQs "
					    "off?)" : "");
			return;
		}
	}
}

/* The flags are read again after each round of work: a request or a
 * signal that comes while the work runs is served before the return. */
static void request_during_work_served_before_return(struct ktest *t)
{
	static const u64 pairs[][2] = {
		{ _TIF_SIGPENDING, _TIF_NEED_RESCHED },
		{ _TIF_SIGPENDING, _TIF_NEED_RESCHED_LAZY },
		{ _TIF_NEED_RESCHED_LAZY, _TIF_SIGPENDING },
		{ _TIF_NEED_RESCHED, _TIF_SIGPENDING },
	};
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		for (u32 i = 0; i < 4; i++) {
			const u64 *p = pairs[(i + seed) % 4];
			struct loop_out o = run_loop(p[0], irq_delay(&rs), p[1], NULL, false);
			if (o.fired_in_loop && !o.left)
				continue;
			lab_fail(t, "seed %llu: the loop entered with %s; an interrupt set %s as that "
				   "work ran: %s (expected none: the loop reads the flags again after "
				   "each round of work)", (unsigned long long)seed, work_name(p[0]),
				   work_name(p[1]), !o.fired_in_loop ?
				   "the interrupt came only after the loop returned (IRQs off all along)" :
				   o.left == p[1] ? "the loop returned with it still set" :
				   "the loop returned with work still set");
			return;
		}
		/* And an interrupt at every instruction boundary of a loop that
		 * clears a signal: armed d ns ahead, d = 0, 1, 2, ... until it
		 * comes after the return. One that comes after the last read of
		 * the flags is left to the next entry into the kernel. */
		u64 add = _TIF_NEED_RESCHED;
		for (u64 d = 0; d < 20000; d++) {
			struct loop_out o = run_loop(_TIF_SIGPENDING, d + 1, add, NULL, true);
			if (!o.fired_in_loop && d > 0)
				break;
			if (!o.fired_in_loop || !o.left)
				continue;
			lab_fail(t, "seed %llu: the loop entered with TIF_SIGPENDING; an interrupt "
				   "%llu ns into it, at 0x%llx, set %s: the loop returned with it still "
				   "set (expected none: the last read of the flags is made with IRQs "
				   "off, and an interrupt before it is seen by it)",
				   (unsigned long long)seed, (unsigned long long)d,
				   (unsigned long long)o.rip, work_name(add));
			return;
		}
	}
}

/* A signal set while schedule() runs another thread is seen before the
 * return: the flags are read again after schedule(). */
static struct {
	struct completion go;
	struct thread *target;
	volatile int waiting, ran_in_loop;
} sg;

static void signaller(void *arg)
{
	(void)arg;
	WRITE_ONCE(sg.waiting, 1);
	wait_for_completion(&sg.go);
	WRITE_ONCE(sg.ran_in_loop, !READ_ONCE(lp.returned));
	__atomic_fetch_or(&sg.target->flags, _TIF_SIGPENDING, __ATOMIC_SEQ_CST);
}

static void wake_signaller(void)
{
	complete(&sg.go); /* runnable on this CPU: schedule() picks it */
}

static void signal_set_while_scheduling_is_seen(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		for (u32 lazy = 0; lazy < 2; lazy++) {
			u64 w = (seed + lazy) % 2 ? _TIF_NEED_RESCHED_LAZY : _TIF_NEED_RESCHED;
			init_completion(&sg.go);
			sg.target = current_thread();
			sg.waiting = sg.ran_in_loop = 0;
			lp.returned = 0;
			struct thread *s = thread_create(signaller, NULL, "lab-l7-sig", PRIO_NORMAL,
							 1UL << raw_smp_processor_id());
			while (!READ_ONCE(sg.waiting))
				schedule(); /* until it waits on sg.go */
			struct loop_out o = run_loop(w, 0, 0, wake_signaller, false);
			thread_join(s);
			if (READ_ONCE(sg.ran_in_loop) && !o.left)
				continue;
			lab_fail(t, "seed %llu: the loop entered with %s; the thread its schedule() ran "
				   "set TIF_SIGPENDING: %s (expected it cleared before the return: the "
				   "flags are read again after schedule())", (unsigned long long)seed,
				   work_name(w), !READ_ONCE(sg.ran_in_loop) ?
				   "that thread ran only after the loop returned (no schedule() there)" :
				   "the loop returned with it still set");
			return;
		}
	}
}

/* The loop returns with IRQs off, whatever work it did: the return to
 * ring 3 (sysretq, iretq) must not take an interrupt between the last
 * test of the flags and user code. */
static void loop_returns_with_irqs_off(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 4);
		for (u32 i = 0; i < 2 * NWORKS; i++) {
			u64 w = works[(i + seed) % NWORKS];
			u64 irq = i < NWORKS ? 0 : irq_delay(&rs);
			struct loop_out o = run_loop(w, irq, i < NWORKS ? 0 : _TIF_NEED_RESCHED, NULL,
						     false);
			if (o.irqs_off && !o.bugs)
				continue;
			lab_fail(t, "seed %llu: the loop entered with %s%s returned with IRQs %s%s",
				   (unsigned long long)seed, work_name(w),
				   irq ? " and an interrupt pending (which set TIF_NEED_RESCHED)" : "",
				   o.irqs_off ? "off" : "on (expected off: local_irq_disable() before "
				   "each read of the flags, the last one too)",
				   o.bugs ? "; the kernel reported a bug meanwhile (schedule() with IRQs "
					    "off?)" : "");
			return;
		}
	}
}

/* spin on CPU x, running (in user mode from its first tick on). */
static struct process *start_spin(struct ktest *t, u64 seed, u32 x)
{
	const char *argv[] = { "spin" };
	struct spawn_args sa = { "spin", 1, argv, NULL, false, 1UL << x, NULL, 0, NULL };
	int err = 0;
	struct process *p = process_spawn(&sa, &err);
	if (!p) {
		lab_fail(t, "seed %llu: spawn spin: error %d", (unsigned long long)seed, err);
		return NULL;
	}
	lab_spin_until(rq_curr(x) == p->thread, 20 * NSEC_PER_MSEC);
	return p;
}

/* The lazy request, put on spin by a timer of CPU X that interrupts it
 * in user mode, at a point of X's own between two ticks: under icount
 * QEMU runs X until the next timer deadline of any CPU, so that an IPI
 * from CPU 0 would find X where its own tick last stopped it, the tick
 * pending. The timer's interrupt returns to ring 3 through the loop. */
static struct {
	struct thread *spin;
	struct hrtimer timer;
	u64 promoted0, delay;
	volatile int put, fired;
} lz;

static void lazy_fn(struct hrtimer *h)
{
	(void)h;
	struct thread *me = current_thread();
	if (me == lz.spin) {
		lz.promoted0 = this_cpu_ptr()->stats.lazy_promoted;
		__atomic_fetch_or(&me->flags, _TIF_NEED_RESCHED_LAZY, __ATOMIC_SEQ_CST);
		WRITE_ONCE(lz.put, 1);
	}
	WRITE_ONCE(lz.fired, 1);
}

static void arm_lazy(void *arg)
{
	(void)arg;
	hrtimer_init(&lz.timer, lazy_fn);
	hrtimer_start(&lz.timer, ktime_get_ns() + lz.delay);
}

/* In lazy mode, a lazy request for a thread in user mode is served at
 * the next return to ring 3 (here the IPI's that put it), not at the
 * next tick, which would promote it (lazy_promoted). */
static void lazy_request_served_at_return_to_user(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: the request comes from another");
	if (!user_have(t, "spin"))
		return;
	int saved = preempt_mode;
	if (preempt_mode_set(PREEMPT_MODE_LAZY))
		KT_SKIP(t, "no lazy mode in this build");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 5);
		user_quiet_begin();
		struct process *p = start_spin(t, seed, x);
		if (!p) {
			user_quiet_end();
			break;
		}
		lz.spin = p->thread;
		bool served = false;
		u64 promoted = 0;
		/* Again if a tick came between the request and its service (it
		 * may have promoted it) or spin was not there. */
		for (u32 i = 0; i < 4; i++) {
			lz.put = lz.fired = 0;
			lz.delay = (200 + prandom_below(&rs, 500)) * NSEC_PER_USEC;
			lab_spin_until(rq_curr(x) == lz.spin, NSEC_PER_MSEC);
			smp_call_function_single(x, arm_lazy, NULL, true);
			lab_spin_until(READ_ONCE(lz.fired), 3 * NSEC_PER_MSEC);
			hrtimer_cancel(&lz.timer);
			if (!lz.put)
				continue;
			served = lab_spin_until(!(READ_ONCE(lz.spin->flags) & _TIF_NEED_RESCHED_LAZY),
						3 * NSEC_PER_MSEC);
			promoted = per_cpu(stats.lazy_promoted, x) - lz.promoted0;
			if (!served || !promoted)
				break;
		}
		process_kill(p->pid, SIGKILL);
		process_wait(p);
		user_quiet_end();
		if (!lz.put) {
			lab_fail(t, "seed %llu: spin was never found in user mode on CPU %u: not "
				 "your code's doing; rerun the case", (unsigned long long)seed, x);
			break;
		}
		if (served && !promoted)
			continue;
		lab_fail(t, "seed %llu: TIF_NEED_RESCHED_LAZY set on spin, in user mode on CPU %u, by "
			   "a timer's interrupt between two ticks: %s (expected: served at that "
			   "interrupt's return to user mode, before any tick: schedule() for either "
			   "reschedule flag)",
			   (unsigned long long)seed, x,
			   !served ? "not served 3 ms later" :
			   "served only once the tick had promoted it (lazy_promoted), 4 times");
		break;
	}
	preempt_mode_set(saved);
}

/* A kill ends a process that runs user code at the return to ring 3 of
 * the IPI it sends: spin, which never makes a system call, dies at once,
 * of the signal. */
static void kill_ends_the_process_at_return(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: the kill comes from another");
	if (!user_have(t, "spin"))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 6);
		int sig = prandom_below(&rs, 2) ? SIGKILL : SIGTERM, status = 0;
		bool running = false, dead = false;
		/* Again if spin was not running on X when the kill came. */
		for (u32 attempt = 0; attempt < 3 && !running; attempt++) {
			user_quiet_begin();
			struct process *p = start_spin(t, seed, x);
			if (!p) {
				user_quiet_end();
				return;
			}
			lab_spin_until(false, (50 + prandom_below(&rs, 300)) * NSEC_PER_USEC);
			running = rq_curr(x) == p->thread;
			process_kill(p->pid, sig);
			dead = lab_spin_until(READ_ONCE(p->state) == PROC_ZOMBIE, 3 * NSEC_PER_MSEC);
			if (!dead)
				process_kill(p->pid, SIGKILL); /* again: the loop may have cleared the flag */
			bool reaped = dead || lab_spin_until(READ_ONCE(p->state) == PROC_ZOMBIE,
							     5 * NSEC_PER_MSEC);
			status = reaped ? process_wait(p) : 0;
			user_quiet_end();
		}
		if (!running) {
			lab_fail(t, "seed %llu: spin never ran on CPU %u (another thread kept it): not "
				 "your code's doing; rerun the case", (unsigned long long)seed, x);
			break;
		}
		if (dead && WIFSIGNALED(status) && WTERMSIG(status) == sig)
			continue;
		lab_fail(t, "seed %llu: spin, in user mode on CPU %u, killed with signal %d: %s "
			   "(expected it dead of signal %d at the IPI's return to user mode: a "
			   "fatal signal pending ends the process there)%s",
			   (unsigned long long)seed, x, sig,
			   !dead ? "still running 3 ms later" : "dead", sig,
			   !dead ? "" : ", but its exit status does not say so");
		break;
	}
}

LAB_SUITE(lab_l7,
	KTEST_CASE_TIMED(work_runs_with_irqs_on, 50),
	KTEST_CASE_TIMED(request_during_work_served_before_return, 50),
	KTEST_CASE_TIMED(signal_set_while_scheduling_is_seen, 50),
	KTEST_CASE_TIMED(loop_returns_with_irqs_off, 50),
	KTEST_CASE_TIMED(lazy_request_served_at_return_to_user, 50),
	KTEST_CASE_TIMED(kill_ends_the_process_at_return, 50));
