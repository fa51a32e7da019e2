/* Preemption modes, Linux's semantics. The one list of them is
 * PREEMPT_MODES below: the enum, the names that `preempt=`, the shell and
 * the bench lines use, the help texts and the Makefile's PREEMPT= check
 * (which reads the X(...) lines of this file) all come from it.
 *
 * The build's default is PREEMPT=..., `preempt=` on the command line
 * overrides it, and preempt_mode_set() switches at run time.
 *
 * Linux on x86 today: PREEMPT_DYNAMIC kernels offer all four, but "sched:
 * Further restrict the preemption modes" (queued for Linux 7.0) leaves
 * only full and lazy on architectures that have lazy, x86 among them:
 * once full preemption is cheap, lazy gives none's and voluntary's
 * throughput for normal threads (preempted at most a tick late) with
 * full's latency for real-time ones. fold keeps none and voluntary to
 * teach and measure them. */
#ifndef FOLD_SCHED_PREEMPT_MODE_H
#define FOLD_SCHED_PREEMPT_MODE_H
#include "lib/types.h"

/* X(ID, name, what it means): one line per mode, in enum order. */
#define PREEMPT_MODES(X)                                                                 \
	X(NONE, none, "switches only when a thread blocks or calls cond_resched()")      \
	X(VOLUNTARY, voluntary, "also at might_resched()/might_sleep() points")          \
	X(FULL, full, "also at preempt_enable() reaching zero and at IRQ exit")          \
	X(LAZY, lazy, "as full for FIFO threads; a normal thread at the next tick")

#define PREEMPT_MODE_ENUM(id, name, help) PREEMPT_MODE_##id,
enum preempt_mode { PREEMPT_MODES(PREEMPT_MODE_ENUM) NR_PREEMPT_MODES };
#undef PREEMPT_MODE_ENUM

/* " none voluntary full lazy": for messages and help texts. */
#define PREEMPT_MODE_WORD(id, name, help) " " #name
#define PREEMPT_MODE_NAMES PREEMPT_MODES(PREEMPT_MODE_WORD)

/* The mode, for what is not a preemption point (the lazy choice in
 * sched/core.c, messages): the points themselves are patched code. */
extern volatile int preempt_mode;

int preempt_mode_parse(const char *s);          /* -1 if unknown */
const char *preempt_mode_name(int mode);
const char *preempt_mode_help(int mode);
bool preempt_mode_valid(int mode);              /* COUNT=off: not full, not lazy */
/* Boot, one CPU: the requested mode (-1: the build's), or the build's
 * default with a warning when this count model cannot run it. */
/* preempt=: the mode asked for on the command line, -1 for the build's
 * default (what init/main.c hands preempt_mode_init()). */
extern int preempt_mode_requested;
void preempt_mode_init(int requested);
/* Switch while all CPUs run; returns 0, PREEMPT_MODE_EINVAL (not a mode,
 * or not one this build can run) or PREEMPT_MODE_EPATCH (a patch site
 * holds unexpected bytes: refused, nothing written, said why). */
#define PREEMPT_MODE_EINVAL (-1)
#define PREEMPT_MODE_EPATCH (-2)
int preempt_mode_set(int mode);

static inline bool preempt_mode_full(void)
{
	return preempt_mode == PREEMPT_MODE_FULL;
}
static inline bool preempt_mode_voluntary(void)
{
	return preempt_mode == PREEMPT_MODE_VOLUNTARY;
}
static inline bool preempt_mode_lazy(void)
{
	return preempt_mode == PREEMPT_MODE_LAZY;
}
/* Linux's preempt_model_preemptible(): the kernel itself is preempted at
 * preempt_enable() and at IRQ exit (on TIF_NEED_RESCHED): full and lazy. */
static inline bool preempt_mode_preemptible(void)
{
	return preempt_mode_full() || preempt_mode_lazy();
}
#endif
