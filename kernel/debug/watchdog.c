/* kernel/debug/watchdog.h. Linux's detector has the timer wake a per-CPU
 * stopper thread that records "this CPU scheduled"; fold needs no thread
 * of its own: the per-CPU context-switch counter (cpu_stats) already says
 * whether the CPU scheduled. The timer fires every 2 x thresh / 5 (Linux's
 * sample period) and compares:
 *   - the counter moved, or at most one thread can run here: not stuck,
 *     start counting again;
 *   - the timer itself fired more than a period late: this CPU's IRQs, or
 *     the whole vCPU (a busy host), stood still; time that nobody could
 *     have used is not a lockup, start counting again (Linux has
 *     touch_softlockup_watchdog and KVM's pvclock for the same reason);
 *   - otherwise, 2 x thresh without a switch: report, once per stall.
 * A CPU stuck with IRQs off stops its own timer too: fold has no NMI
 * watchdog (Linux's hard-lockup detector), but `bt all` still reaches it. */
#include "kernel/debug/watchdog.h"
#include "kernel/debug/nmi_backtrace.h"
#include "kernel/time/hrtimer.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/cmdline.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "kernel/entry/common.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "sched/sched.h"

struct watchdog_cpu {
	struct hrtimer timer;
	u64 switches;   /* the context-switch count at `since` */
	u64 since;      /* when it last moved (or counting restarted) */
};

static struct watchdog_cpu wd[MAX_CPUS];
static volatile u32 thresh_ms = 10000;
static u32 watchdog_thresh = 10; /* seconds, as Linux's */

static int set_watchdog_thresh(const char *v)
{
	return cmdline_u32(v, &watchdog_thresh, 0, 60);
}
early_param(watchdog_thresh, set_watchdog_thresh, watchdog_thresh,
	    "seconds 0-60 (a soft lockup is reported after twice it; 0: off)", "10");
volatile u64 softlockups;

static u64 sample_period_ns(u32 ms)
{
	return (ms ? ms : 10000) * 2ULL * NSEC_PER_MSEC / 5;
}

/* On each CPU, in hardirq context: count afresh and re-arm the timer for
 * the new period (a CPU's hrtimers are queued by that CPU only). */
static void rearm(void *arg)
{
	(void)arg;
	struct watchdog_cpu *w = &wd[raw_smp_processor_id()];
	w->since = ktime_get_ns();
	w->switches = per_cpu(stats.context_switches, raw_smp_processor_id());
	hrtimer_start(&w->timer, w->since + sample_period_ns(READ_ONCE(thresh_ms)));
}

void watchdog_set_thresh_ms(u32 ms)
{
	WRITE_ONCE(thresh_ms, ms);
	smp_call_function_many(~0UL, rearm, NULL, true);
	u64 f = local_irq_save();
	rearm(NULL);
	local_irq_restore(f);
}

u32 watchdog_thresh_ms(void)
{
	return READ_ONCE(thresh_ms);
}

static void report(u32 cpu, u64 stuck_ns)
{
	struct thread *t = this_cpu_read(current);
	struct pt_regs *regs = this_cpu_read(irq_regs);
	__atomic_fetch_add(&softlockups, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&bug_reports, 1, __ATOMIC_RELAXED);
	printk(KERN_EMERG "watchdog: BUG: soft lockup - CPU#%u stuck for %llums! [%s:%u]\n", cpu,
	       (unsigned long long)(stuck_ns / NSEC_PER_MSEC), t->name, t->id);
	dump_context();
	if (regs && !user_mode(regs)) {
		dump_regs(regs);
		dump_backtrace(regs->rip, regs->rbp);
	}
	nmi_backtrace_others();
}

static void watchdog_timer_fn(struct hrtimer *h)
{
	struct watchdog_cpu *w = container_of(h, struct watchdog_cpu, timer);
	u32 cpu = raw_smp_processor_id();
	u32 ms = READ_ONCE(thresh_ms);
	u64 period = sample_period_ns(ms), now = ktime_get_ns();
	u64 switches = per_cpu(stats.context_switches, cpu);
	if (!ms || switches != w->switches || rq_nr_running(cpu) < 2 || now - h->expires > period) {
		w->switches = switches;
		w->since = now;
	} else if (now - w->since >= 2ULL * ms * NSEC_PER_MSEC) {
		report(cpu, now - w->since);
		w->since = now; /* the next report after another 2 x thresh */
	}
	hrtimer_start(h, now + period);
}

void watchdog_init_cpu(void)
{
	u32 cpu = raw_smp_processor_id();
	struct watchdog_cpu *w = &wd[cpu];
	if (cpu == 0)
		thresh_ms = watchdog_thresh * 1000;
	hrtimer_init(&w->timer, watchdog_timer_fn);
	u64 f = local_irq_save();
	rearm(NULL);
	local_irq_restore(f);
}
