/* The preempt count: what it means (this file) and how it is stored (the
 * count model, arch/x86_64/preempt.h).
 *
 * 32 bits, Linux's layout (include/linux/preempt.h):
 *   bits  0-7   preempt-disable depth        PREEMPT_MASK
 *   bits  8-15  softirq depth                SOFTIRQ_MASK
 *   bits 16-19  hardirq depth                HARDIRQ_MASK
 *   bits 20-23  NMI depth                    NMI_MASK
 *   bit  31     need-resched, INVERTED       PREEMPT_NEED_RESCHED
 *               (folded model only: 1 = no reschedule wanted)
 * With the folded model the raw 32-bit value is 0 exactly when this CPU may
 * be preempted AND a reschedule is wanted, so preempt_enable() is a single
 * `decl %gs:off; je`. preempt_count() hides bit 31 in every model.
 */
#ifndef FOLD_KERNEL_PREEMPT_H
#define FOLD_KERNEL_PREEMPT_H

#include "lib/types.h"

#define PREEMPT_BITS 8
#define SOFTIRQ_BITS 8
#define HARDIRQ_BITS 4
#define NMI_BITS 4

#define PREEMPT_SHIFT 0
#define SOFTIRQ_SHIFT (PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT (SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT (HARDIRQ_SHIFT + HARDIRQ_BITS)

#define __MASK(bits) ((1u << (bits)) - 1)
#define PREEMPT_MASK (__MASK(PREEMPT_BITS) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK (__MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK (__MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)
#define NMI_MASK (__MASK(NMI_BITS) << NMI_SHIFT)

#define PREEMPT_OFFSET (1u << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET (1u << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET (1u << HARDIRQ_SHIFT)
#define NMI_OFFSET (1u << NMI_SHIFT)
/* What preempt_disable() adds. Without a count (COUNT=off) it adds
 * nothing, as in Linux without CONFIG_PREEMPT_COUNT, so every "count at
 * a switch" invariant below still holds with 0. */
#if COUNT_MODEL_OFF
#define PREEMPT_DISABLE_OFFSET 0u
#else
#define PREEMPT_DISABLE_OFFSET PREEMPT_OFFSET
#endif

#define PREEMPT_NEED_RESCHED 0x80000000u

/* Thread flags (struct thread.flags), set atomically by any CPU. */
#define TIF_NEED_RESCHED 0     /* a reschedule is wanted */
#define TIF_POLLING_NRFLAG 1   /* idle polls the flag: no IPI needed */
#define _TIF_NEED_RESCHED (1UL << TIF_NEED_RESCHED)
#define _TIF_POLLING_NRFLAG (1UL << TIF_POLLING_NRFLAG)

/* A context switch happens with the count at exactly this value in every
 * thread: schedule() disables preemption once, the run-queue lock once
 * more. New threads start with it (Linux's FORK_PREEMPT_COUNT). */
#define SWITCH_PREEMPT_COUNT (2 * PREEMPT_DISABLE_OFFSET)

#include "arch/x86_64/preempt.h"

/* preempt_count_raw(): the stored 32 bits, bit 31 included (folded).
 * preempt_count(): the depths only, as Linux's preempt_count(). */
static __always_inline u32 preempt_count(void)
{
	return preempt_count_raw() & ~PREEMPT_NEED_RESCHED;
}

#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define softirq_count() (preempt_count() & SOFTIRQ_MASK)
#define in_nmi() (preempt_count() & NMI_MASK)
#define in_hardirq() (hardirq_count())
#define in_interrupt() (preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))
#define in_task() (!in_interrupt())
#define in_atomic() (preempt_count() != 0)

/* Preemption is possible here: nothing disabled it and IRQs are on. */
#define preemptible() (preempt_count() == 0 && !irqs_disabled())

#if COUNT_MODEL_OFF
/* No count: preempt_disable() is a compiler barrier (the ceiling for the
 * none mode). The IRQ fields are still kept (irq_enter/irq_exit), as in
 * Linux without CONFIG_PREEMPT_COUNT. */
#define preempt_disable() barrier()
#define preempt_enable() barrier()
#define preempt_enable_no_resched() barrier()
#else
#define preempt_disable()                  \
	do {                               \
		__preempt_count_inc();     \
		barrier();                 \
	} while (0)

#define preempt_enable_no_resched()        \
	do {                               \
		barrier();                 \
		__preempt_count_dec();     \
	} while (0)

/* The full-preemption point. The fast path is the model's dec-and-test;
 * the slow path calls preempt_schedule() through a thunk that keeps every
 * register, so the compiler sees no call (arch/x86_64/preempt_thunk.asm). */
#define preempt_enable()                                         \
	do {                                                     \
		barrier();                                       \
		if (unlikely(__preempt_count_dec_and_test()))    \
			__preempt_schedule();                    \
	} while (0)
#endif

/* Raise/lower a count field by a given offset (irq entry, spinlocks). */
#define preempt_count_add(v) __preempt_count_add(v)
#define preempt_count_sub(v) __preempt_count_sub(v)

bool need_resched(void);
bool should_resched(u32 preempt_offset);
void preempt_schedule(void);
void preempt_schedule_irq(void);
const char *preempt_model_name(void);
/* Prints "count=0x80000002 (preempt=2 softirq=0 hardirq=0 nmi=0 need_resched=0)". */
int preempt_count_describe(char *buf, size_t size, u32 raw, u64 tif_flags);

#endif
