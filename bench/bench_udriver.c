/* bench udriver [bytes=N] [rounds=N] [interval=US] [prio=P]: the latency
 * from an interrupt to the user-level driver thread running, in every
 * preemption mode this build can run, idle and with a user-space hog
 * (user/spin.c) on the same CPU. Two sources, one path (kernel/
 * irq_notify.c: the handler stamps the notification, notify_signal()
 * wakes the waiter, the waiter's return from notify_wait() is the sample):
 *
 *   src=uart   the real thing: serial_drv, pinned to this CPU, transmits
 *              `bytes` bytes of udtest's output, one THR-empty interrupt
 *              (IRQ 4) per 16. QEMU's 16550 empties its FIFO at once, so
 *              the interrupt comes as soon as the driver enables it, while
 *              the driver itself runs: the figure is the driver's own way
 *              into notify_wait(), and no hog can be in between.
 *   src=timer  the wake-up a slow device would need: an hrtimer (the LAPIC
 *              timer's interrupt) every `interval` us stamps and signals a
 *              notification that a user thread (udtest wait, the driver's
 *              loop without the UART) waits on, `rounds` times (signals
 *              coalesce: a late waiter takes several in one wake-up, and
 *              one sample).
 *
 * The driver and the waiter are SCHED_FIFO prio if prio > 0, normal
 * threads otherwise (the hog always is one). One line per case:
 *   BENCH udriver model=.. mode=.. smp=.. clock=.. src=uart|timer load=none|hog
 *         prio=P samples=N mean_ns=X max_ns=Y */
#include "bench/bench.h"
#include "drivers/console_drv.h"
#include "ipc/irq_notify.h"
#include "process/process.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "process/syscall.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "kernel/preempt.h"
#include "ipc/ipc.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "uapi/syscall.h"
#include "lib/format.h"

/* The last round's extra bit: udtest wait stops there (signals coalesce,
 * so under a hog it sees fewer wake-ups than rounds). */
#define UDTEST_WAIT_LAST 2

static struct {
	struct hrtimer timer;
	struct notification *n;
	u64 interval_ns;
	volatile u64 left;
} tick;

/* Hardirq context, on the bench's CPU: as irq_notify's handler does. */
static void tick_fn(struct hrtimer *t)
{
	if (!tick.left)
		return;
	tick.left--;
	if (!tick.n->irq_stamp)
		tick.n->irq_stamp = ktime_get_ns();
	notify_signal(tick.n, tick.left ? 1 : 1 | UDTEST_WAIT_LAST);
	if (tick.left)
		hrtimer_start(t, t->expires + tick.interval_ns);
}

static int spawn_wait(const struct spawn_args *a)
{
	int err = 0;
	struct process *p = process_spawn(a, &err);
	if (!p) {
		console_printf("bench udriver: cannot start %s (error %d)\n", a->name, err);
		return -1;
	}
	int status = process_wait(p);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		console_printf("bench udriver: %s failed (status 0x%x)\n", a->name, status);
		return -1;
	}
	return 0;
}

static int run_uart(u64 cpus, u64 bytes)
{
	char b[24];
	snprintf(b, sizeof(b), "%llu", (unsigned long long)bytes);
	const char *av[] = { "udtest", "fill", b };
	struct spawn_args a = { "udtest", 3, av, NULL, false, cpus, NULL, 0, NULL };
	user_write_capture = NULL; /* the bytes must reach the driver */
	return spawn_wait(&a);
}

static int run_timer(u64 cpus, u64 rounds, u64 interval_us, u64 prio)
{
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	struct notification *n = k ? notification_create() : NULL;
	if (!n) {
		console_printf("bench udriver: out of memory\n");
		if (k)
			ipc_state_destroy(k);
		return -1;
	}
	int h = handle_install(k, &n->obj, 0, RIGHT_WAIT | RIGHT_SIGNAL);
	char r[24], pr[24];
	snprintf(r, sizeof(r), "%llu", (unsigned long long)rounds);
	snprintf(pr, sizeof(pr), "prio=%llu", (unsigned long long)prio);
	const char *av[] = { "udtest", "wait", r, pr }; /* until UDTEST_WAIT_LAST */
	struct spawn_args a = { "udtest", 4, av, NULL, false, cpus, k, 1, &h };
	int err = 0;
	struct process *p = process_spawn(&a, &err);
	if (!p) {
		console_printf("bench udriver: cannot start udtest (error %d)\n", err);
		ipc_state_destroy(k);
		return -1;
	}
	/* The first interrupt only once the waiter waits: else the first
	 * sample would be its start-up behind the hog. */
	u64 deadline = ktime_get_ns() + 1000000000ULL;
	while (!READ_ONCE(n->waiter) && ktime_get_ns() < deadline)
		sleep_ns(20000);
	tick.n = n;
	tick.interval_ns = interval_us * 1000;
	tick.left = rounds;
	hrtimer_init(&tick.timer, tick_fn);
	preempt_disable(); /* hrtimer_start: this CPU's queue */
	hrtimer_start(&tick.timer, ktime_get_ns() + tick.interval_ns);
	preempt_enable();
	int status = process_wait(p);
	int ret = WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
	if (ret)
		console_printf("bench udriver: udtest wait failed (status 0x%x)\n", status);
	preempt_disable();
	tick.left = 0;
	hrtimer_cancel(&tick.timer);
	preempt_enable();
	tick.n = NULL;
	ipc_state_destroy(k);
	return ret;
}

static void report(const char *src, const char *load, u64 prio)
{
	struct irq_latency l;
	irq_latency_snapshot(&l);
	char ctx[128], mean[24];
	bench_context(ctx, sizeof(ctx));
	fmt_centi(mean, sizeof(mean), l.samples ? l.sum_ns * 100 / l.samples : 0);
	console_printf("bench udriver: %s, %s, load %s: interrupt to driver %s ns mean, %llu max "
		       "(%llu samples)\n", preempt_mode_name(preempt_mode), src, load, mean,
		       (unsigned long long)l.max_ns, (unsigned long long)l.samples);
	console_printf("BENCH udriver %s src=%s load=%s prio=%llu samples=%llu mean_ns=%s max_ns=%llu\n",
		       ctx, src, load, (unsigned long long)prio, (unsigned long long)l.samples, mean,
		       (unsigned long long)l.max_ns);
}

int bench_udriver(int argc, char **argv)
{
	u64 bytes = 512, rounds = 200, interval = 200, prio = 0;
	struct bench_opt opts[] = { BENCH_UDRIVER_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("udriver", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	preempt_disable();
	u64 cpus = 1UL << this_cpu_read(cpu); /* the timer fires here: all on this CPU */
	preempt_enable();
	if (console_drv_stop() || console_drv_start(cpus, (u32)prio))
		return -1;
	int old = preempt_mode, ret = 0;
	for (int mode = 0; mode < NR_PREEMPT_MODES && !ret; mode++) {
		if (!preempt_mode_valid(mode) || preempt_mode_set(mode))
			continue;
		for (int load = 0; load < 2 && !ret; load++) {
			struct process *hog = NULL;
			if (load) {
				const char *hv[] = { "spin" };
				struct spawn_args a = { "spin", 1, hv, NULL, false, cpus, NULL, 0, NULL };
				int err = 0;
				hog = process_spawn(&a, &err);
				if (!hog) {
					console_printf("bench udriver: cannot start the hog (spin): error %d\n", err);
					ret = -1;
					break;
				}
			}
			const char *ld = load ? "hog" : "none";
			irq_latency_reset();
			ret = run_uart(cpus, bytes);
			if (!ret)
				report("uart", ld, prio);
			irq_latency_reset();
			if (!ret)
				ret = run_timer(cpus, rounds, interval, prio);
			if (!ret)
				report("timer", ld, prio);
			if (hog) {
				process_kill(hog->pid, SIGKILL);
				process_wait(hog);
			}
		}
	}
	preempt_mode_set(old);
	return ret;
}
