/* The debug suite: each debug check fires when provoked on purpose, and
 * its report names the problem and carries the context (thread, CPU, the
 * count decoded) and a backtrace. A release build (RELEASE=1) compiles
 * most of them out (kernel/debug/checks.h): those cases skip there, and
 * say why; the thread-exit leak check stays in every build. */
#include "tests/kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/entry/irq.h"
#include "kernel/smp.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "kernel/debug/checks.h"

static char out[8192];
static struct printk_capture cap;

static void capture(void)
{
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
}

/* Every report: its message, the context line and a backtrace naming fn. */
static void expect_report(struct ktest *t, u64 bugs_before, const char *msg, const char *fn)
{
	printk_capture_stop();
	KT_EXPECT_EQ(t, bug_reports, bugs_before + 1);
	KT_EXPECT_STR_CONTAINS(t, out, msg);
	KT_EXPECT_STR_CONTAINS(t, out, "CPU: ");
	KT_EXPECT_STR_CONTAINS(t, out, "Thread: ");
	KT_EXPECT_STR_CONTAINS(t, out, "count=0x");
	KT_EXPECT_STR_CONTAINS(t, out, "Call Trace:");
	if (fn)
		KT_EXPECT_STR_CONTAINS(t, out, fn);
}

/* Atomic context that every model can see: COUNT=off has no preempt
 * depth, so it uses IRQs off, which every model checks. */
static u64 enter_atomic(void)
{
	u64 f = local_irq_save();
	preempt_disable();
	return f;
}
static void leave_atomic(u64 f)
{
	preempt_enable_no_resched();
	local_irq_restore(f);
}

static __attribute__((noipa)) void provoke_schedule_atomic(void)
{
	u64 f = enter_atomic();
	schedule();
	leave_atomic(f);
}

/* The cases of the checks a release build leaves out. */
#define SKIP_IN_RELEASE(t)                             \
	do {                                           \
		if (!DEBUG_CHECKS)                     \
			KT_SKIP(t, DEBUG_CHECKS_SKIP); \
	} while (0)

static void scheduling_while_atomic(struct ktest *t)
{
	SKIP_IN_RELEASE(t);
	u64 before = bug_reports;
	u32 count = preempt_count();
	capture();
	provoke_schedule_atomic();
	expect_report(t, before, "BUG: scheduling while atomic", "provoke_schedule_atomic");
	KT_EXPECT_EQ(t, preempt_count(), count); /* and the count survived */
}

static __attribute__((noipa)) void provoke_might_sleep(void)
{
	u64 f = enter_atomic();
	might_sleep();
	leave_atomic(f);
}

static void sleeping_in_atomic(struct ktest *t)
{
	SKIP_IN_RELEASE(t);
	u64 before = bug_reports;
	capture();
	provoke_might_sleep();
	expect_report(t, before, "BUG: sleeping function called from invalid context at tests/kernel/test_debug.c",
		      "provoke_might_sleep");
}

static void leaky_thread(void *arg)
{
	(void)arg;
	/* Leaves with the count raised (COUNT=off: IRQs off instead). */
	if (!PREEMPT_HAS_COUNT)
		local_irq_disable();
	else
		preempt_disable();
}

static void count_leak_on_exit(struct ktest *t)
{
	u64 before = bug_reports;
	preempt_disable();
	u32 cpu = raw_smp_processor_id();
	preempt_enable();
	capture();
	/* Same CPU, so the report lands in this CPU's capture. */
	struct thread *th = thread_create(leaky_thread, NULL, "leaky", 60, 1UL << cpu);
	if (th)
		thread_join(th);
	KT_EXPECT(t, th); /* NULL: no kernel stack or memory left */
	expect_report(t, before, "BUG: preempt count leak on exit of thread", "thread_exit");
}

static void leaky_handler(struct pt_regs *regs)
{
	(void)regs;
	preempt_count_add(PREEMPT_OFFSET); /* never dropped */
}


static void count_leak_in_irq(struct ktest *t)
{
	SKIP_IN_RELEASE(t);
	static bool registered;
	if (!registered) {
		irq_register(VECTOR_TEST, leaky_handler, "test-leaky");
		registered = true;
	}
	u64 before = bug_reports;
	u32 count = preempt_count();
	capture();
	__asm__ __volatile__("int %0" ::"i"(VECTOR_TEST) : "memory");
	expect_report(t, before, "BUG: preempt count leak in IRQ handler test-leaky (vector 128)",
		      "irq_dispatch");
	KT_EXPECT_EQ(t, preempt_count(), count); /* repaired on the way out */
}

static __attribute__((noipa)) void provoke_smp_processor_id(void)
{
	volatile u32 cpu = smp_processor_id();
	(void)cpu;
}

static void smp_processor_id_preemptible(struct ktest *t)
{
	SKIP_IN_RELEASE(t);
	u64 before = bug_reports;
	capture();
	provoke_smp_processor_id();
	expect_report(t, before, "BUG: using smp_processor_id() in preemptible code",
		      "provoke_smp_processor_id");
	/* With preemption off it is fine and silent. */
	before = bug_reports;
	preempt_disable();
	local_irq_disable(); /* COUNT=off: IRQs off makes it non-preemptible */
	provoke_smp_processor_id();
	local_irq_enable();
	preempt_enable();
	KT_EXPECT_EQ(t, bug_reports, before);
}

static __attribute__((noipa)) void provoke_recursion(raw_spinlock_t *l)
{
	raw_spin_lock(l);
	raw_spin_lock(l); /* reported, not taken */
	raw_spin_unlock(l);
}

static void spinlock_recursion(struct ktest *t)
{
	SKIP_IN_RELEASE(t); /* there, the second lock would spin for ever */
	static DEFINE_RAW_SPINLOCK(rec_lock);
	u64 before = bug_reports;
	u32 count = preempt_count();
	capture();
	provoke_recursion(&rec_lock);
	expect_report(t, before, "BUG: spinlock recursion: lock rec_lock already held by this CPU",
		      "provoke_recursion");
	KT_EXPECT(t, !raw_spin_is_locked(&rec_lock));
	KT_EXPECT_EQ(t, preempt_count(), count);
}

KTEST_SUITE(debug,
	KTEST_CASE(scheduling_while_atomic),
	KTEST_CASE(sleeping_in_atomic),
	KTEST_CASE(count_leak_on_exit),
	KTEST_CASE(count_leak_in_irq),
	KTEST_CASE(smp_processor_id_preemptible),
	KTEST_CASE(spinlock_recursion));
