/* Sleeping until an absolute time, on this CPU's high-resolution timer
 * queue. */
#include "sched/sched.h"
#include "kernel/time/hrtimer.h"
#include "kernel/preempt.h"
#include "kernel/time/time.h"

struct sleeper {
	struct hrtimer timer;
	struct thread *t;
};

static void sleeper_wake(struct hrtimer *timer)
{
	struct sleeper *s = container_of(timer, struct sleeper, timer);
	wake_up_thread(s->t);
}

static bool do_sleep_until(u64 deadline_ns, bool interruptible)
{
	struct sleeper s;
	bool interrupted = false;
	might_sleep();
	s.t = current_thread();
	hrtimer_init_wakeup(&s.timer, sleeper_wake); /* it only wakes s.t */
	preempt_disable(); /* queue the timer on the CPU we sleep on */
	__atomic_store_n(&s.t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	hrtimer_start(&s.timer, deadline_ns);
	preempt_enable_no_resched();
	while (READ_ONCE(s.t->state) == THREAD_SLEEPING) {
		/* A signal sets the flag, then wakes a SLEEPING thread: one of
		 * the two sides sees the other's store. */
		if (interruptible && (READ_ONCE(s.t->flags) & _TIF_SIGPENDING)) {
			__atomic_store_n(&s.t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
			interrupted = true;
			break;
		}
		schedule();
	}
	hrtimer_cancel(&s.timer); /* if something else woke us first */
	return interrupted || (interruptible && (READ_ONCE(s.t->flags) & _TIF_SIGPENDING));
}

void sleep_until(u64 deadline_ns)
{
	do_sleep_until(deadline_ns, false);
}

bool sleep_until_interruptible(u64 deadline_ns)
{
	return do_sleep_until(deadline_ns, true);
}

void sleep_ns(u64 ns)
{
	sleep_until(ktime_get_ns() + ns);
}
