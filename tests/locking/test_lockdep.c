/* The lockdep suite (LOCKDEP=1, kernel/locking/lockdep.h): an ABBA inversion and
 * a lock taken both in hardirq context and with IRQs on are each provoked
 * on purpose, on one CPU with no real deadlock, and their reports are
 * asserted. The reports are captured quietly (kept off the console, still
 * in the log), so a row can refuse any report on the console: each one
 * there came from fold's own locks. The last case checks the counters: no
 * report but this suite's own so far. With LOCKDEP=0 every case skips. */
#include "tests/kernel/ktest.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/spinlock.h"

#if LOCKDEP
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

static DEFINE_RAW_SPINLOCK(lockdep_test_a);
static DEFINE_RAW_SPINLOCK(lockdep_test_b);
static DEFINE_RAW_SPINLOCK(lockdep_test_irq);

static char out[8192];
static struct printk_capture cap;
static u64 own_circular, own_irq; /* the reports this suite provoked */

/* On this CPU only (the capture is per CPU): IRQs stay as they are, the
 * thread stays here. */
static void capture(void)
{
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
}

static __attribute__((noipa)) void take_a_then_b(void)
{
	raw_spin_lock(&lockdep_test_a);
	raw_spin_lock(&lockdep_test_b);
	raw_spin_unlock(&lockdep_test_b);
	raw_spin_unlock(&lockdep_test_a);
}

static __attribute__((noipa)) void take_b_then_a(void)
{
	raw_spin_lock(&lockdep_test_b);
	raw_spin_lock(&lockdep_test_a);
	raw_spin_unlock(&lockdep_test_a);
	raw_spin_unlock(&lockdep_test_b);
}

/* A then B records A -> B; B then A would add B -> A, and A reaches B:
 * reported, once. */
static void abba_inversion(struct ktest *t)
{
	lockdep_rearm();
	u64 before = lockdep_circular_reports;
	u64 f = local_irq_save();
	capture();
	take_a_then_b();
	take_b_then_a();
	printk_capture_stop();
	local_irq_restore(f);
	own_circular += lockdep_circular_reports - before;
	KT_EXPECT_EQ(t, lockdep_circular_reports, before + 1);
	KT_EXPECT_STR_CONTAINS(t, out, "WARNING: possible circular locking dependency detected");
	KT_EXPECT_STR_CONTAINS(t, out, "is trying to acquire lock:");
	KT_EXPECT_STR_CONTAINS(t, out, " (lockdep_test_a), at: take_b_then_a+");
	KT_EXPECT_STR_CONTAINS(t, out, "but it already holds lock:");
	KT_EXPECT_STR_CONTAINS(t, out, " (lockdep_test_b), at: take_b_then_a+");
	KT_EXPECT_STR_CONTAINS(t, out, "which lock already depends on the new lock.");
	/* the first order, where it was seen */
	KT_EXPECT_STR_CONTAINS(t, out, "-> #0 (lockdep_test_b) taken at take_a_then_b+");
	KT_EXPECT_STR_CONTAINS(t, out, "while holding (lockdep_test_a)");
	KT_EXPECT_STR_CONTAINS(t, out, "*** DEADLOCK ***");
	KT_EXPECT_STR_CONTAINS(t, out, "Call Trace:");
	KT_EXPECT_STR_CONTAINS(t, out, "lockdep: no more circular-dependency reports");
}

/* Once: the same inversion again prints nothing, and lockdep stays on. */
static void abba_reported_once(struct ktest *t)
{
	u64 before = lockdep_circular_reports;
	u64 f = local_irq_save();
	capture();
	take_b_then_a();
	printk_capture_stop();
	local_irq_restore(f);
	KT_EXPECT_EQ(t, lockdep_circular_reports, before);
	KT_EXPECT_EQ(t, cap.len, 0);
	KT_EXPECT(t, lockdep_active());
}

static volatile int irq_took_lock;

static void take_in_hardirq(struct hrtimer *h)
{
	(void)h;
	raw_spin_lock(&lockdep_test_irq);
	raw_spin_unlock(&lockdep_test_irq);
	irq_took_lock = 1;
}

static __attribute__((noipa)) void take_with_irqs_on(void)
{
	raw_spin_lock(&lockdep_test_irq);
	raw_spin_unlock(&lockdep_test_irq);
}

/* An hrtimer on this CPU takes the lock in hardirq context ({IN-HARDIRQ-W});
 * then this thread takes it with IRQs enabled ({HARDIRQ-ON-W}). */
static void irq_inconsistent(struct ktest *t)
{
	static struct hrtimer timer;
	lockdep_rearm();
	u64 before = lockdep_irq_reports;
	irq_took_lock = 0;
	hrtimer_init(&timer, take_in_hardirq);
	preempt_disable(); /* this CPU's timer and capture */
	capture();
	u64 f = local_irq_save();
	hrtimer_start(&timer, ktime_get_ns() + 100 * NSEC_PER_USEC);
	local_irq_restore(f);
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (!READ_ONCE(irq_took_lock) && ktime_get_ns() < end)
		cpu_relax();
	bool fired = READ_ONCE(irq_took_lock);
	if (fired)
		take_with_irqs_on();
	printk_capture_stop();
	preempt_enable();
	if (!fired)
		hrtimer_cancel(&timer);
	own_irq += lockdep_irq_reports - before;
	KT_ASSERT(t, fired); /* the timer fired within a second */
	KT_EXPECT_EQ(t, lockdep_irq_reports, before + 1);
	KT_EXPECT_STR_CONTAINS(t, out, "WARNING: inconsistent lock state");
	KT_EXPECT_STR_CONTAINS(t, out, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	KT_EXPECT_STR_CONTAINS(t, out, "with IRQs enabled takes:");
	KT_EXPECT_STR_CONTAINS(t, out, " (lockdep_test_irq), at: take_with_irqs_on+");
	KT_EXPECT_STR_CONTAINS(t, out, "{IN-HARDIRQ-W} state was registered at:");
	KT_EXPECT_STR_CONTAINS(t, out, "take_in_hardirq+");
	KT_EXPECT_STR_CONTAINS(t, out, "<Interrupt>");
	KT_EXPECT_STR_CONTAINS(t, out, "Call Trace:");
	KT_EXPECT_STR_CONTAINS(t, out, "lockdep: no more inconsistent-lock-state reports");
}

/* fold's own locks, in everything that ran before this case: no report
 * but the ones above (the row's nogrep covers the suites after). */
static void no_other_reports(struct ktest *t)
{
	ktest_diag(t, "%u lock classes seen, %u dependencies", lockdep_class_count(),
		   lockdep_dependency_count());
	const char *from[32], *to[32];
	u32 n = lockdep_dependencies(from, to, ARRAY_SIZE(from));
	for (u32 i = 0; i < n && i < ARRAY_SIZE(from); i++)
		ktest_diag(t, "order: %s -> %s", from[i], to[i]);
	KT_EXPECT(t, lockdep_active());
	/* The held stack is balanced: this thread holds nothing, and the
	 * run-queue lock handed over at every switch was popped. */
	u64 f = local_irq_save();
	u32 held = lockdep_held_here();
	local_irq_restore(f);
	KT_EXPECT_EQ(t, held, 0);
	KT_EXPECT_EQ(t, lockdep_circular_reports, own_circular);
	KT_EXPECT_EQ(t, lockdep_irq_reports, own_irq);
	KT_EXPECT_EQ(t, lockdep_wait_reports, 0);
}
#else
static void lockdep_off(struct ktest *t)
{
	KT_SKIP(t, "lockdep is off: build with LOCKDEP=1");
}
#define abba_inversion lockdep_off
#define abba_reported_once lockdep_off
#define irq_inconsistent lockdep_off
#define no_other_reports lockdep_off
#endif

KTEST_SUITE(lockdep,
	KTEST_CASE(abba_inversion),
	KTEST_CASE(abba_reported_once),
	KTEST_CASE(irq_inconsistent),
	KTEST_CASE(no_other_reports));
