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
 * Output: cyclictest's T: lines (values in microseconds) with p99, its
 * histogram format with histogram=N (N one-microsecond buckets), and
 * BENCH latency / latency_hist lines in nanoseconds. */
#include "kernel/bench/bench.h"
#include "kernel/bench/bench_hog.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "kernel/mm.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "lib/stats.h"
#include "lib/sort.h"
#include "lib/string.h"
#include "lib/format.h"

enum { LOAD_NONE, LOAD_HOG, LOAD_PINGPONG };
const char *const bench_latency_loads[3] = { "none", "hog", "pingpong" }; /* LOAD_* */

struct measurer {
	u64 interval_ns, loops;
	u64 *samples;
	struct stats st;
	u32 *buckets;
	u64 last;
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

/* Appends to a line buffer; lines go out whole (console_write), so other
 * CPUs' output cannot land inside them. */
struct line {
	char buf[16384];
	size_t len;
};
static __printf(2, 3) void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (l->len < sizeof(l->buf))
		l->len += (size_t)vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (l->len >= sizeof(l->buf))
		l->len = sizeof(l->buf) - 1;
}
static void line_end(struct line *l)
{
	line_add(l, "\n");
	console_write(l->buf, l->len);
	l->len = 0;
}

/* cyclictest -h's format: one line per microsecond bucket, a column per
 * thread, then totals; then one BENCH latency_hist line per CPU. */
static void print_histogram(struct measurer *m, u32 n, u64 nb, const char *ctx, const char *load)
{
	static struct line l; /* big: one benchmark runs at a time (the shell) */
	l.len = 0;
	console_printf("# Histogram\n");
	for (u64 b = 0; b < nb; b++) {
		bool any = false;
		for (u32 c = 0; c < n; c++)
			any |= m[c].buckets[b] != 0;
		if (!any)
			continue;
		line_add(&l, "%06llu", (unsigned long long)b);
		for (u32 c = 0; c < n; c++)
			line_add(&l, " %06u", m[c].buckets[b]);
		line_end(&l);
	}
	static const char *const rows[] = { "Total", "Min Latencies", "Avg Latencies",
					    "Max Latencies", "Histogram Overflows" };
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
		line_add(&l, "# %s:", rows[r]);
		for (u32 c = 0; c < n; c++) {
			const struct stats *st = &m[c].st;
			u64 v = r == 0 ? st->count : r == 1 ? st->min / 1000 : r == 2 ? stats_avg(st) / 1000
				: r == 3 ? st->max / 1000 : st->overflow;
			line_add(&l, r == 0 ? " %09llu" : " %05llu", (unsigned long long)v);
		}
		line_end(&l);
	}
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
	    hog_run = 20000, histogram = 0;
	struct bench_opt opts[] = { BENCH_LATENCY_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("latency", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	u32 n = nr_cpus_online;
	struct measurer *m = kzalloc(sizeof(*m) * n);
	struct thread **loaders = kzalloc(sizeof(*loaders) * 2 * n);
	struct pingpong *pp = kzalloc(sizeof(*pp) * 2 * n);
	struct bench_hog ha = { hog_points, hog_run, 0 };
	if (!m || !loaders || !pp)
		goto oom;
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench latency: %u CPUs, interval %llu us, %llu loops, load %s (%s)\n", n,
		       (unsigned long long)interval, (unsigned long long)loops, bench_latency_loads[load], ctx);
	if (load == LOAD_HOG)
		console_printf("  hog: might_resched() every %llu iterations, cond_resched() every %llu\n",
			       (unsigned long long)hog_points, (unsigned long long)hog_run);

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
	u32 nload = 0;
	for (u32 c = 0; c < n; c++) {
		if (load == LOAD_HOG) {
			loaders[nload++] = thread_create(bench_hog_thread, &ha, "hog", PRIO_NORMAL, 1UL << c);
		} else if (load == LOAD_PINGPONG) {
			struct pingpong *a = &pp[2 * c], *b = &pp[2 * c + 1];
			init_completion(&a->ping);
			init_completion(&a->pong);
			init_completion(&b->ping);
			init_completion(&b->pong);
			a->initiator = true;
			a->peer = b;
			b->peer = a;
			loaders[nload++] = thread_create(pingpong_thread, a, "ping", PRIO_NORMAL, 1UL << c);
			loaders[nload++] = thread_create(pingpong_thread, b, "pong", PRIO_NORMAL,
							 1UL << ((c + 1) % n));
		}
	}
	for (u32 c = 0; c < n; c++) {
		m[c].th = thread_create(measure, &m[c], "cyclic", 90, 1UL << c);
		m[c].tid = m[c].th->id;
	}
	for (u32 c = 0; c < n; c++)
		thread_join(m[c].th);
	load_stop = 1;
	ha.stop = 1;
	for (u32 i = 0; i < nload; i++)
		thread_join(loaders[i]);

	for (u32 c = 0; c < n; c++) {
		struct measurer *x = &m[c];
		sort_u64(x->samples, loops);
		u64 p99 = percentile_sorted(x->samples, loops, 990);
		/* cyclictest: T: thread (tid) P:prio I:interval C:count, in us */
		console_printf("T:%2u (%5u) P:90 I:%llu C:%7llu Min:%7llu Act:%5llu Avg:%5llu Max:%8llu P99:%6llu\n",
			       c, x->tid, (unsigned long long)interval,
			       (unsigned long long)x->st.count,
			       (unsigned long long)(x->st.min / 1000), (unsigned long long)(x->last / 1000),
			       (unsigned long long)(stats_avg(&x->st) / 1000),
			       (unsigned long long)(x->st.max / 1000), (unsigned long long)(p99 / 1000));
		console_printf("BENCH latency %s load=%s cpu=%u interval_us=%llu loops=%llu min=%llu avg=%llu p99=%llu max=%llu\n",
			       ctx, bench_latency_loads[load], c, (unsigned long long)interval,
			       (unsigned long long)loops, (unsigned long long)x->st.min,
			       (unsigned long long)stats_avg(&x->st), (unsigned long long)p99,
			       (unsigned long long)x->st.max);
	}
	if (histogram)
		print_histogram(m, n, histogram, ctx, bench_latency_loads[load]);
	for (u32 c = 0; c < n; c++) {
		kfree(m[c].samples);
		kfree(m[c].buckets);
	}
	kfree(m);
	kfree(loaders);
	kfree(pp);
	return 0;
oom:
	console_printf("bench latency: out of memory for %llu samples per CPU\n",
		       (unsigned long long)loops);
	for (u32 c = 0; m && c < n; c++) {
		kfree(m[c].samples);
		kfree(m[c].buckets);
	}
	kfree(m);
	kfree(loaders);
	kfree(pp);
	return -1;
}
