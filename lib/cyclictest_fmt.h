/* cyclictest's output formats, as rt-tests 2.4 prints them (Debian 12's
 * rt-tests 2.4-1, "cyclictest V 2.40"; src/cyclictest/cyclictest.c,
 * print_stat() and print_hist()). One source for fold's two printers of
 * them (bench/cyclictest_out.c, user/cyclictest.c); the host
 * checker (tools/bench/check-cyclictest) transcribes them again from
 * rt-tests on purpose, so a slip here is caught there.
 *
 * print_stat(), one summary line per thread: index, tid, priority,
 * interval (us, with -N too), cycles, then Min/Act/Avg/Max in
 * microseconds, or in nanoseconds with -N (wider Act and Avg). */
#ifndef FOLD_LIB_CYCLICTEST_FMT_H
#define FOLD_LIB_CYCLICTEST_FMT_H

#define CYCLICTEST_STAT_US "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld Max:%8ld"
#define CYCLICTEST_STAT_NS "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%8ld Avg:%8ld Max:%8ld"

/* print_hist(): "# Histogram", then one row per bucket 0..N-1, empty ones
 * too: the bucket "%06d " and each thread's count "%06lu", the counts
 * separated by tabs; then the footers, each with one " %05lu" (Total:
 * " %09llu") per thread; then one "# Thread %d:" line per thread with the
 * cycle numbers (0-based) of its first N overflows, " # %05lu others"
 * when there were more; then an empty line. With -N the buckets, Min,
 * Avg and Max are nanoseconds. */
#define CYCLICTEST_HIST_HEAD "# Histogram"
#define CYCLICTEST_HIST_BUCKET "%06d "
#define CYCLICTEST_HIST_COUNT "%06lu"
#define CYCLICTEST_HIST_SEP "\t"
#define CYCLICTEST_TOTAL "# Total:"
#define CYCLICTEST_TOTAL_COL " %09llu"
#define CYCLICTEST_MIN "# Min Latencies:"
#define CYCLICTEST_AVG "# Avg Latencies:"
#define CYCLICTEST_MAX "# Max Latencies:"
#define CYCLICTEST_OVERFLOWS "# Histogram Overflows:"
#define CYCLICTEST_COL " %05lu"
#define CYCLICTEST_OUTLIERS_HEAD "# Histogram Overflow at cycle number:"
#define CYCLICTEST_THREAD "# Thread %d:"
#define CYCLICTEST_OTHERS " # %05lu others"

#endif
