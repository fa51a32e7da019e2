/* The labs' holes (docs/10-labs.md). The reference marks each region a
 * student writes with the comments LAB(Ln) BEGIN and LAB(Ln) END; `make
 * lab LAB=Ln` (tools/lab/mklab) writes a tree in which each such region
 * of lab Ln is a call of lab_hole(), followed by what the END comment
 * names: a return value, or a fallback that keeps the kernel running
 * without being the answer. The lab's suite (tests/labs/) fails every
 * case during which one of its lab's stubs ran, naming the function and
 * the hint, besides whatever the stub's missing work breaks.
 *
 * Nothing in the reference calls lab_hole() or the fallbacks: they are
 * what a skeleton calls. Safe anywhere: IRQs off, hardirq, under the
 * run-queue lock (no printing, no locks; atomics only). */
#ifndef FOLD_KERNEL_LAB_H
#define FOLD_KERNEL_LAB_H
#include "lib/types.h"

#define LAB_COUNT 7   /* L1 .. L7 */
#define LAB_STUBS 8   /* distinct stubs remembered per lab */

struct thread;

struct lab_stub {
	const char *func;     /* the function the hole is in */
	const char *hint;     /* the first sentence of the BEGIN comment */
	u64 hits;
};

/* A stub of lab `lab` (1..LAB_COUNT) in `func` ran. */
void lab_hole(u32 lab, const char *func, const char *hint);
/* Times any stub of `lab` ran since boot. */
u64 lab_hole_hits(u32 lab);
/* The i-th stub of `lab` that ran (i < LAB_STUBS), or NULL. */
const struct lab_stub *lab_stub_at(u32 lab, u32 i);

/* L3's fallback: a reschedule request that works, so that a skeleton
 * boots and wakes threads, but not as __resched_curr() must (the flag,
 * then a RESCHEDULE IPI always, to this CPU too, never a fold here). */
void lab_resched_fallback(struct thread *curr, u32 cpu);

/* L7's fallback: the return to user mode's work, done so that a skeleton
 * boots, kills and time-slices user programs, but not as
 * exit_to_user_mode_loop() must (the signal's work with IRQs still off;
 * only the reschedule runs with them on). Entered and left with IRQs off. */
void lab_exit_to_user_fallback(struct thread *t);
#endif
