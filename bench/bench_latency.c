/* bench latency: cyclictest's method. On each CPU a FIFO thread (prio 90)
 * sleeps to absolute deadlines `interval` microseconds apart and records
 * how late it woke (actual minus expected). Optional load on every CPU:
 *   hog       a normal thread looping ~100-instruction iterations with no
 *             preemption point but a might_resched() every hog_points
 *             iterations and a cond_resched() every hog_run iterations:
 *             full preempts it anywhere, voluntary at might_resched(),
 *             none only at cond_resched()
 *   pingpong  pairs of normal threads, on neighbouring CPUs, handing a
 *             message back and forth through completions (like hackbench)
 *   lock      a normal thread taking its CPU's spinlock_t and working
 *             inside it for section_us, again and again (experiment E9):
 *             the FIFO thread needs no lock, but outside PREEMPT_RT the
 *             section holds preemption off, so its wake-up waits for the
 *             section's end; on PREEMPT_RT the holder is preempted. Each
 *             section starts a little before one of the FIFO thread's
 *             deadlines, by a lead that sweeps the section in sixteenths
 *             (the first just 100 ns), so that the worst case, a wake-up
 *             just after the lock was taken, is measured every 16 wake-ups
 *             instead of left to chance
 *   local     the same with a local_lock_t (kernel/locking/local_lock.h):
 *             its CPU's section of per-CPU data, whose lock is
 *             preempt_disable() outside PREEMPT_RT and a per-CPU
 *             sleeping lock (with migrate_disable()) on it
 * Output: cyclictest's own report, byte for byte as rt-tests 2.4 prints
 * it (bench/cyclictest_out.c): its T: lines, and with histogram=N
 * its histogram block (N one-microsecond buckets); nsecs=1 is its -N
 * (nanoseconds, N one-nanosecond buckets). Then, on lines of their own,
 * each CPU's p99 and the BENCH latency / latency_hist lines (nanoseconds,
 * 1 us buckets) for the host harness. */
#include "bench/bench.h"
#include "bench/bench_hog.h"
#include "bench/cyclictest_out.h"
#include "bench/line.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/local_lock.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "mm/mm.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "lib/stats.h"
#include "lib/sort.h"
#include "lib/string.h"
#include "lib/format.h"

enum { LOAD_NONE, LOAD_HOG, LOAD_PINGPONG, LOAD_LOCK, LOAD_LOCAL };
const char *const bench_latency_loads[5] = BENCH_LATENCY_LOAD_WORDS; /* LOAD_* */

struct measurer {
	u64 interval_ns, loops;
	u64 *samples;
	struct stats st;
	u32 *buckets;
	u64 last;
	volatile u64 next;     /* the deadline it sleeps to (load=lock aims at it) */
	struct thread *th;
	u32 tid;
	u32 cpu;
};

static volatile int load_stop;

static void measure(void *arg)
{
	struct measurer *m = arg;
	u64 next = ktime_get_ns() + m->interval_ns;
	for (u64 i = 0; i < m->loops; i++) {
		WRITE_ONCE(m->next, next);
		sleep_until(next);
		u64 lat = ktime_get_ns() - next;
		m->samples[i] = lat;
		stats_add(&m->st, lat);
		m->last = lat;
		next += m->interval_ns;
	}
}

struct pingpong {
	struct completion ping, pong;
	bool initiator;
	struct pingpong *peer;
};

static void pingpong_thread(void *arg)
{
	struct pingpong *p = arg;
	while (!READ_ONCE(load_stop)) {
		if (p->initiator) {
			complete(&p->peer->ping);
			wait_for_completion(&p->pong);
		} else {
			wait_for_completion(&p->ping);
			complete(&p->peer->pong);
		}
	}
	/* Release a peer that may be waiting for us. */
	complete(&p->peer->ping);
	complete(&p->peer->pong);
}

/* load=lock: one per CPU, each thread its own lock. load=local: the
 * same, each thread in its CPU's section of latency_pcp. */
struct lock_load {
	spinlock_t lock;
	bool local;            /* load=local */
	u64 section_ns;
	u64 sections;
	struct measurer *m;    /* the FIFO thread of its CPU */
};

/* load=local's per-CPU data: what each CPU's section counts. */
static struct latency_pcp {
	local_lock_t lock;
	u64 sections;
} latency_pcp[MAX_CPUS];

static void spin_until(u64 end)
{
	while (ktime_get_ns() < end && !READ_ONCE(load_stop))
		cpu_relax();
}

static void lock_thread(void *arg)
{
	struct lock_load *l = arg;
	struct measurer *m = l->m;
	for (u64 k = 0; !READ_ONCE(load_stop); k++) {
		u64 lead = k % 16 ? l->section_ns * (k % 16) / 16 : 100;
		u64 d = READ_ONCE(m->next);
		if (!d) { /* the FIFO thread has not started */
			spin_until(ktime_get_ns() + 10 * NSEC_PER_USEC);
			continue;
		}
		while (d - lead < ktime_get_ns() + NSEC_PER_USEC)
			d += m->interval_ns; /* too near: the one after */
		spin_until(d - lead);
		if (l->local) {
			local_lock(latency_pcp, lock);
			spin_until(ktime_get_ns() + l->section_ns);
			this_cpu_local(latency_pcp)->sections++;
			local_unlock(latency_pcp, lock);
		} else {
			spin_lock(&l->lock);
			spin_until(ktime_get_ns() + l->section_ns);
			spin_unlock(&l->lock);
		}
		l->sections++;
	}
}

/* One BENCH latency_hist line per CPU: the 1 us histogram the host
 * harness plots (whatever unit the cyclictest block above was in). */
static void print_bench_hist(struct measurer *m, u32 n, u64 nb, const char *ctx, const char *load)
{
	static struct line l; /* big: one benchmark runs at a time (the shell) */
	l.len = 0;
	for (u32 c = 0; c < n; c++) {
		u64 last = 0;
		for (u64 b = 0; b < nb; b++)
			if (m[c].buckets[b])
				last = b + 1;
		line_add(&l, "BENCH latency_hist %s load=%s cpu=%u bucket_us=1 overflow=%llu counts=",
			 ctx, load, c, (unsigned long long)m[c].st.overflow);
		for (u64 b = 0; b < last; b++)
			line_add(&l, "%s%u", b ? "," : "", m[c].buckets[b]);
		line_end(&l);
	}
}

int bench_latency(int argc, char **argv)
{
	u64 interval = 1000, loops = 2000, load = LOAD_NONE, hog_points = 100,
	    hog_run = 20000, histogram = 0, nsecs = 0, section_us = 1000;
	struct bench_opt opts[] = { BENCH_LATENCY_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("latency", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	u32 n = nr_cpus_online;
	struct measurer *m = kzalloc(sizeof(*m) * n);
	struct thread **loaders = kzalloc(sizeof(*loaders) * 2 * n);
	struct pingpong *pp = kzalloc(sizeof(*pp) * 2 * n);
	struct lock_load *ll = kzalloc(sizeof(*ll) * n);
	struct bench_hog ha = { hog_points, hog_run, 0 };
	if (!m || !loaders || !pp || !ll)
		goto oom;
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench latency: %u CPUs, interval %llu us, %llu loops, load %s (%s)\n", n,
		       (unsigned long long)interval, (unsigned long long)loops, bench_latency_loads[load], ctx);
	if (load == LOAD_HOG)
		console_printf("  hog: might_resched() every %llu iterations, cond_resched() every %llu\n",
			       (unsigned long long)hog_points, (unsigned long long)hog_run);
	if (load == LOAD_LOCK || load == LOAD_LOCAL)
		console_printf("  %s: a %s section of %llu us, again and again, on every CPU (%s)\n",
			       bench_latency_loads[load], load == LOAD_LOCK ? "spinlock_t" : "local_lock_t",
			       (unsigned long long)section_us,
			       PREEMPT_RT ? "PREEMPT_RT: the holder can be preempted"
					  : "not RT: the section holds preemption off");
	if (load == LOAD_LOCAL)
		local_lock_init_all(latency_pcp, lock, "latency_pcp");

	for (u32 c = 0; c < n; c++) {
		m[c].interval_ns = interval * NSEC_PER_USEC;
		m[c].loops = loops;
		m[c].cpu = c;
		m[c].samples = kmalloc(sizeof(u64) * loops);
		m[c].buckets = histogram ? kzalloc(sizeof(u32) * histogram) : NULL;
		if (!m[c].samples || (histogram && !m[c].buckets))
			goto oom;
		stats_init(&m[c].st, m[c].buckets, histogram, NSEC_PER_USEC);
	}
	load_stop = 0;
	u32 nload = 0, nm = 0;
	bool missing = false; /* a thread not made: no kernel stack or memory left */
	for (u32 c = 0; c < n; c++) {
		if (load == LOAD_HOG) {
			loaders[nload] = thread_create(bench_hog_thread, &ha, "hog", PRIO_NORMAL, 1UL << c);
			missing |= !loaders[nload];
			nload += loaders[nload] != NULL;
		} else if (load == LOAD_PINGPONG) {
			struct pingpong *a = &pp[2 * c], *b = &pp[2 * c + 1];
			init_completion(&a->ping);
			init_completion(&a->pong);
			init_completion(&b->ping);
			init_completion(&b->pong);
			a->initiator = true;
			a->peer = b;
			b->peer = a;
			loaders[nload] = thread_create(pingpong_thread, a, "ping", PRIO_NORMAL, 1UL << c);
			nload += loaders[nload] != NULL;
			loaders[nload] = thread_create(pingpong_thread, b, "pong", PRIO_NORMAL,
						       1UL << ((c + 1) % n));
			nload += loaders[nload] != NULL;
			missing |= nload != 2 * (c + 1);
		} else if (load == LOAD_LOCK || load == LOAD_LOCAL) {
			spin_lock_init(&ll[c].lock, "bench_latency_lock");
			ll[c].local = load == LOAD_LOCAL;
			ll[c].section_ns = section_us * NSEC_PER_USEC;
			ll[c].m = &m[c];
			loaders[nload] = thread_create(lock_thread, &ll[c], "locker", PRIO_NORMAL, 1UL << c);
			missing |= !loaders[nload];
			nload += loaders[nload] != NULL;
		}
	}
	for (u32 c = 0; c < n && !missing; c++, nm++) {
		m[c].th = thread_create(measure, &m[c], "cyclic", 90, 1UL << c);
		if (!m[c].th)
			missing = true;
		else
			m[c].tid = m[c].th->id;
	}
	for (u32 c = 0; c < nm; c++)
		if (m[c].th)
			thread_join(m[c].th);
	load_stop = 1;
	ha.stop = 1;
	if (missing && load == LOAD_PINGPONG) /* one whose peer was not made waits for it */
		for (u32 i = 0; i < 2 * n; i++) {
			complete(&pp[i].ping);
			complete(&pp[i].pong);
		}
	for (u32 i = 0; i < nload; i++)
		thread_join(loaders[i]);
	if (missing) {
		console_printf("bench latency: cannot start its threads: no kernel stack or memory left\n");
		goto fail;
	}

	/* cyclictest's report first, from the samples in wake-up order:
	 * its T: lines, then (histogram=N) its histogram block. */
	struct ct_thread *ct = kzalloc(sizeof(*ct) * n);
	if (!ct)
		goto oom;
	for (u32 c = 0; c < n; c++)
		ct[c] = (struct ct_thread){ m[c].samples, m[c].st.count, m[c].tid };
	for (u32 c = 0; c < n; c++)
		ct_print_stat(&ct[c], c, 90, interval, nsecs);
	if (histogram && ct_print_hist(ct, n, histogram, nsecs))
		console_printf("bench latency: out of memory for the histogram\n");
	kfree(ct);
	/* Then what cyclictest does not print, on lines of their own. */
	for (u32 c = 0; c < n; c++) {
		struct measurer *x = &m[c];
		sort_u64(x->samples, loops);
		u64 p99 = percentile_sorted(x->samples, loops, 990);
		console_printf("bench latency: cpu %u: p99 %llu us (%llu ns)\n", c,
			       (unsigned long long)(p99 / 1000), (unsigned long long)p99);
		console_printf("BENCH latency %s load=%s cpu=%u interval_us=%llu loops=%llu min=%llu avg=%llu p99=%llu max=%llu\n",
			       ctx, bench_latency_loads[load], c, (unsigned long long)interval,
			       (unsigned long long)loops, (unsigned long long)x->st.min,
			       (unsigned long long)stats_avg(&x->st), (unsigned long long)p99,
			       (unsigned long long)x->st.max);
	}
	if (histogram)
		print_bench_hist(m, n, histogram, ctx, bench_latency_loads[load]);
	for (u32 c = 0; c < n; c++) {
		kfree(m[c].samples);
		kfree(m[c].buckets);
	}
	kfree(m);
	kfree(loaders);
	kfree(pp);
	kfree(ll);
	return 0;
oom:
	console_printf("bench latency: out of memory for %llu samples per CPU\n",
		       (unsigned long long)loops);
fail:
	for (u32 c = 0; m && c < n; c++) {
		kfree(m[c].samples);
		kfree(m[c].buckets);
	}
	kfree(m);
	kfree(loaders);
	kfree(pp);
	kfree(ll);
	return -1;
}
