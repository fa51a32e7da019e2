/* Per-CPU high-resolution timers: a queue ordered by expiry, with the
 * LAPIC timer in one-shot mode armed for the earliest. The periodic tick
 * (HZ, default 1000) is one of these timers re-arming itself, so one
 * mechanism serves the tick, sleeping threads and the latency benchmark. */
#ifndef FOLD_KERNEL_HRTIMER_H
#define FOLD_KERNEL_HRTIMER_H
#include "lib/types.h"
#include "lib/list.h"

struct hrtimer {
	u64 expires;                       /* ktime_get_ns() deadline */
	void (*fn)(struct hrtimer *t);     /* runs in hardirq context */
	struct list_head node;
	volatile int cpu;                  /* queued on this CPU, -1 if not */
	u64 fired_at;                      /* when the handler ran (ns) */
};

void hrtimer_init(struct hrtimer *t, void (*fn)(struct hrtimer *t));
/* Queue on this CPU. Callers keep preemption or IRQs off. */
void hrtimer_start(struct hrtimer *t, u64 expires_ns);
/* The locked part of hrtimer_cancel(), for a timer that looked queued. */
bool __hrtimer_cancel(struct hrtimer *t);
/* Remove if queued (on this CPU). Returns whether it was queued. A timer
 * that is not queued (cpu -1: it fired, or was never started) is told
 * without the base lock or a call, as Linux's hrtimer_try_to_cancel()
 * tests hrtimer_active() first: a sleeper woken by its own timer, the
 * common case, pays one load. */
static inline bool hrtimer_cancel(struct hrtimer *t)
{
	if (READ_ONCE(t->cpu) < 0)
		return false;
	return __hrtimer_cancel(t);
}
void hrtimer_init_cpu(void);           /* calibrate (boot CPU) and start the tick */
extern u32 tick_hz;
u64 tick_count(u32 cpu);
#endif
