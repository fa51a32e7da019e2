/* Lab L2, the IRQ exit's check (docs/10-labs.md, L2): irqentry_exit()
 * (arch/x86_64/entry/irq.c) and the folded model's one-compare test,
 * arch_irqentry_exit_need_resched() (arch/x86_64/preempt/bit31.h).
 *
 * The interrupt is a software `int $VECTOR_LAB` with an empty handler,
 * so the test decides the state it finds: the request (TIF_NEED_RESCHED
 * set and folded, or not), the depth of preempt_disable(), and the
 * interrupted code's IF (`int` saves RFLAGS as they are: with IRQs off,
 * IF is clear in the frame). A preemption at the exit is counted in this
 * CPU's preempt_irq; a request served there leaves TIF_NEED_RESCHED
 * clear. The cases set the request themselves (no resched_curr()), so
 * they do not depend on the other labs. The host checks the instruction
 * (tools/lab/checks.py: the test in irq_dispatch() that guards
 * irqentry_exit_cond_resched() is one compare of %gs:8). Each seed varies
 * the depth and the rounds, and adds a round on the timer's interrupt. */
#include "tests/labs/lab.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/cpu.h"

static void lab_nop_handler(struct pt_regs *regs)
{
	(void)regs;
}

static void ensure_handler(void)
{
	static bool done;
	if (!done)
		irq_register(VECTOR_LAB, lab_nop_handler, "lab-nop");
	done = true;
}

/* Ask this CPU to reschedule, by hand: the flag and the fold. */
static void request_here(void)
{
	__atomic_fetch_or(&current_thread()->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	set_preempt_need_resched();
}

static void drop_request(void)
{
	__atomic_fetch_and(&current_thread()->flags, ~_TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	clear_preempt_need_resched();
}

static u64 preempt_irqs(void)
{
	return READ_ONCE(this_cpu_ptr()->stats.preempt_irq);
}

/* One interrupt in the given state; what the exit did. */
struct exit_seen {
	u32 raw;         /* the count when the interrupt came */
	u64 preempted;   /* preempt_irq delta */
	bool served;     /* TIF_NEED_RESCHED clear after it */
};

static struct exit_seen one_int(u32 depth, bool request, bool irqs_on)
{
	struct exit_seen e;
	ensure_handler();
	if (need_resched())
		schedule(); /* start from no request */
	for (u32 i = 0; i < depth; i++)
		preempt_disable();
	u64 f = local_irq_save();
	if (request)
		request_here();
	e.raw = preempt_count_raw();
	u64 before = preempt_irqs();
	if (irqs_on)
		local_irq_enable();
	__asm__ __volatile__("int %0" ::"i"(VECTOR_LAB) : "memory");
	local_irq_disable();
	e.preempted = preempt_irqs() - before;
	e.served = !tif_need_resched();
	drop_request();
	local_irq_restore(f);
	for (u32 i = 0; i < depth; i++)
		preempt_enable();
	return e;
}

static void exit_preempts_at_zero(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 rounds = 1 + prandom_below(&rs, 4);
		for (u32 r = 0; r < rounds; r++) {
			struct exit_seen e = one_int(0, true, true);
			if (e.preempted != 1 || !e.served) {
				lab_fail(t, "seed %llu round %u: an interrupt from code with IRQs on "
					   "and the count 0x%x (depth 0, a request folded) did %s at "
					   "its exit (preempt_irq +%llu)", (unsigned long long)seed, r,
					   e.raw, e.served ? "serve the request, but not there" :
					   "not preempt", (unsigned long long)e.preempted);
				break;
			}
		}
		/* The tick's interrupt, with a request pending and IRQs on: its
		 * exit preempts too (every interrupt's exit asks). */
		preempt_disable();
		u32 me = raw_smp_processor_id();
		preempt_enable();
		u64 f = local_irq_save();
		request_here();
		u64 before = preempt_irqs(), tick = tick_count(me);
		u32 raw = preempt_count_raw();
		local_irq_enable();
		bool ticked = lab_spin_until(tick_count(me) != tick, 3 * NSEC_PER_MSEC);
		local_irq_restore(f);
		u64 preempted = preempt_irqs() - before;
		bool served = !tif_need_resched();
		if (!served)
			drop_request();
		if (!ticked || preempted != 1 || !served)
			lab_fail(t, "seed %llu: a tick came (%s) with the count 0x%x: its exit "
				   "preempted %llu times, the request %s", (unsigned long long)seed,
				   ticked ? "yes" : "no", raw, (unsigned long long)preempted,
				   served ? "served" : "still pending");
	}
}

static void exit_leaves_while_disabled(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		u32 depth = 1 + prandom_below(&rs, 3);
		struct exit_seen e = one_int(depth, true, true);
		if (e.preempted || e.served)
			lab_fail(t, "seed %llu: an interrupt with the count 0x%x (depth %u, a "
				   "request folded) preempted at its exit (preempt_irq +%llu): "
				   "preemption was off", (unsigned long long)seed, e.raw, depth,
				   (unsigned long long)e.preempted);
	}
}

static void exit_leaves_without_request(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 3);
		u32 rounds = 1 + prandom_below(&rs, 4);
		for (u32 r = 0; r < rounds; r++) {
			struct exit_seen e = one_int(0, false, true);
			if (e.preempted) {
				lab_fail(t, "seed %llu round %u: an interrupt with the count 0x%x "
					   "(no request) preempted at its exit (preempt_irq +%llu)",
					   (unsigned long long)seed, r, e.raw,
					   (unsigned long long)e.preempted);
				break;
			}
		}
	}
}

static void exit_leaves_when_irqs_were_off(struct ktest *t)
{
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 4);
		u32 rounds = 1 + prandom_below(&rs, 3);
		for (u32 r = 0; r < rounds; r++) {
			struct exit_seen e = one_int(0, true, false);
			if (e.preempted || e.served) {
				lab_fail(t, "seed %llu round %u: `int` from code with IRQs off (IF "
					   "clear in its frame), count 0x%x, preempted at its exit "
					   "(preempt_irq +%llu): that code cannot be preempted",
					   (unsigned long long)seed, r, e.raw,
					   (unsigned long long)e.preempted);
				break;
			}
		}
	}
}

LAB_SUITE(lab_l2,
	KTEST_CASE_TIMED(exit_preempts_at_zero, 50),
	KTEST_CASE_TIMED(exit_leaves_while_disabled, 50),
	KTEST_CASE_TIMED(exit_leaves_without_request, 50),
	KTEST_CASE_TIMED(exit_leaves_when_irqs_were_off, 50));
