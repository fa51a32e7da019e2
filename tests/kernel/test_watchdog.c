/* The watchdog suite: the detectors, each provoked on purpose and its
 * report read back from the kernel log.
 *   - `bt all` (trigger_all_cpu_backtrace): every online CPU answers the
 *     NMI with its call trace, even one spinning with IRQs off;
 *   - the soft-lockup detector (kernel/debug/watchdog.c): a thread that keeps
 *     preemption off for a second while another waits for its CPU is
 *     reported, with its name and its call trace. */
#include "tests/kernel/ktest.h"
#include "kernel/debug/nmi_backtrace.h"
#include "kernel/debug/watchdog.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "lib/format.h"

static char logtext[16384];

/* The kernel log written since *pos. */
static const char *log_since(u64 pos)
{
	log_read(&pos, logtext, sizeof(logtext));
	return logtext;
}

static volatile int spin_state; /* 1: spinning, 2: asked to stop */

static __noinline void irqs_off_spinner(void *arg)
{
	(void)arg;
	u64 f = local_irq_save();
	WRITE_ONCE(spin_state, 1);
	u64 t0 = rdtsc(); /* inline, as lockup_hog's below */
	while (READ_ONCE(spin_state) != 2 && rdtsc() - t0 < 5 * tsc_hz) /* bounded, whatever happens */
		cpu_relax();
	local_irq_restore(f);
}

/* Every CPU answers, and the one spinning with IRQs off (where no IPI or
 * timer could reach it) is caught inside its loop. */
static void bt_all(struct ktest *t)
{
	struct thread *spinner = NULL;
	u32 last = 0;
	for_each_online_cpu(c)
		last = c;
	if (last) {
		spin_state = 0;
		spinner = thread_create(irqs_off_spinner, NULL, "irqs-off", 90, 1UL << last);
		KT_ASSERT(t, spinner); /* NULL: no kernel stack or memory left */
		u64 end = ktime_get_ns() + 2 * NSEC_PER_SEC;
		while (!READ_ONCE(spin_state) && ktime_get_ns() < end)
			sleep_ns(NSEC_PER_MSEC);
		KT_EXPECT_EQ(t, spin_state, 1);
	}
	u64 pos = log_head;
	u32 n = trigger_all_cpu_backtrace();
	u32 spinner_id = spinner ? spinner->id : 0; /* spinner is freed by the join */
	if (spinner) {
		WRITE_ONCE(spin_state, 2);
		thread_join(spinner);
	}
	const char *log = log_since(pos);
	KT_EXPECT_EQ(t, n, nr_cpus_online);
	for_each_online_cpu(c) {
		char want[48];
		snprintf(want, sizeof(want), "NMI backtrace for cpu %u", c);
		KT_EXPECT_STR_CONTAINS(t, log, want);
	}
	KT_EXPECT_STR_CONTAINS(t, log, "Call Trace:");
	if (spinner) {
		char want[64];
		snprintf(want, sizeof(want), "NMI backtrace for cpu %u: thread %u (irqs-off)", last,
			 spinner_id);
		KT_EXPECT_STR_CONTAINS(t, log, want);
		KT_EXPECT_STR_CONTAINS(t, log, "irqs_off_spinner+");
	}
	KT_EXPECT(t, !strstr(log, "did not answer"));
}

static volatile int hog_state;

/* arg NULL: preemption off for 1 s. Else it points to the softlockups
 * count before: off until the detector has reported (softlockups moved),
 * 5 s at most. A fixed second is not enough there: under wall-clock TCG
 * the host may stall this vCPU for much of it, and the detector, which
 * runs in the tick, sees a lockup only while the hog is still running.
 * The loop has no cpu_relax(): it waits for nobody (the report comes
 * from this CPU's own timer), it is the busy work. PAUSE is the hint for
 * spin-wait loops (SDM Vol. 2B, PAUSE), and QEMU's TCG leaves the vCPU's
 * execution loop at every PAUSE ("let another CPU run": helper_pause in
 * target/i386/tcg/misc_helper.c). Under -icount all vCPUs share one host
 * thread, so each of ~10^8 PAUSEs in this second cost a pass over every
 * vCPU: 78 s of host time for busy_alone_not_reported on -smp 4, 3 s
 * without. */
static __noinline void lockup_hog(void *arg)
{
	const u64 *before = arg;
	/* The TSC read inline, not ktime_get_ns(): an interrupt that lands in
	 * a frameless leaf callee would leave this function out of the frame-
	 * pointer call trace, and the test reads it there. */
	preempt_disable();
	WRITE_ONCE(hog_state, 1);
	u64 t0 = rdtsc();
	u64 len = before ? 5 * tsc_hz : tsc_hz;
	while (rdtsc() - t0 < len && (!before || READ_ONCE(softlockups) == *before))
		; /* rdtsc() is a volatile asm with a memory clobber */
	preempt_enable();
}

static void waiter(void *arg)
{
	(void)arg;
}

/* The hog keeps preemption off on the last CPU, until the report, while a
 * thread waits there; with a 250 ms threshold the report comes after
 * 500 ms.
 * (COUNT=off has no preempt_disable, but none and voluntary, its only
 * modes, do not preempt a kernel thread either.) */
static void softlockup_reported(struct ktest *t)
{
	u32 cpu = 0;
	for_each_online_cpu(c)
		cpu = c;
	u32 old = watchdog_thresh_ms();
	u64 before = softlockups, pos = log_head;
	watchdog_set_thresh_ms(250);
	hog_state = 0;
	static u64 before_hog;
	before_hog = before;
	struct thread *hog = thread_create(lockup_hog, &before_hog, "lockup-hog", PRIO_NORMAL, 1UL << cpu);
	if (!KT_EXPECT(t, hog)) { /* no kernel stack or memory left */
		watchdog_set_thresh_ms(old);
		return;
	}
	u32 hog_id = hog->id; /* hog is freed by the join */
	u64 end = ktime_get_ns() + 2 * NSEC_PER_SEC;
	while (!READ_ONCE(hog_state) && ktime_get_ns() < end)
		sleep_ns(NSEC_PER_MSEC); /* one CPU: this thread is then the waiter */
	struct thread *w = thread_create(waiter, NULL, "lockup-waiter", PRIO_NORMAL, 1UL << cpu);
	KT_EXPECT(t, w);
	thread_join(hog);
	if (w)
		thread_join(w);
	watchdog_set_thresh_ms(old);
	const char *log = log_since(pos);
	char want[96];
	snprintf(want, sizeof(want), "watchdog: BUG: soft lockup - CPU#%u stuck for ", cpu);
	KT_EXPECT_OP(t, softlockups - before, >=, 1);
	KT_EXPECT_STR_CONTAINS(t, log, want);
	snprintf(want, sizeof(want), "! [lockup-hog:%u]", hog_id);
	KT_EXPECT_STR_CONTAINS(t, log, want);
	KT_EXPECT_STR_CONTAINS(t, log, "lockup_hog+");
}

/* The same hog with nobody waiting is a busy CPU, not a stuck one. */
static void busy_alone_not_reported(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU: this thread would wait for the hog's CPU");
	u32 cpu = 0;
	for_each_online_cpu(c)
		cpu = c;
	u32 old = watchdog_thresh_ms();
	u64 before = softlockups;
	watchdog_set_thresh_ms(250);
	hog_state = 0;
	struct thread *hog = thread_create(lockup_hog, NULL, "lone-hog", PRIO_NORMAL, 1UL << cpu);
	if (hog)
		thread_join(hog);
	KT_EXPECT(t, hog);
	watchdog_set_thresh_ms(old);
	KT_EXPECT_EQ(t, softlockups - before, 0);
}

KTEST_SUITE(watchdog,
	    KTEST_CASE(bt_all),
	    KTEST_CASE(softlockup_reported),
	    KTEST_CASE(busy_alone_not_reported));
