/* COUNT=racy: the article's first idea, kept to count what it loses.
 * folded's encoding (bit31.h), but a remote CPU clears the target's bit
 * 31 itself, with a locked andl, instead of leaving the fold to the
 * target's IPI handler. The owner's incl/decl are UNLOCKED
 * read-modify-writes: one that read the count before the remote clear and
 * writes after it puts bit 31 back, and the request is lost to
 * preempt_enable(). The IPI handler counts each such loss (lost_resched in
 * `stat`) and repairs it, as the folded design does every time.
 *
 * Every model file defines the interface listed in kernel/preempt.h. */
#ifndef FOLD_ARCH_PREEMPT_MODEL_H
#define FOLD_ARCH_PREEMPT_MODEL_H

#include "arch/x86_64/preempt/bit31.h"

#define PREEMPT_MODEL_NAME "racy"
#define PREEMPT_IPI_FOLDS 0          /* the sender folds, racing the owner */

/* resched_curr() on another CPU: clear the target's bit 31 from here. */
static __always_inline void preempt_model_resched_remote(u32 cpu)
{
	__atomic_fetch_and(&per_cpu(PREEMPT_COUNT_FIELD, cpu), ~PREEMPT_NEED_RESCHED,
			   __ATOMIC_SEQ_CST);
}
#define preempt_model_resched_remote preempt_model_resched_remote

/* The sender cleared bit 31 already; if it is set again, the owner's
 * own update overwrote the clear. Count the loss, then repair. */
static __always_inline void preempt_model_scheduler_ipi(void)
{
	if (tif_need_resched() && !test_preempt_need_resched()) {
		this_cpu_stat_inc(lost_resched);
		set_preempt_need_resched();
	}
}
#define preempt_model_scheduler_ipi preempt_model_scheduler_ipi

#endif
