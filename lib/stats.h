/* Latency statistics for cyclictest-style reports.
 *
 * A struct stats keeps count, min, max and sum exactly, plus a histogram
 * of nbuckets buckets, each bucket_width units wide: bucket i counts the
 * samples v with i*w <= v < (i+1)*w. With w == 1 and values in
 * microseconds this is cyclictest's histogram (bucket i = "i us").
 * Samples >= nbuckets*w are counted in overflow instead (cyclictest's
 * "Histogram Overflows"). The caller owns the bucket array, so a stats
 * object can live on the stack or per CPU with no allocator.
 *
 * Bucket counters saturate at UINT32_MAX rather than wrap.
 *
 * One writer at a time: callers lock, or keep one struct per CPU. */
#ifndef FOLD_LIB_STATS_H
#define FOLD_LIB_STATS_H

#include "lib/types.h"

struct stats {
	u64 count;		/* samples added */
	u64 min;		/* smallest sample; 0 while count == 0 */
	u64 max;		/* largest sample; 0 while count == 0 */
	u64 sum;		/* sum of samples (wraps after 2^64: not a
				 * concern for nanosecond latencies) */
	u64 overflow;		/* samples beyond the last bucket */
	u32 *buckets;		/* nbuckets counters, owned by the caller */
	size_t nbuckets;	/* may be 0: no histogram */
	u64 bucket_width;	/* units per bucket, >= 1 */
};

/* Reset s and zero the buckets. buckets may be NULL if nbuckets is 0.
 * bucket_width 0 is taken as 1. */
void stats_init(struct stats *s, u32 *buckets, size_t nbuckets,
		u64 bucket_width);

void stats_add(struct stats *s, u64 value);

/* sum / count, truncated toward zero as cyclictest prints its Avg column;
 * 0 when there are no samples. */
u64 stats_avg(const struct stats *s);

/* The permille-th percentile (500 = median, 990 = p99, 1000 = max) from
 * the histogram: the rank r = ceil(count * permille / 1000) (at least 1)
 * is located by summing bucket counts, and the result is the largest value
 * the bucket holding the r-th smallest sample can contain, (i+1)*w - 1,
 * clamped to [min, max]. So with w == 1 and no overflow it is exact and
 * equals percentile_sorted() over the same samples; with wider buckets it
 * is an upper bound never more than w-1 too high. If the rank falls among
 * the overflowed samples, all that is known is that the answer lies in
 * [nbuckets*w, max]: max is returned. permille > 1000 is taken as 1000;
 * 0 when there are no samples. */
u64 stats_percentile(const struct stats *s, unsigned permille);

/* Exact percentile of n ascending samples by the nearest-rank method
 * (the definition in e.g. Wikipedia, "Percentile": the smallest sample
 * such that at least P% of the samples are <= it): rank
 * r = ceil(n * permille / 1000), at least 1, and the answer is
 * sorted[r - 1], always an actual sample. permille > 1000 is taken as
 * 1000; 0 when n == 0. */
u64 percentile_sorted(const u64 *sorted, size_t n, unsigned permille);

#endif
