/* The case watchdog: tests/kernel/ktest_watch.h says what and why. */
#include "tests/kernel/ktest_watch.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"

u32 ktest_case_ms;

static int set_case_ms(const char *v)
{
	return cmdline_u32(v, &ktest_case_ms, 1, 3600 * 1000);
}
early_param(ktest_case_ms, set_case_ms, ktest_case_ms, "virtual ms, 1 to 3600000",
	    "0: only the labs' cases are watched");

#define WATCH_PERIOD (5 * NSEC_PER_MSEC)

/* The case running now (static: no lifetime to get wrong). */
static struct {
	const char *name;
	int number;
	u32 limit_ms, bail_ms;
	volatile u64 bail_at;      /* 0: no case running */
	volatile int done;         /* it returned (or a CPU bailed out) */
} watch;
static struct hrtimer watch_timer[MAX_CPUS];

static void watch_fn(struct hrtimer *h)
{
	u64 now = ktime_get_ns(), at = READ_ONCE(watch.bail_at);
	if (at && now >= at && !__atomic_exchange_n(&watch.done, 1, __ATOMIC_SEQ_CST)) {
		/* The case interrupted here may be capturing this CPU's
		 * output (the bench suite does): this goes to the console. */
		printk_capture_stop();
		console_printf("    not ok %d %s # timeout after %u %s ms\n", watch.number, watch.name,
			       watch.limit_ms, clock_icount ? "virtual" : "wall-clock");
		console_printf("Bail out! ktest: case %s did not return within %u ms (its thread "
			       "got no turn, or never came back: a CPU stuck with IRQs off, a lost "
			       "wake-up, a loop); CPU %u ends the run\n", watch.name, watch.bail_ms,
			       raw_smp_processor_id());
		qemu_exit(EXIT_FAIL);
	}
	hrtimer_start(h, now + WATCH_PERIOD);
}

static void start_watch(void *arg)
{
	(void)arg;
	struct hrtimer *h = &watch_timer[raw_smp_processor_id()];
	hrtimer_init(h, watch_fn);
	hrtimer_start(h, ktime_get_ns() + WATCH_PERIOD);
}

/* Once, before the first watched case: every CPU is still answering. */
static void start_watches(void)
{
	static bool started;
	if (started)
		return;
	started = true;
	preempt_disable();
	u32 me = raw_smp_processor_id();
	start_watch(NULL);
	preempt_enable();
	for_each_online_cpu(c)
		if (c != me)
			smp_call_function_single(c, start_watch, NULL, true);
}

void ktest_watch_begin(const char *name, int number, u32 limit_ms, u32 bail_ms)
{
	start_watches();
	watch.name = name;
	watch.number = number;
	watch.limit_ms = limit_ms;
	watch.bail_ms = bail_ms;
	watch.done = 0;
	WRITE_ONCE(watch.bail_at, ktime_get_ns() + (u64)bail_ms * NSEC_PER_MSEC);
}

void ktest_watch_end(void)
{
	/* A CPU that already claimed it is ending the run. */
	while (__atomic_exchange_n(&watch.done, 1, __ATOMIC_SEQ_CST))
		cpu_relax();
	WRITE_ONCE(watch.bail_at, 0);
}
