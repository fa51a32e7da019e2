/* COUNT=folded: the final design (Linux's arch/x86/include/asm/preempt.h
 * since 3.13). The count is per CPU, and bit 31 holds TIF_NEED_RESCHED
 * inverted (bit31.h), so
 *   preempt_enable()  is  decl %gs:8; je <preempt_schedule_thunk>
 *   the IRQ exit      is  cmpl $0, %gs:8; je <irqentry_exit_cond_resched>
 * The flag itself stays in the thread (any CPU may set it); the owner
 * copies it into bit 31 ("folds" it) in the RESCHEDULE IPI and after a
 * context switch, with one unlocked andl (preempt_fold_need_resched()).
 * Nothing to do at a switch: the count is SWITCH_PREEMPT_COUNT on both
 * sides of every switch, and the fold after it sets bit 31 for the
 * incoming thread.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/bit31.h"

#define PREEMPT_MODEL_NAME "folded"
#define PREEMPT_IPI_FOLDS 1          /* the RESCHEDULE IPI does the fold */

/* The RESCHEDULE IPI, on the owner: fold the flag into bit 31. */
static __always_inline void preempt_model_scheduler_ipi(void)
{
	/* LAB(L1) BEGIN: on the owner, fold the request the sender left in
	 * the thread's flags, and count each fold in this CPU's `folds`. */
	if (preempt_fold_need_resched())
		this_cpu_stat_inc(folds);
	/* LAB(L1) END */
}
#define preempt_model_scheduler_ipi preempt_model_scheduler_ipi

#endif
