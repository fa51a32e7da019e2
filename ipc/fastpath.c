/* The IPC fast path: a call that finds its server waiting on this CPU,
 * and the server's reply_recv back to a caller on this CPU, switch
 * straight from one thread to the other (sched_handoff(), sched/
 * handoff.c) instead of waking the partner onto the run queue and letting
 * schedule() pick it. This is the point of seL4's fastpath: a round trip
 * is two system calls and two switches, with no run-queue traffic, no
 * reschedule request and no IPI.
 *
 * Everything else takes the slow path, a plain wake_up_thread():
 *   - the partner last ran on another CPU (a cross-CPU message: the
 *     wake-up sends the RESCHEDULE IPI there, which is what fold teaches),
 *     or may not run on this one (its affinity);
 *   - the partner's priority is below the sender's: handing it the CPU
 *     would run a lower-priority thread while a higher one is runnable;
 *   - a reschedule is pending here (TIF_NEED_RESCHED or the lazy flag):
 *     the scheduler has a decision to make, let it make it;
 *   - a fatal signal is pending for the sender (it must reach its exit);
 *   - the message grants a handle (the receiver installs it itself, on
 *     its way out, either way: no reason, only not measured);
 *   - under the run-queue lock (sched_handoff): a thread queued on this
 *     CPU outranks the partner, or the user FIFO band is throttled, or the
 *     partner is not (or no longer) asleep off every run queue: a kill
 *     woke it meanwhile.
 * A payload does not send a message down the slow path: it is copied in
 * before and out after, the same on both paths. */
#include "ipc/ipc.h"
#include "kernel/process.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"

bool ipc_fastpath_ok(const struct ipc_state *s, const struct ipc_state *to)
{
	const struct thread *me = s->t, *t = to->t;
	u32 cpu = raw_smp_processor_id();
	if (READ_ONCE(t->cpu) != (int)cpu || !(t->allowed_cpus & (1UL << cpu)))
		return false;
	if (t->prio < me->prio)
		return false;
	if (READ_ONCE(me->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY | _TIF_SIGPENDING))
		return false;
	return !to->msg.grant;
}

void ipc_switch_or_wake(struct ipc_state *s, struct ipc_state *to)
{
	(void)s;
	if (sched_handoff(to->t)) {
		this_cpu_stat_inc(ipc_fastpath);
		return;
	}
	wake_up_thread(to->t);
}
