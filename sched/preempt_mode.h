/* Preemption modes, Linux's semantics:
 *   none       switches only when a thread blocks or calls cond_resched()
 *   voluntary  also at might_resched()/might_sleep() points
 *   full       also at preempt_enable() reaching zero and at IRQ exit;
 *              cond_resched() is a no-op
 * The build's default is PREEMPT=..., `preempt=` on the command line
 * overrides it, and preempt_mode_set() switches at run time. */
#ifndef FOLD_SCHED_PREEMPT_MODE_H
#define FOLD_SCHED_PREEMPT_MODE_H
#include "lib/types.h"

enum preempt_mode {
	PREEMPT_MODE_NONE,
	PREEMPT_MODE_VOLUNTARY,
	PREEMPT_MODE_FULL,
};

extern volatile int preempt_mode;
/* Read at IRQ exit (irqentry_exit_cond_resched()): 1 only in full mode. */
extern volatile u8 preempt_irq_exit_enabled;

int preempt_mode_parse(const char *s);          /* -1 if unknown */
const char *preempt_mode_name(int mode);
bool preempt_mode_valid(int mode);              /* COUNT=off: not full */
/* Boot, one CPU: the requested mode (-1: the build's), or the build's
 * default with a warning when this count model cannot run it. */
void preempt_mode_init(int requested);
/* Switch while all CPUs run; returns 0 or -1 (invalid for this build). */
int preempt_mode_set(int mode);

static inline bool preempt_mode_full(void)
{
	return preempt_mode == PREEMPT_MODE_FULL;
}
static inline bool preempt_mode_voluntary(void)
{
	return preempt_mode == PREEMPT_MODE_VOLUNTARY;
}
#endif
