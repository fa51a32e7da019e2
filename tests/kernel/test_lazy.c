/* The lazy suite: PREEMPT=lazy's requests (Linux's PREEMPT_LAZY).
 *
 * On CPU X a normal hog H loops with no preemption point; a thread W
 * waits there on a completion. Something wakes W:
 *   - a timer on X (hardirq on X, so the request is local), or
 *   - another CPU (a remote request: in full mode it sends an IPI).
 * What the wake-up asks of H, and when W gets X, tells the modes apart:
 *   lazy, W normal   TIF_NEED_RESCHED_LAZY only: no fold, no IPI; W runs
 *                    at the next tick of X (which promotes the request),
 *                    not before
 *   lazy, W FIFO     TIF_NEED_RESCHED, folded at once: W runs at the exit
 *                    of the waking interrupt, before the next tick
 *   full, W normal   the same as FIFO: the request is full
 *   lazy, H in user mode (the spin program), W normal: the lazy flag
 *                    only, but the timer interrupt's return to user mode
 *                    honours it: W runs before the next tick
 * The ticks are counted on X (tick_count()), so "not before a tick" does
 * not depend on the host's speed. "At the first tick" and the time bounds
 * do: wall-clock TCG may stall X's vCPU for a whole tick period between
 * the promoting tick and W's first instruction (the next tick then lands
 * first), so they are checked under clock=icount only. */
#include "tests/kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "kernel/time/hrtimer.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"
#include "kernel/smp.h"
#include "boot/module.h"
#include "process/process.h"
#include "uapi/syscall.h" /* SIGKILL */
#include "tests/kernel/user_run.h"
#include "kernel/entry/common.h"
#include "arch/x86_64/cpu.h"

struct lazy_scenario {
	u32 cpu;                  /* X */
	bool from_timer;          /* wake W from a timer on X, else from here */
	struct hrtimer timer;
	struct completion go;
	struct thread *hog;
	volatile int hog_running, stop, w_waiting;
	/* at the wake-up */
	u64 wake_ns, tick_before, tick_after;
	u64 hog_flags;            /* H's flags just after */
	bool in_user;             /* the timer interrupted ring 3 */
	u32 raw_before, raw_after; /* the waking CPU's raw count around it */
	u64 ipi_sent, lazy_made;  /* the waking CPU's counters: deltas */
	/* on X from H's start to W's run: deltas */
	u64 recv0, folds0, promoted0;
	u64 ipi_received, folds, promoted;
	/* when W ran */
	u64 run_ns, run_tick;
	bool no_thread;            /* W or H could not be made (no stack or memory) */
};
static struct lazy_scenario ls;

static u64 period_ns(void)
{
	return NSEC_PER_SEC / tick_hz;
}

/* The wake-up, in the timer's hardirq on X or in a thread elsewhere. */
static void wake_w(void)
{
	u32 me = raw_smp_processor_id();
	u64 f = local_irq_save();
	u64 sent = per_cpu(stats.resched_ipi_sent, me);
	u64 made = per_cpu(stats.resched_lazy, me);
	ls.raw_before = preempt_count_raw();
	ls.tick_before = tick_count(ls.cpu);
	ls.wake_ns = ktime_get_ns();
	complete(&ls.go);
	ls.hog_flags = READ_ONCE(ls.hog->flags);
	ls.raw_after = preempt_count_raw();
	ls.tick_after = tick_count(ls.cpu);
	ls.ipi_sent = per_cpu(stats.resched_ipi_sent, me) - sent;
	ls.lazy_made = per_cpu(stats.resched_lazy, me) - made;
	local_irq_restore(f);
}

static void timer_fn(struct hrtimer *t)
{
	(void)t;
	struct pt_regs *regs = this_cpu_read(irq_regs);
	ls.in_user = regs && user_mode(regs);
	wake_w();
}

static void hog_fn(void *arg)
{
	(void)arg;
	ls.hog = current_thread();
	ls.recv0 = per_cpu(stats.resched_ipi_received, ls.cpu);
	ls.folds0 = per_cpu(stats.folds, ls.cpu);
	ls.promoted0 = per_cpu(stats.lazy_promoted, ls.cpu);
	ls.hog_running = 1;
	if (ls.from_timer) {
		/* Just after a tick of X, a timer for the middle of the next
		 * period but one: H is X's current thread then, and the wake-up
		 * is half a period from either tick. */
		u64 t0 = tick_count(ls.cpu);
		while (tick_count(ls.cpu) == t0)
			cpu_relax();
		preempt_disable();
		hrtimer_start(&ls.timer, ktime_get_ns() + period_ns() + period_ns() / 2);
		preempt_enable();
	}
	while (!READ_ONCE(ls.stop))
		cpu_relax();
}

static void waiter_fn(void *arg)
{
	(void)arg;
	ls.w_waiting = 1;
	wait_for_completion(&ls.go);
	ls.run_tick = tick_count(ls.cpu);
	ls.run_ns = ktime_get_ns();
	ls.ipi_received = per_cpu(stats.resched_ipi_received, ls.cpu) - ls.recv0;
	ls.folds = per_cpu(stats.folds, ls.cpu) - ls.folds0;
	ls.promoted = per_cpu(stats.lazy_promoted, ls.cpu) - ls.promoted0;
	ls.stop = 1;
}

static u32 test_cpu(void)
{
	return nr_cpus_online > 1 ? nr_cpus_online - 1 : 0;
}

/* W (prio w_prio) waits on X, H hogs X, the wake-up comes; both end. */
static void run_scenario(int w_prio, bool from_timer)
{
	ls = (struct lazy_scenario){ .cpu = test_cpu(), .from_timer = from_timer };
	init_completion(&ls.go);
	hrtimer_init(&ls.timer, timer_fn);
	u64 mask = 1UL << ls.cpu;
	struct thread *w = thread_create(waiter_fn, NULL, "lazy-w", w_prio, mask);
	ls.no_thread = !w;
	if (!w)
		return;
	while (!READ_ONCE(ls.w_waiting))
		sleep_ns(100 * NSEC_PER_USEC);
	sleep_ns(NSEC_PER_MSEC); /* W now sleeps in wait_for_completion() */
	struct thread *h = thread_create(hog_fn, NULL, "lazy-hog", PRIO_NORMAL, mask);
	if (!h) {
		ls.no_thread = true;
		complete(&ls.go);
		thread_join(w);
		return;
	}
	if (!from_timer) {
		while (!READ_ONCE(ls.hog_running))
			cpu_relax();
		sleep_ns(NSEC_PER_MSEC);
		wake_w();
	}
	thread_join(w);
	thread_join(h);
}

/* The user-mode hog: H is the spin program's thread, in ring 3. The
 * timer is armed on X from here, half a period after a tick of X. */
static void arm_on_x(void *arg)
{
	(void)arg;
	hrtimer_start(&ls.timer, ktime_get_ns() + period_ns() + period_ns() / 2);
}

static bool run_user_scenario(struct ktest *t)
{
	ls = (struct lazy_scenario){ .cpu = test_cpu(), .from_timer = true };
	init_completion(&ls.go);
	hrtimer_init(&ls.timer, timer_fn);
	u64 mask = 1UL << ls.cpu;
	struct thread *w = thread_create(waiter_fn, NULL, "lazy-w", PRIO_NORMAL, mask);
	if (!w) /* no kernel stack or memory left */
		return KT_EXPECT(t, w);
	while (!READ_ONCE(ls.w_waiting))
		sleep_ns(100 * NSEC_PER_USEC);
	sleep_ns(NSEC_PER_MSEC);
	user_quiet_begin();
	const char *argv[] = { "spin" };
	struct spawn_args a = { "spin", 1, argv, NULL, false, mask, NULL, 0, NULL };
	int err = 0;
	struct process *p = process_spawn(&a, &err);
	if (!p) {
		user_quiet_end();
		KT_EXPECT_EQ(t, err, 0);
		ls.stop = 1;
		complete(&ls.go);
		thread_join(w);
		return false;
	}
	ls.hog = p->thread;
	/* Until a tick has seen the spin in ring 3 on X. */
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (READ_ONCE(p->thread->utime) == 0 && ktime_get_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
	ls.recv0 = per_cpu(stats.resched_ipi_received, ls.cpu);
	ls.folds0 = per_cpu(stats.folds, ls.cpu);
	ls.promoted0 = per_cpu(stats.lazy_promoted, ls.cpu);
	u64 t0 = tick_count(ls.cpu);
	while (tick_count(ls.cpu) == t0)
		cpu_relax();
	smp_call_function_single(ls.cpu, arm_on_x, NULL, true);
	thread_join(w);
	process_kill(p->pid, SIGKILL);
	process_wait(p);
	user_quiet_end();
	return true;
}

static void report(struct ktest *t, const char *what)
{
	KT_EXPECT(t, !ls.no_thread);
	ktest_diag(t, "%s, %s: W ran %llu ns after the wake-up, ticks on X %llu..%llu then %llu; "
		   "H's flags 0x%llx, count 0x%x -> 0x%x, IPIs sent %llu, lazy requests %llu, "
		   "promoted %llu, folds on X %llu",
		   preempt_mode_name(preempt_mode), what,
		   (unsigned long long)(ls.run_ns - ls.wake_ns),
		   (unsigned long long)ls.tick_before, (unsigned long long)ls.tick_after,
		   (unsigned long long)ls.run_tick, (unsigned long long)ls.hog_flags,
		   ls.raw_before, ls.raw_after, (unsigned long long)ls.ipi_sent,
		   (unsigned long long)ls.lazy_made, (unsigned long long)ls.promoted,
		   (unsigned long long)ls.folds);
}

/* Switch to `mode` for one case; false (and the case skipped) if this
 * count model cannot run it. */
static bool enter_mode(struct ktest *t, int mode, int *saved)
{
	*saved = preempt_mode;
	if (preempt_mode_set(mode) == 0)
		return true;
	KT_EXPECT(t, !preempt_mode_valid(mode)); /* refused only when invalid */
	return false;
}

/* A normal wake-up in lazy mode: the lazy flag only, no fold (the count
 * is as it was), and W gets X at the next tick of X, not before. */
static void check_deferred(struct ktest *t)
{
	/* A remote waker reads H's flags after complete(). If a tick of X
	 * came in between (tick_after moved: its count goes up before
	 * scheduler_tick() promotes), the flags may show the promotion or,
	 * X having served it, nothing: on the wall clock when the waker's
	 * vCPU stalls, and under icount too, where TCG runs X's vCPU at its
	 * tick's deadline before the waker's next instruction (seen once in
	 * ti-lazy-smp4: ticks 1019..1020, flags 0, promoted 1). lazy_made and
	 * promoted below still say what happened. */
	if (ls.from_timer || ls.tick_after == ls.tick_before) {
		KT_EXPECT(t, ls.hog_flags & _TIF_NEED_RESCHED_LAZY);
		KT_EXPECT(t, !(ls.hog_flags & _TIF_NEED_RESCHED));
	}
	KT_EXPECT_EQ(t, ls.lazy_made, 1);
	KT_EXPECT_EQ(t, ls.raw_after, ls.raw_before);  /* nothing folded */
	KT_EXPECT_EQ(t, ls.ipi_sent, 0);
	KT_EXPECT_EQ(t, ls.folds, 0);
	KT_EXPECT_OP(t, ls.promoted, >=, 1);
	KT_EXPECT_OP(t, ls.run_tick, >, ls.tick_before); /* not before a tick */
	if (clock_icount) {
		KT_EXPECT_OP(t, ls.run_tick, <=, ls.tick_after + 1); /* the first one */
		KT_EXPECT_OP(t, ls.run_ns - ls.wake_ns, <=, period_ns() + 100 * NSEC_PER_USEC);
	}
}

/* A full request: flag and fold at the wake-up, W on X before the tick. */
static void check_immediate(struct ktest *t)
{
	/* A timer on X reads H's flags inside X's own interrupt, before X
	 * can act on them. A remote waker reads them after complete(), and
	 * X may have served the request by then (flags 0): under wall-clock
	 * TCG when the waker's vCPU stalls, and under icount when a timer's
	 * deadline ends the waker's slice and TCG runs X's vCPU, IPI pending,
	 * first (as in check_deferred()). No lazy request and the IPI
	 * (checked by the caller) still say it was a full one. */
	if (ls.from_timer || ls.hog_flags)
		KT_EXPECT(t, ls.hog_flags & _TIF_NEED_RESCHED);
	KT_EXPECT(t, !(ls.hog_flags & _TIF_NEED_RESCHED_LAZY));
	KT_EXPECT_EQ(t, ls.lazy_made, 0);
	if (ls.from_timer && PREEMPT_FOLDS_RESCHED) /* local: folded at once */
		KT_EXPECT_EQ(t, ls.raw_after, ls.raw_before & ~PREEMPT_NEED_RESCHED);
	/* Before the next tick. Under wall-clock TCG the host may delay the
	 * IPI or the switch past a tick falling due: only icount says. */
	if (clock_icount) {
		KT_EXPECT_EQ(t, ls.run_tick, ls.tick_after);
		KT_EXPECT_OP(t, ls.run_ns - ls.wake_ns, <, period_ns() / 4);
	}
}

static void lazy_normal_wakeup_waits_for_tick(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		KT_SKIP(t, "COUNT=%s has no lazy mode", preempt_model_name());
	run_scenario(PRIO_NORMAL, true);
	report(t, "normal W, woken by a timer on X");
	preempt_mode_set(saved);
	check_deferred(t);
}

static void lazy_normal_remote_wakeup_sends_no_ipi(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU");
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		KT_SKIP(t, "COUNT=%s has no lazy mode", preempt_model_name());
	run_scenario(PRIO_NORMAL, false);
	report(t, "normal W, woken from another CPU");
	preempt_mode_set(saved);
	check_deferred(t);
	KT_EXPECT_EQ(t, ls.ipi_received, 0);
}

static void lazy_fifo_wakeup_preempts_at_once(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		KT_SKIP(t, "COUNT=%s has no lazy mode", preempt_model_name());
	run_scenario(80, true);
	report(t, "FIFO W, woken by a timer on X");
	check_immediate(t);
	if (nr_cpus_online > 1) {
		run_scenario(80, false);
		report(t, "FIFO W, woken from another CPU");
		check_immediate(t);
		KT_EXPECT_EQ(t, ls.ipi_sent, 1); /* the RESCHEDULE IPI, as in full */
	}
	preempt_mode_set(saved);
}

/* The return to user mode acts on the lazy flag (EXIT_TO_USER_MODE_WORK):
 * a normal wake-up where a user program runs switches at the waking
 * interrupt's return to ring 3, not at the next tick. */
static void lazy_user_hog_switches_at_return_to_user(struct ktest *t)
{
	if (!module_find("spin"))
		KT_SKIP(t, "no user program 'spin' in this ISO");
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		KT_SKIP(t, "COUNT=%s has no lazy mode", preempt_model_name());
	/* A wake-up that struck H in the kernel (a tick, a page fault of
	 * its first run: the host's timing under wall-clock TCG) says
	 * nothing about the return to user mode: again, up to 5 times. */
	bool ran = false;
	for (int attempt = 0; attempt < 5; attempt++) {
		ran = run_user_scenario(t);
		if (!ran || ls.in_user)
			break;
	}
	if (ran)
		report(t, ls.in_user ? "normal W, woken by a timer on X, H in user mode"
				     : "normal W, woken by a timer on X, H in the kernel (5 times)");
	preempt_mode_set(saved);
	if (!ran)
		return;
	KT_EXPECT(t, ls.in_user);
	KT_EXPECT(t, ls.hog_flags & _TIF_NEED_RESCHED_LAZY);
	KT_EXPECT(t, !(ls.hog_flags & _TIF_NEED_RESCHED));
	KT_EXPECT_EQ(t, ls.lazy_made, 1);
	KT_EXPECT_EQ(t, ls.raw_after, ls.raw_before);
	/* Before the next tick, with no promotion. Under wall-clock TCG a
	 * tick may fall due while the host delays the switch: icount only. */
	if (!clock_icount)
		return;
	KT_EXPECT_EQ(t, ls.promoted, 0);
	KT_EXPECT_EQ(t, ls.run_tick, ls.tick_after);
	KT_EXPECT_OP(t, ls.run_ns - ls.wake_ns, <, period_ns() / 4);
}

/* The contrast: in full mode the same normal wake-up preempts at once. */
static void full_normal_wakeup_preempts_at_once(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_FULL, &saved))
		KT_SKIP(t, "COUNT=%s has no full mode", preempt_model_name());
	run_scenario(PRIO_NORMAL, true);
	report(t, "normal W, woken by a timer on X");
	preempt_mode_set(saved);
	check_immediate(t);
}

/* The lazy flag never reaches the count: a lazy request inside a
 * preempt_disable() section leaves the raw count as it was, and the
 * final preempt_enable() does not call preempt_schedule(); a full request
 * in the same place does (the test's proof that it could see one). IRQs
 * stay off so that no tick promotes the request meanwhile. */
static void lazy_flag_not_in_count(struct ktest *t)
{
	int saved;
	if (!enter_mode(t, PREEMPT_MODE_LAZY, &saved))
		KT_SKIP(t, "COUNT=%s has no lazy mode", preempt_model_name());
	u32 me = raw_smp_processor_id();
	u64 f = local_irq_save();
	u32 raw0 = preempt_count_raw();
	u64 calls0 = per_cpu(stats.preempt_schedule_calls, me);
	preempt_disable();
	resched_curr_lazy(me);
	u32 raw_lazy = preempt_count_raw();
	bool lazy = tif_need_resched_lazy(), full = tif_need_resched();
	preempt_enable();
	u64 calls_lazy = per_cpu(stats.preempt_schedule_calls, me);
	preempt_disable();
	resched_curr(me);
	u32 raw_full = preempt_count_raw();
	preempt_enable(); /* calls preempt_schedule(), which cannot switch: IRQs off */
	u64 calls_full = per_cpu(stats.preempt_schedule_calls, me);
	local_irq_restore(f);
	schedule(); /* serve both requests */
	bool left = READ_ONCE(current_thread()->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY);
	preempt_mode_set(saved);
	ktest_diag(t, "COUNT=%s: count 0x%x, with a lazy request 0x%x, with a full one 0x%x; "
		   "preempt_schedule() calls: %llu lazy, %llu full", preempt_model_name(), raw0,
		   raw_lazy, raw_full, (unsigned long long)(calls_lazy - calls0),
		   (unsigned long long)(calls_full - calls_lazy));
	KT_EXPECT(t, lazy);
	KT_EXPECT(t, !full);
	KT_EXPECT_EQ(t, raw_lazy, raw0 + PREEMPT_DISABLE_OFFSET);
	KT_EXPECT_EQ(t, calls_lazy, calls0);
	if (PREEMPT_FOLDS_RESCHED)
		KT_EXPECT_EQ(t, raw_full, (raw0 + PREEMPT_DISABLE_OFFSET) & ~PREEMPT_NEED_RESCHED);
	KT_EXPECT_EQ(t, calls_full, calls_lazy + 1);
	KT_EXPECT(t, !left); /* schedule() cleared both flags */
}

KTEST_SUITE(lazy,
	KTEST_CASE(lazy_normal_wakeup_waits_for_tick),
	KTEST_CASE(lazy_normal_remote_wakeup_sends_no_ipi),
	KTEST_CASE(lazy_fifo_wakeup_preempts_at_once),
	KTEST_CASE(lazy_user_hog_switches_at_return_to_user),
	KTEST_CASE(full_normal_wakeup_preempts_at_once),
	KTEST_CASE(lazy_flag_not_in_count));
