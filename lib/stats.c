/* Latency statistics: running extremes and sums, a fixed histogram, and
 * percentiles. Definitions are in lib/stats.h. Integer arithmetic only
 * (no floating point in the kernel). */
#include "lib/stats.h"
#include "lib/string.h"

void stats_init(struct stats *s, u32 *buckets, size_t nbuckets,
		u64 bucket_width)
{
	s->count = 0;
	s->min = 0;
	s->max = 0;
	s->sum = 0;
	s->overflow = 0;
	s->buckets = buckets;
	s->nbuckets = buckets ? nbuckets : 0;
	s->bucket_width = bucket_width ? bucket_width : 1;
	if (s->nbuckets)
		memset(buckets, 0, s->nbuckets * sizeof(*buckets));
}

void stats_add(struct stats *s, u64 value)
{
	u64 b = value / s->bucket_width;

	if (s->count == 0 || value < s->min)
		s->min = value;
	if (s->count == 0 || value > s->max)
		s->max = value;
	s->count++;
	s->sum += value;

	if (b < s->nbuckets) {
		/* Saturate rather than wrap: a stuck bucket is visibly odd,
		 * a wrapped one silently lies. */
		if (s->buckets[b] != UINT32_MAX)
			s->buckets[b]++;
	} else {
		s->overflow++;
	}
}

u64 stats_avg(const struct stats *s)
{
	return s->count ? s->sum / s->count : 0;
}

/* ceil(n * permille / 1000), at least 1, for permille <= 1000, computed
 * without overflowing n * permille: split n = 1000q + r, then
 * n*p/1000 = q*p + r*p/1000, and only the second term needs rounding up. */
static u64 rank_of(u64 n, unsigned permille)
{
	u64 r = (n / 1000) * permille + ((n % 1000) * permille + 999) / 1000;

	return r ? r : 1;
}

u64 stats_percentile(const struct stats *s, unsigned permille)
{
	u64 rank, seen = 0, v;

	if (s->count == 0)
		return 0;
	if (permille > 1000)
		permille = 1000;
	rank = rank_of(s->count, permille);

	for (size_t i = 0; i < s->nbuckets; i++) {
		seen += s->buckets[i];
		if (seen >= rank) {
			/* Bucket i holds a sample (seen just reached rank), so
			 * v <= max, and the answer is >= that sample >= min:
			 * only the clamp to max is needed. It is written as a
			 * subtraction so the top of the bucket, v + w - 1,
			 * cannot overflow near 2^64. */
			v = (u64)i * s->bucket_width;
			if (s->max - v <= s->bucket_width - 1)
				return s->max;
			return v + (s->bucket_width - 1);
		}
	}
	return s->max;	/* the rank lies among the overflowed samples */
}

u64 percentile_sorted(const u64 *sorted, size_t n, unsigned permille)
{
	if (n == 0)
		return 0;
	if (permille > 1000)
		permille = 1000;
	return sorted[rank_of(n, permille) - 1];
}
