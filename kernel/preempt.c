/* The scheduling side of the preempt count: the functions the fast paths
 * (preempt_enable's thunk, the IRQ exit in entry.asm) call when the count
 * says a reschedule may be due. */
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "lib/format.h"

const char *preempt_model_name(void)
{
#if COUNT_MODEL_FOLDED
	return "folded";
#elif COUNT_MODEL_RACY
	return "racy";
#elif COUNT_MODEL_PERCPU
	return "percpu";
#elif COUNT_MODEL_TI
	return "ti";
#else
	return "off";
#endif
}

/* Linux's need_resched(): the thread flag, the authoritative copy. */
bool need_resched(void)
{
	return tif_need_resched();
}

/* True when the count is exactly `offset` and a reschedule is wanted: the
 * test cond_resched() makes with offset 0. Folded: one compare of the raw
 * value (bit 31 clear = wanted). */
bool should_resched(u32 offset)
{
#if COUNT_BIT31
	return preempt_count_raw() == offset;
#else
	return preempt_count() == offset && tif_need_resched();
#endif
}

/* Called through preempt_schedule_thunk when preempt_enable() took the
 * count to zero with a reschedule pending. Only the full mode makes that a
 * preemption point (Linux's preempt_schedule is a no-op static call in the
 * other modes). */
void preempt_schedule(void)
{
	this_cpu_stat_inc(preempt_schedule_calls);
	if (!preempt_mode_full() || !preemptible())
		return;
	do {
		this_cpu_stat_inc(preempt_enable);
		preempt_disable();
		__schedule(SM_PREEMPT);
		preempt_enable_no_resched();
	} while (need_resched());
}

/* Called from the common interrupt exit with IRQs off, when the interrupted
 * kernel code had IF=1 and the count says preemptible + resched wanted. */
void preempt_schedule_irq(void)
{
	if (unlikely(preempt_count() != 0))
		BUG("preempt_schedule_irq with count 0x%x", preempt_count());
	do {
		this_cpu_stat_inc(preempt_irq);
		preempt_disable();
		local_irq_enable();
		__schedule(SM_PREEMPT);
		local_irq_disable();
		preempt_enable_no_resched();
	} while (need_resched());
}

int preempt_count_describe(char *buf, size_t size, u32 raw, u64 tif)
{
	u32 c = raw & ~PREEMPT_NEED_RESCHED;
#if COUNT_BIT31
	int folded = !(raw & PREEMPT_NEED_RESCHED);
#else
	int folded = -1;
#endif
	int n = snprintf(buf, size,
			 "count=0x%08x (preempt=%u softirq=%u hardirq=%u nmi=%u tif_need_resched=%d",
			 raw, c & PREEMPT_MASK, (c & SOFTIRQ_MASK) >> SOFTIRQ_SHIFT,
			 (c & HARDIRQ_MASK) >> HARDIRQ_SHIFT, (c & NMI_MASK) >> NMI_SHIFT,
			 (int)(tif & _TIF_NEED_RESCHED ? 1 : 0));
	if (folded >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - n, " folded_need_resched=%d", folded);
	if ((size_t)n < size)
		n += snprintf(buf + n, size - n, ")");
	return n;
}
