/* The explorer's arch/x86_64/preempt/thunk.h: preempt_enable()'s slow
 * path is a plain call (no thunk: the host compiler saves what it must). */
#ifndef FOLD_ARCH_PREEMPT_THUNK_H
#define FOLD_ARCH_PREEMPT_THUNK_H
void preempt_schedule(void);
static __always_inline void __preempt_schedule(void) { preempt_schedule(); }
#endif
