/* bench wakeup_hog: E8's latency figures. On CPU 0 a thread sleeps to
 * absolute deadlines `interval` microseconds apart (cyclictest's method,
 * as bench latency) while a normal-class hog (bench/bench_hog.h)
 * runs there; it records how late it woke. Twice: the sleeper a FIFO
 * thread (prio 90), then a normal one. FIFO wake-ups ask for a full
 * reschedule in every preemptible mode, lazy included, so lazy's FIFO
 * latency is full's; a normal sleeper woken where the normal hog runs
 * asks lazily (sched/wake.c, check_preempt): full preempts at once, lazy
 * at the next tick (at most one tick late), voluntary at the hog's next
 * might_resched(), none at its next cond_resched(). */
#include "bench/bench.h"
#include "bench/bench_hog.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "sched/thread.h"
#include "lib/stats.h"

struct sleeper {
	u64 interval_ns, loops;
	struct stats st;
};

static void sleeper(void *arg)
{
	struct sleeper *s = arg;
	u64 next = ktime_get_ns() + s->interval_ns;
	for (u64 i = 0; i < s->loops; i++) {
		sleep_until(next);
		stats_add(&s->st, ktime_get_ns() - next);
		next += s->interval_ns;
	}
}

static const struct {
	const char *name;
	int prio;
} classes[] = { { "fifo", 90 }, { "normal", PRIO_NORMAL } };

int bench_wakeup_hog(int argc, char **argv)
{
	u64 interval = 1000, loops = 200, hog_points = 100, hog_run = 20000;
	struct bench_opt opts[] = { BENCH_WAKEUP_HOG_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("wakeup_hog", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench wakeup_hog: CPU 0, interval %llu us, %llu loops per class, hog: "
		       "might_resched() every %llu iterations, cond_resched() every %llu (%s)\n",
		       (unsigned long long)interval, (unsigned long long)loops,
		       (unsigned long long)hog_points, (unsigned long long)hog_run, ctx);
	for (size_t k = 0; k < ARRAY_SIZE(classes); k++) {
		struct bench_hog hog = { hog_points, hog_run, 0 };
		struct sleeper s = { interval * NSEC_PER_USEC, loops, { 0 } };
		stats_init(&s.st, NULL, 0, NSEC_PER_USEC);
		struct thread *ht = thread_create(bench_hog_thread, &hog, "hog", PRIO_NORMAL, 1UL << 0);
		struct thread *st = ht ? thread_create(sleeper, &s, "sleeper", classes[k].prio, 1UL << 0)
				       : NULL;
		if (!st) {
			console_printf("bench wakeup_hog: cannot start the %s threads\n",
				       ht ? "sleeper" : "hog");
			if (ht) {
				hog.stop = 1;
				thread_join(ht);
			}
			return -1;
		}
		thread_join(st);
		hog.stop = 1;
		thread_join(ht);
		console_printf("  %-6s sleeper: min %llu ns, avg %llu ns, max %llu ns late\n",
			       classes[k].name, (unsigned long long)s.st.min,
			       (unsigned long long)stats_avg(&s.st), (unsigned long long)s.st.max);
		console_printf("BENCH wakeup_hog %s class=%s cpu=0 interval_us=%llu loops=%llu "
			       "min=%llu avg=%llu max=%llu tick_ns=%llu\n",
			       ctx, classes[k].name, (unsigned long long)interval,
			       (unsigned long long)loops, (unsigned long long)s.st.min,
			       (unsigned long long)stats_avg(&s.st), (unsigned long long)s.st.max,
			       (unsigned long long)(NSEC_PER_SEC / tick_hz_param));
	}
	return 0;
}
