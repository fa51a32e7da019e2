/* cyclictest's report (rt-tests 2.4: print_stat(), print_hist()) from
 * one benchmark run's samples, byte for byte (lib/cyclictest_fmt.h). The
 * figures are cyclictest's: each sample is cut to whole microseconds
 * first (calcdiff()), or kept in nanoseconds as with -N (calcdiff_ns());
 * Avg is the sum of those over the cycles, truncated. */
#ifndef FOLD_KERNEL_BENCH_CYCLICTEST_OUT_H
#define FOLD_KERNEL_BENCH_CYCLICTEST_OUT_H

#include "lib/types.h"

/* One measuring thread: its samples in nanoseconds, in wake-up order
 * (cycle 0 first), and its thread id for the "(%5d)" column. */
struct ct_thread {
	const u64 *samples;
	u64 cycles;
	u32 tid;
};

/* The T: line of thread `index`: priority prio, interval in us. */
void ct_print_stat(const struct ct_thread *t, u32 index, int prio, u64 interval_us,
		   bool nsecs);

/* The histogram block for n threads, `histogram` buckets of one unit (us,
 * or ns with nsecs). Returns -1 (printing nothing) when out of memory. */
int ct_print_hist(const struct ct_thread *t, u32 n, u64 histogram, bool nsecs);

#endif
