/* Host tests for lib/stats.c: definitions checked by hand on small cases,
 * then the histogram percentile against the exact one on random data. */
#include "lib/sort.h"
#include "lib/stats.h"
#include "tests/host/check.h"

static void t_empty(void)
{
	struct stats s;
	u32 b[4] = { 9, 9, 9, 9 };

	stats_init(&s, b, 4, 1);
	CHECK_EQ_U64(0, b[0] | b[1] | b[2] | b[3]);	/* zeroed */
	CHECK_EQ_U64(0, s.count);
	CHECK_EQ_U64(0, s.min);
	CHECK_EQ_U64(0, s.max);
	CHECK_EQ_U64(0, stats_avg(&s));
	CHECK_EQ_U64(0, stats_percentile(&s, 500));
	CHECK_EQ_U64(0, percentile_sorted(NULL, 0, 500));
}

static void t_basic(void)
{
	struct stats s;
	u32 b[10];

	stats_init(&s, b, 10, 1);
	stats_add(&s, 5);
	CHECK_EQ_U64(5, s.min);		/* first sample sets both */
	CHECK_EQ_U64(5, s.max);
	stats_add(&s, 3);
	stats_add(&s, 9);
	stats_add(&s, 3);
	stats_add(&s, 12);		/* overflow: >= 10 */
	stats_add(&s, 0);
	CHECK_EQ_U64(6, s.count);
	CHECK_EQ_U64(0, s.min);
	CHECK_EQ_U64(12, s.max);
	CHECK_EQ_U64(32, s.sum);
	CHECK_EQ_U64(5, stats_avg(&s));		/* 32 / 6 = 5.33, truncated */
	CHECK_EQ_U64(1, s.overflow);
	CHECK_EQ_U64(1, b[0]);
	CHECK_EQ_U64(2, b[3]);
	CHECK_EQ_U64(1, b[5]);
	CHECK_EQ_U64(1, b[9]);
	CHECK_EQ_U64(0, b[1]);

	stats_init(&s, b, 10, 1);		/* reset */
	CHECK_EQ_U64(0, s.count);
	stats_add(&s, 7);
	stats_add(&s, 8);
	CHECK_EQ_U64(7, stats_avg(&s));		/* 7.5 truncates to 7 */
}

static void t_avg_large(void)
{
	struct stats s;

	stats_init(&s, NULL, 0, 1);		/* no histogram at all */
	stats_add(&s, UINT64_MAX / 4);
	stats_add(&s, UINT64_MAX / 4);
	CHECK_EQ_U64(UINT64_MAX / 4, stats_avg(&s));
	CHECK_EQ_U64(2, s.overflow);		/* everything overflows */
	CHECK_EQ_U64(UINT64_MAX / 4, stats_percentile(&s, 500));
}

/* Nearest rank: n = 10 samples 10, 20, ..., 100. */
static void t_percentile_sorted(void)
{
	u64 a[10];

	for (int i = 0; i < 10; i++)
		a[i] = (u64)(i + 1) * 10;
	CHECK_EQ_U64(10, percentile_sorted(a, 10, 0));		/* rank 1 */
	CHECK_EQ_U64(10, percentile_sorted(a, 10, 1));		/* ceil(0.01) */
	CHECK_EQ_U64(10, percentile_sorted(a, 10, 100));	/* rank 1 */
	CHECK_EQ_U64(20, percentile_sorted(a, 10, 101));	/* ceil(1.01) */
	CHECK_EQ_U64(50, percentile_sorted(a, 10, 500));	/* rank 5 */
	CHECK_EQ_U64(60, percentile_sorted(a, 10, 501));
	CHECK_EQ_U64(90, percentile_sorted(a, 10, 900));
	CHECK_EQ_U64(100, percentile_sorted(a, 10, 901));
	CHECK_EQ_U64(100, percentile_sorted(a, 10, 990));
	CHECK_EQ_U64(100, percentile_sorted(a, 10, 1000));
	CHECK_EQ_U64(100, percentile_sorted(a, 10, 5000));	/* clamped */
	CHECK_EQ_U64(10, percentile_sorted(a, 1, 999));		/* n = 1 */

	/* The textbook example (Wikipedia, "Percentile", nearest-rank):
	 * 15 20 35 40 50 -> p5 15, p30 20, p40 20, p50 35, p100 50. */
	u64 w[] = { 15, 20, 35, 40, 50 };
	CHECK_EQ_U64(15, percentile_sorted(w, 5, 50));
	CHECK_EQ_U64(20, percentile_sorted(w, 5, 300));
	CHECK_EQ_U64(20, percentile_sorted(w, 5, 400));
	CHECK_EQ_U64(35, percentile_sorted(w, 5, 500));
	CHECK_EQ_U64(50, percentile_sorted(w, 5, 1000));
}

static void t_percentile_histogram(void)
{
	struct stats s;
	u32 b[8];

	stats_init(&s, b, 8, 1);
	for (int i = 0; i < 100; i++)
		stats_add(&s, i < 90 ? 2 : 6);	/* 90 x 2us, 10 x 6us */
	CHECK_EQ_U64(2, stats_percentile(&s, 0));
	CHECK_EQ_U64(2, stats_percentile(&s, 500));
	CHECK_EQ_U64(2, stats_percentile(&s, 900));	/* rank 90 */
	CHECK_EQ_U64(6, stats_percentile(&s, 901));	/* rank 91 */
	CHECK_EQ_U64(6, stats_percentile(&s, 990));
	CHECK_EQ_U64(6, stats_percentile(&s, 1000));
	CHECK_EQ_U64(6, stats_percentile(&s, 1001));

	/* Rank among the overflows: max is all that is known. */
	stats_add(&s, 1000);
	stats_add(&s, 5000);
	CHECK_EQ_U64(2, s.overflow);
	CHECK_EQ_U64(5000, stats_percentile(&s, 1000));
	CHECK_EQ_U64(5000, stats_percentile(&s, 995));	/* rank 102 of 102 */
	CHECK_EQ_U64(6, stats_percentile(&s, 980));	/* rank 100 */
}

static void t_bucket_width(void)
{
	struct stats s;
	u32 b[10];

	stats_init(&s, b, 10, 100);	/* 100-unit buckets: [0,100) ... */
	stats_add(&s, 0);
	stats_add(&s, 99);
	stats_add(&s, 100);
	stats_add(&s, 250);
	stats_add(&s, 999);
	stats_add(&s, 1000);		/* overflow */
	CHECK_EQ_U64(2, b[0]);
	CHECK_EQ_U64(1, b[1]);
	CHECK_EQ_U64(1, b[2]);
	CHECK_EQ_U64(1, b[9]);
	CHECK_EQ_U64(1, s.overflow);
	/* Result is the top of the bucket, an upper bound ... */
	CHECK_EQ_U64(99, stats_percentile(&s, 1));	/* rank 1 */
	CHECK_EQ_U64(199, stats_percentile(&s, 500));	/* rank 3: 100 */
	CHECK_EQ_U64(299, stats_percentile(&s, 600));	/* rank 4: 250 */
	CHECK_EQ_U64(999, stats_percentile(&s, 800));	/* rank 5: 999 */
	CHECK_EQ_U64(1000, stats_percentile(&s, 1000));	/* overflow: max */

	/* ... clamped to max. */
	stats_init(&s, b, 10, 100);
	stats_add(&s, 120);
	stats_add(&s, 130);
	CHECK_EQ_U64(130, stats_percentile(&s, 500));
	CHECK_EQ_U64(130, stats_percentile(&s, 1000));

	/* Width 0 is taken as 1. */
	stats_init(&s, b, 10, 0);
	stats_add(&s, 3);
	CHECK_EQ_U64(1, b[3]);
	CHECK_EQ_U64(3, stats_percentile(&s, 500));

	/* Near 2^64 the top of a bucket must not wrap. */
	stats_init(&s, b, 10, UINT64_MAX / 5);
	stats_add(&s, UINT64_MAX);	/* bucket 5 */
	CHECK_EQ_U64(1, b[5]);
	CHECK_EQ_U64(UINT64_MAX, stats_percentile(&s, 500));
	stats_add(&s, UINT64_MAX - 1);	/* bucket 4, whose top is 5w - 1 */
	CHECK_EQ_U64(1, b[4]);
	CHECK_EQ_U64(UINT64_MAX - 1, stats_percentile(&s, 500));
	CHECK_EQ_U64(UINT64_MAX, stats_percentile(&s, 1000));
}

/* With 1-unit buckets and no overflow, the histogram percentile is the
 * exact one: compare against sort + nearest rank on random data. */
static void t_histogram_matches_exact(void)
{
	enum { NB = 300, N = 2000 };
	static u32 b[NB];
	static u64 samples[N];
	struct stats s;
	size_t bad = 0;

	for (int round = 0; round < 50; round++) {
		size_t n = 1 + check_rand() % N;
		u64 spread = 1 + check_rand() % NB;

		stats_init(&s, b, NB, 1);
		for (size_t i = 0; i < n; i++) {
			/* Skewed like a latency distribution. */
			u64 v = check_rand() % spread;
			v = v * v / spread;
			samples[i] = v;
			stats_add(&s, v);
		}
		sort_u64(samples, n);
		CHECK_EQ_U64(samples[0], s.min);
		CHECK_EQ_U64(samples[n - 1], s.max);
		for (unsigned pm = 0; pm <= 1000; pm++)
			bad += stats_percentile(&s, pm) !=
			       percentile_sorted(samples, n, pm);
	}
	CHECK_EQ_U64(0, bad);
}

static void t_bucket_saturates(void)
{
	struct stats s;
	u32 b[2];

	stats_init(&s, b, 2, 1);
	b[1] = UINT32_MAX - 1;		/* pretend 4 billion samples */
	stats_add(&s, 1);
	stats_add(&s, 1);
	CHECK_EQ_U64(UINT32_MAX, b[1]);
}

int main(void)
{
	check_suite("stats");
	RUN(t_empty);
	RUN(t_basic);
	RUN(t_avg_large);
	RUN(t_percentile_sorted);
	RUN(t_percentile_histogram);
	RUN(t_bucket_width);
	RUN(t_histogram_matches_exact);
	RUN(t_bucket_saturates);
	return check_done();
}
