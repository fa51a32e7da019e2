#include "kernel/time/hrtimer.h"
#include "kernel/percpu.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/time.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "arch/x86_64/kernel/timer.h"
#include "arch/x86_64/cpu.h"
#include "sched/sched.h"
#include "kernel/debug/checks.h"

u32 tick_hz = 1000;
u32 tick_hz_param = 1000;

static int set_hz(const char *v)
{
	return cmdline_u32(v, &tick_hz_param, 10, 10000);
}
early_param(hz, set_hz, tick_hz_param, "a tick rate from 10 to 10000", "1000");

struct timer_base {
	raw_spinlock_t lock;   /* raw: the timer interrupt takes it */
	struct list_head queue;
	struct hrtimer tick;
	u64 ticks;
};
static struct timer_base bases[MAX_CPUS];
struct hrtimer *volatile hrtimer_running[MAX_CPUS];

void hrtimer_init(struct hrtimer *t, void (*fn)(struct hrtimer *t))
{
	t->fn = fn;
	t->cpu = -1;
	t->fired_cpu = 0;
	t->wakes_only = false;
	INIT_LIST_HEAD(&t->node);
}

void hrtimer_init_wakeup(struct hrtimer *t, void (*fn)(struct hrtimer *t))
{
	hrtimer_init(t, fn);
	t->wakes_only = true;
}

/* Arm the LAPIC for the earliest timer. Called with the base locked. */
static void reprogram(struct timer_base *b)
{
	if (list_empty(&b->queue)) {
		arch_timer_stop();
		return;
	}
	struct hrtimer *first = list_first_entry(&b->queue, struct hrtimer, node);
	u64 now = ktime_get_ns();
	arch_timer_oneshot_ns(first->expires > now ? first->expires - now : 1);
}

static void enqueue(struct timer_base *b, struct hrtimer *t)
{
	struct list_head *pos = &b->queue;
	struct hrtimer *it;
	/* Sorted by expiry; equal expiries stay in start order. */
	list_for_each_entry(it, &b->queue, node) {
		if (it->expires > t->expires) {
			pos = &it->node;
			break;
		}
	}
	list_add_tail(&t->node, pos);
}

void hrtimer_start(struct hrtimer *t, u64 expires_ns)
{
	u32 cpu = raw_smp_processor_id();
	struct timer_base *b = &bases[cpu];
	u64 f = raw_spin_lock_irqsave(&b->lock);
	DEBUG_BUG_ON(t->cpu != -1 && t->cpu != (int)cpu); /* started on this CPU, or idle */
	if (t->cpu != -1)
		list_del(&t->node);
	t->expires = expires_ns;
	t->cpu = (int)cpu;
	enqueue(b, t);
	if (b->queue.next == &t->node)
		reprogram(b);
	raw_spin_unlock_irqrestore(&b->lock, f);
}

bool __hrtimer_cancel(struct hrtimer *t)
{
	for (;;) {
		int cpu = READ_ONCE(t->cpu);
		if (cpu < 0) {
			/* Fired: wait while its callback runs, which may queue it
			 * again (then cancel that). */
			if (READ_ONCE(hrtimer_running[t->fired_cpu]) != t && READ_ONCE(t->cpu) < 0)
				return false;
			cpu_relax();
			continue;
		}
		struct timer_base *b = &bases[cpu];
		u64 f = raw_spin_lock_irqsave(&b->lock);
		/* Queued again by its own callback, still running: not yet. */
		bool queued = t->cpu == cpu && hrtimer_running[cpu] != t;
		if (queued) {
			list_del_init(&t->node);
			t->cpu = -1;
		}
		raw_spin_unlock_irqrestore(&b->lock, f);
		if (queued)
			return true;
		cpu_relax();
	}
}

static void timer_interrupt(struct pt_regs *regs)
{
	(void)regs;
	u32 cpu = raw_smp_processor_id();
	struct timer_base *b = &bases[cpu];
	/* One clock read for the whole pass, as Linux's hrtimer_interrupt()
	 * (kernel/time/hrtimer.c) hands one `now` to __hrtimer_run_queues():
	 * a timer that comes due while the callbacks run is not missed, since
	 * reprogram() reads the clock afresh and arms it at once. */
	u64 now = ktime_get_ns();
	raw_spin_lock(&b->lock);
	for (;;) {
		if (list_empty(&b->queue))
			break;
		struct hrtimer *t = list_first_entry(&b->queue, struct hrtimer, node);
		if (t->expires > now)
			break;
		list_del_init(&t->node);
		t->fired_at = now;
		t->fired_cpu = (int)cpu;
		hrtimer_running[cpu] = t; /* before cpu -1: hrtimer_cancel() */
		WRITE_ONCE(t->cpu, -1);
		if (t->wakes_only) { /* hrtimer_init_wakeup(): under the lock */
			t->fn(t);
			WRITE_ONCE(hrtimer_running[cpu], NULL);
			continue;
		}
		raw_spin_unlock(&b->lock);
		t->fn(t); /* may re-queue t, or let it go once it returns */
		raw_spin_lock(&b->lock);
		WRITE_ONCE(hrtimer_running[cpu], NULL);
	}
	reprogram(b);
	raw_spin_unlock(&b->lock);
}

static void tick_fn(struct hrtimer *t)
{
	struct timer_base *b = container_of(t, struct timer_base, tick);
	b->ticks++;
	this_cpu_stat_inc(timer_ticks);
	scheduler_tick();
	/* The next tick from this one's deadline, not from now: no drift. If
	 * we fell far behind (a long IRQs-off stretch), skip to the present. */
	u64 period = NSEC_PER_SEC / tick_hz;
	u64 next = t->expires + period;
	u64 now = ktime_get_ns();
	if (next <= now)
		next = now + period;
	t->expires = next;
	raw_spin_lock(&b->lock);
	t->cpu = (int)raw_smp_processor_id();
	enqueue(b, t);
	raw_spin_unlock(&b->lock);
}

u64 tick_count(u32 cpu)
{
	return READ_ONCE(bases[cpu].ticks);
}

void hrtimer_init_cpu(void)
{
	u32 cpu = raw_smp_processor_id();
	struct timer_base *b = &bases[cpu];
	if (cpu == 0) {
		tick_hz = tick_hz_param;
		arch_timer_init(timer_interrupt);
	}
	raw_spin_lock_init(&b->lock, "timer_base");
	INIT_LIST_HEAD(&b->queue);
	hrtimer_init(&b->tick, tick_fn);
	hrtimer_start(&b->tick, ktime_get_ns() + NSEC_PER_SEC / tick_hz);
}
