/* The count decoded for people: the oops, the debug checks and the
 * shell's `cpus` print it this way. */
#include "kernel/preempt.h"
#include "lib/format.h"

int preempt_count_describe(char *buf, size_t size, u32 raw, u64 tif)
{
	u32 c = raw & ~PREEMPT_NEED_RESCHED;
	int folded = PREEMPT_FOLDS_RESCHED ? !(raw & PREEMPT_NEED_RESCHED) : -1;
	int n = snprintf(buf, size,
			 "count=0x%08x (preempt=%u softirq=%u hardirq=%u nmi=%u tif_need_resched=%d"
			 " tif_need_resched_lazy=%d",
			 raw, c & PREEMPT_MASK, (c & SOFTIRQ_MASK) >> SOFTIRQ_SHIFT,
			 (c & HARDIRQ_MASK) >> HARDIRQ_SHIFT, (c & NMI_MASK) >> NMI_SHIFT,
			 (int)(tif & _TIF_NEED_RESCHED ? 1 : 0),
			 (int)(tif & _TIF_NEED_RESCHED_LAZY ? 1 : 0));
	if (folded >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " folded_need_resched=%d", folded);
	if ((size_t)n < size)
		n += snprintf(buf + n, size - n, ")");
	return n;
}
