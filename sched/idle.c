/* The idle loop: one idle thread per CPU, run when its queue is empty.
 * idle=halt (default) sleeps in `hlt` until an interrupt; a remote wake-up
 * needs the RESCHEDULE IPI. idle=poll spins on the need-resched flag with
 * TIF_POLLING_NRFLAG set, so resched_curr() can skip the IPI. */
#include "sched/sched.h"
#include "kernel/cmdline.h"
#include "lib/parse.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"

bool idle_poll;

static int set_idle(const char *v)
{
	static const char *const w[] = { "halt", "poll" };
	int i = match_word(v, w, 2);
	if (i < 0)
		return -1;
	idle_poll = i == 1;
	return 0;
}
early_param(idle, set_idle, idle_poll, "halt or poll", "halt");

__noreturn void cpu_idle(void)
{
	struct thread *self = current_thread();
	preempt_count_set(PREEMPT_ENABLED); /* idle runs preemptible */
	local_irq_enable();
	for (;;) {
		/* idle=poll: TIF_POLLING_NRFLAG stays set for the whole loop, so
		 * a request at any point of it needs no IPI: every step below
		 * is followed by a need_resched() test. Cleared before
		 * schedule(), as Linux's do_idle() does. */
		/* Read once a round: a test switches idle= at run time, and a
		 * flag set under poll must be cleared below even if the option
		 * has changed since (a POLLING flag left on a halted CPU would
		 * make every remote wake-up skip its IPI). A switch ends the
		 * round at the next wake-up (a tick at the latest), so that it
		 * takes effect even where no thread comes to run. */
		bool polling = READ_ONCE(idle_poll);
		if (polling)
			__atomic_fetch_or(&self->flags, _TIF_POLLING_NRFLAG, __ATOMIC_SEQ_CST);
		while (!need_resched() && READ_ONCE(idle_poll) == polling) {
			sched_pull_work();
			if (need_resched())
				break;
			if (polling) {
				for (int i = 0; i < 1000 && !need_resched(); i++)
					cpu_relax();
			} else {
				local_irq_disable();
				if (!need_resched())
					safe_halt(); /* sti; hlt: no lost wake-up */
				else
					local_irq_enable();
			}
		}
		if (polling)
			__atomic_fetch_and(&self->flags, ~_TIF_POLLING_NRFLAG, __ATOMIC_SEQ_CST);
		if (need_resched())
			schedule();
	}
}
