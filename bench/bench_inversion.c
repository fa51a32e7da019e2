/* bench inversion: priority inversion, as on Mars Pathfinder in 1997, and
 * priority inheritance, the cure (experiment E9; kernel/locking/rtmutex.h).
 *
 * On one CPU (the last): low, a normal thread, takes an rt_mutex and works
 * section_us inside it. high (FIFO 30) then wants the same lock and
 * sleeps on it; medium (FIFO 20), which needs no lock, wakes and works
 * medium_us. Without inheritance medium outranks low, so low, and high
 * behind it, wait for all of medium's run: high, the most urgent thread,
 * waits on the least urgent one's behalf. With it low runs at high's
 * priority until it lets go, above medium, so high waits for the rest of
 * low's section only. The run is made twice, with inheritance on and then
 * off (rt_mutex_pi_enabled, for this benchmark alone); it reports how
 * long high waited for the lock each time.
 *
 * "Work" is running time: a thread's work loop does not count the gaps
 * (over WORK_GAP_NS between two looks at the clock) in which it was
 * preempted, so a preempted section lasts longer, as it would. */
#include "bench/bench.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "lib/format.h"

#define WORK_GAP_NS (50 * NSEC_PER_USEC)
#define PRIO_HIGH 30
#define PRIO_MEDIUM 20

struct inversion {
	struct rt_mutex lock;
	u64 section_ns, medium_ns;
	volatile int low_holds;
	u64 high_wait_ns;
	int low_prio_seen;     /* low's priority at the end of its section */
};

static void work_for(u64 ns)
{
	u64 done = 0, last = ktime_get_ns();
	while (done < ns) {
		u64 now = ktime_get_ns();
		if (now - last < WORK_GAP_NS)
			done += now - last;
		last = now;
		cpu_relax();
	}
}

static void low_fn(void *arg)
{
	struct inversion *v = arg;
	rt_mutex_lock(&v->lock);
	WRITE_ONCE(v->low_holds, 1);
	work_for(v->section_ns);
	v->low_prio_seen = current_thread()->prio; /* boosted, or not */
	rt_mutex_unlock(&v->lock);
}

static void high_fn(void *arg)
{
	struct inversion *v = arg;
	u64 t0 = ktime_get_ns();
	rt_mutex_lock(&v->lock);
	v->high_wait_ns = ktime_get_ns() - t0;
	rt_mutex_unlock(&v->lock);
}

static void medium_fn(void *arg)
{
	struct inversion *v = arg;
	work_for(v->medium_ns);
}

/* One run; false if a thread could not be made. */
static bool run_once(struct inversion *v, u32 cpu)
{
	u64 mask = 1UL << cpu;
	/* The runner outranks the three while it sets them up, so that low
	 * is inside its section, not done with it, when high and medium wake. */
	struct thread *me = current_thread();
	int my_prio = me->normal_prio;
	sched_setscheduler(me, PRIO_HIGH + 10);
	rt_mutex_init(&v->lock, "bench_inversion");
	v->low_holds = 0;
	v->high_wait_ns = 0;
	v->low_prio_seen = -1;
	struct thread *low = thread_create(low_fn, v, "inv-low", PRIO_NORMAL, mask);
	struct thread *high = kthread_create(high_fn, v, "inv-high", PRIO_HIGH, mask);
	struct thread *medium = kthread_create(medium_fn, v, "inv-medium", PRIO_MEDIUM, mask);
	if (low)
		while (!READ_ONCE(v->low_holds))
			sleep_ns(20 * NSEC_PER_USEC);
	/* Both woken before either runs: high, the higher, first; it blocks
	 * on the lock (boosting low, with PI); then the CPU goes to whichever
	 * of low and medium now ranks higher. */
	preempt_disable();
	if (high)
		wake_up_thread(high);
	if (medium)
		wake_up_thread(medium);
	preempt_enable();
	sched_setscheduler(me, my_prio);
	if (medium)
		thread_join(medium);
	if (high)
		thread_join(high);
	if (low)
		thread_join(low);
	return low && high && medium;
}

int bench_inversion(int argc, char **argv)
{
	u64 section_us = 1000, medium_us = 10000;
	struct bench_opt opts[] = { BENCH_INVERSION_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("inversion", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	u32 cpu = nr_cpus_online - 1;
	console_printf("bench inversion: on CPU %u, low (normal) holds an rt_mutex for %llu us "
		       "of work; high (FIFO %d) needs it; medium (FIFO %d) works %llu us (%s)\n",
		       cpu, (unsigned long long)section_us, PRIO_HIGH, PRIO_MEDIUM,
		       (unsigned long long)medium_us, ctx);
	struct inversion v = { .section_ns = section_us * NSEC_PER_USEC,
			       .medium_ns = medium_us * NSEC_PER_USEC };
	u64 wait[2];
	int seen[2];
	for (int pi = 1; pi >= 0; pi--) {
		bool was = rt_mutex_pi_enabled;
		rt_mutex_pi_enabled = pi;
		bool ok = run_once(&v, cpu);
		rt_mutex_pi_enabled = was;
		if (!ok) {
			console_printf("bench inversion: cannot start its threads: no kernel stack or memory left\n");
			return -1;
		}
		wait[pi] = v.high_wait_ns;
		seen[pi] = v.low_prio_seen;
	}
	for (int pi = 1; pi >= 0; pi--) {
		char ratio[32];
		fmt_ratio(ratio, sizeof(ratio), wait[pi], section_us * NSEC_PER_USEC, 2);
		console_printf("  %-28s high waited %llu us (%s x the section); low ran at prio %d "
			       "while high waited\n",
			       pi ? "with priority inheritance:" : "without (PI off):",
			       (unsigned long long)(wait[pi] / NSEC_PER_USEC), ratio, seen[pi]);
	}
	for (int pi = 1; pi >= 0; pi--)
		console_printf("BENCH inversion %s pi=%d section_us=%llu medium_us=%llu "
			       "high_wait_ns=%llu low_prio=%d\n", ctx, pi,
			       (unsigned long long)section_us, (unsigned long long)medium_us,
			       (unsigned long long)wait[pi], seen[pi]);
	return 0;
}
