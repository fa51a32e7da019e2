/* Per-CPU high-resolution timers: a queue ordered by expiry, with the
 * LAPIC timer in one-shot mode armed for the earliest. The periodic tick
 * (HZ, default 1000) is one of these timers re-arming itself, so one
 * mechanism serves the tick, sleeping threads and the latency benchmark. */
#ifndef FOLD_KERNEL_HRTIMER_H
#define FOLD_KERNEL_HRTIMER_H
#include "lib/types.h"
#include "lib/list.h"
#include "kernel/percpu.h"

struct hrtimer {
	u64 expires;                       /* ktime_get_ns() deadline */
	void (*fn)(struct hrtimer *t);     /* runs in hardirq context */
	struct list_head node;
	volatile int cpu;                  /* queued on this CPU, -1 if not */
	u64 fired_at;                      /* when the handler ran (ns) */
	int fired_cpu;                     /* and where (0 until it fires) */
	bool wakes_only;                   /* hrtimer_init_wakeup()'s */
};

/* Per CPU, the timer whose callback runs there now, or NULL: Linux's
 * hrtimer_cpu_base.running. Written by timer_interrupt() under the base
 * lock, never through the timer once its callback has returned. */
extern struct hrtimer *volatile hrtimer_running[MAX_CPUS];

void hrtimer_init(struct hrtimer *t, void (*fn)(struct hrtimer *t));
/* The same for a callback that only wakes a thread (a sleeper's): it
 * never starts or cancels a timer, so timer_interrupt() runs it with the
 * base lock held, not dropped and taken again around it as Linux's
 * __run_hrtimer() does for any callback. The lock order is then the base
 * lock, then a run queue's: nothing takes them the other way round. A
 * callback that did start or cancel a timer of this CPU would take the
 * base lock it already holds: the debug build reports that as a
 * recursive lock (kernel/locking/raw_spinlock.c). */
void hrtimer_init_wakeup(struct hrtimer *t, void (*fn)(struct hrtimer *t));
/* Queue on this CPU. Callers keep preemption or IRQs off. */
void hrtimer_start(struct hrtimer *t, u64 expires_ns);
/* The rest of hrtimer_cancel(), for a timer queued or being fired. */
bool __hrtimer_cancel(struct hrtimer *t);
/* Remove if queued. Returns whether it was queued. Either way, when it
 * returns the callback does not run: one running on another CPU is waited
 * for, as Linux's hrtimer_cancel() waits (hrtimer_callback_running()), so
 * the owner may let the timer's memory go (a sleeper's, on its stack,
 * once a signal ended the sleep). A timer neither queued (cpu -1) nor
 * running is told without the base lock or a call, as Linux's
 * hrtimer_try_to_cancel() tests hrtimer_active() first: a sleeper woken
 * by its own timer, the common case, pays two loads. Not from the
 * timer's own callback. */
static inline bool hrtimer_cancel(struct hrtimer *t)
{
	if (READ_ONCE(t->cpu) < 0 && READ_ONCE(hrtimer_running[t->fired_cpu]) != t)
		return false;
	return __hrtimer_cancel(t);
}
void hrtimer_init_cpu(void);           /* calibrate (boot CPU) and start the tick */
extern u32 tick_hz;
/* hz=: the rate the tick starts at (tick_hz, from the first CPU's timer on). */
extern u32 tick_hz_param;
u64 tick_count(u32 cpu);
#endif
