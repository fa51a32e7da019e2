/* Shared by percpu.h, ti.h and off.h: no folded copy of the flag. The
 * count holds depths only (bit 31 stays 0) and TIF_NEED_RESCHED is only in
 * the thread's flags, so every test of "a reschedule is wanted" loads
 * current and its flags. */
#ifndef FOLD_ARCH_PREEMPT_TIF_FLAG_H
#define FOLD_ARCH_PREEMPT_TIF_FLAG_H

#define PREEMPT_FOLDS_RESCHED 0
#define PREEMPT_ENABLED 0u

static __always_inline void set_preempt_need_resched(void) {}
static __always_inline void clear_preempt_need_resched(void) {}
static __always_inline bool test_preempt_need_resched(void)
{
	return tif_need_resched();
}

#endif
