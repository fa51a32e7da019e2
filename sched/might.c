/* Voluntary preemption points, with Linux's per-mode meaning
 * (kernel/sched/core.c, PREEMPT_DYNAMIC):
 *               cond_resched()   might_resched()   preempt_enable()/IRQ exit
 *   none        switches         nothing           nothing
 *   voluntary   switches         switches          nothing
 *   full        nothing          nothing           switches
 */
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"

static int __cond_resched(void)
{
	/* should_resched(0): folded, one compare of the raw count with 0. */
	if (!should_resched(0))
		return 0;
	this_cpu_stat_inc(voluntary);
	do {
		preempt_disable();
		__schedule(SM_PREEMPT);
		preempt_enable_no_resched();
	} while (need_resched());
	return 1;
}

int cond_resched(void)
{
	if (preempt_mode_full())
		return 0;
	return __cond_resched();
}

void might_resched(void)
{
	if (preempt_mode_voluntary())
		__cond_resched();
}

void __might_sleep(const char *file, int line)
{
	if (unlikely(preempt_count() != 0 || irqs_disabled()))
		report_bug("sleeping function called from invalid context at %s:%d "
			   "(preempt count 0x%x, IRQs %s)",
			   file, line, preempt_count(), irqs_disabled() ? "off" : "on");
	else
		might_resched();
}
