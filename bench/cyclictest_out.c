/* cyclictest's report from a run's samples (bench/cyclictest_out.h). */
#include "bench/cyclictest_out.h"
#include "bench/line.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "lib/cyclictest_fmt.h"

struct ct_figures {
	long min, act, avg, max;
};

/* cyclictest's own arithmetic: per-sample truncation to the unit, the
 * average of those truncated toward zero ((long)(avg / cycles)). */
static struct ct_figures figures(const struct ct_thread *t, u64 unit)
{
	struct ct_figures f = { 0, 0, 0, 0 };
	u64 sum = 0;
	for (u64 i = 0; i < t->cycles; i++) {
		long v = (long)(t->samples[i] / unit);
		if (i == 0 || v < f.min)
			f.min = v;
		if (i == 0 || v > f.max)
			f.max = v;
		f.act = v;
		sum += (u64)v;
	}
	f.avg = t->cycles ? (long)(sum / t->cycles) : 0;
	return f;
}

void ct_print_stat(const struct ct_thread *t, u32 index, int prio, u64 interval_us,
		   bool nsecs)
{
	struct ct_figures f = figures(t, nsecs ? 1 : 1000);
	console_printf(nsecs ? CYCLICTEST_STAT_NS "\n" : CYCLICTEST_STAT_US "\n", (int)index,
		       (int)t->tid, prio, (long)interval_us, (unsigned long)t->cycles, f.min,
		       f.act, f.avg, f.max);
}

int ct_print_hist(const struct ct_thread *t, u32 n, u64 histogram, bool nsecs)
{
	static struct line l; /* big: one benchmark runs at a time (the shell) */
	u64 unit = nsecs ? 1 : 1000;
	u32 *hist = kzalloc(sizeof(u32) * histogram * n);
	u64 *over = kzalloc(sizeof(u64) * n);
	if (!hist || !over) {
		kfree(hist);
		kfree(over);
		return -1;
	}
	for (u32 c = 0; c < n; c++)
		for (u64 i = 0; i < t[c].cycles; i++) {
			u64 v = t[c].samples[i] / unit;
			if (v < histogram)
				hist[c * histogram + v]++;
			else
				over[c]++;
		}
	l.len = 0;
	console_printf(CYCLICTEST_HIST_HEAD "\n");
	for (u64 b = 0; b < histogram; b++) {
		line_add(&l, CYCLICTEST_HIST_BUCKET, (int)b);
		for (u32 c = 0; c < n; c++)
			line_add(&l, "%s" CYCLICTEST_HIST_COUNT, c ? CYCLICTEST_HIST_SEP : "",
				 (unsigned long)hist[c * histogram + b]);
		line_end(&l);
	}
	line_add(&l, CYCLICTEST_TOTAL);
	for (u32 c = 0; c < n; c++)
		line_add(&l, CYCLICTEST_TOTAL_COL, (unsigned long long)(t[c].cycles - over[c]));
	line_end(&l);
	static const char *const rows[] = { CYCLICTEST_MIN, CYCLICTEST_AVG, CYCLICTEST_MAX,
					    CYCLICTEST_OVERFLOWS };
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
		line_add(&l, "%s", rows[r]);
		for (u32 c = 0; c < n; c++) {
			struct ct_figures f = figures(&t[c], unit);
			long v = r == 0 ? f.min : r == 1 ? f.avg : r == 2 ? f.max : (long)over[c];
			line_add(&l, CYCLICTEST_COL, (unsigned long)v);
		}
		line_end(&l);
	}
	console_printf(CYCLICTEST_OUTLIERS_HEAD "\n");
	for (u32 c = 0; c < n; c++) {
		/* cyclictest keeps the cycle numbers of the first `histogram`
		 * overflows and counts the rest. */
		u64 kept = 0;
		line_add(&l, CYCLICTEST_THREAD, (int)c);
		for (u64 i = 0; i < t[c].cycles && kept < histogram; i++)
			if (t[c].samples[i] / unit >= histogram) {
				line_add(&l, CYCLICTEST_COL, (unsigned long)i);
				kept++;
			}
		if (kept < over[c])
			line_add(&l, CYCLICTEST_OTHERS, (unsigned long)(over[c] - kept));
		line_end(&l);
	}
	console_printf("\n");
	kfree(hist);
	kfree(over);
	return 0;
}
