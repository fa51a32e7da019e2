/* Sleeping until an absolute time, on this CPU's high-resolution timer
 * queue. */
#include "sched/sched.h"
#include "kernel/hrtimer.h"
#include "kernel/preempt.h"
#include "kernel/time.h"

struct sleeper {
	struct hrtimer timer;
	struct thread *t;
};

static void sleeper_wake(struct hrtimer *timer)
{
	struct sleeper *s = container_of(timer, struct sleeper, timer);
	wake_up_thread(s->t);
}

void sleep_until(u64 deadline_ns)
{
	struct sleeper s;
	might_sleep();
	s.t = current_thread();
	hrtimer_init(&s.timer, sleeper_wake);
	preempt_disable(); /* queue the timer on the CPU we sleep on */
	__atomic_store_n(&s.t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	hrtimer_start(&s.timer, deadline_ns);
	preempt_enable_no_resched();
	while (READ_ONCE(s.t->state) == THREAD_SLEEPING)
		schedule();
	hrtimer_cancel(&s.timer); /* if something else woke us first */
}

void sleep_ns(u64 ns)
{
	sleep_until(ktime_get_ns() + ns);
}
