/* The preempt count: what it means (this file) and how it is stored (the
 * count model: one file of arch/x86_64/preempt/, chosen by `make COUNT=`).
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
#include "kernel/percpu.h"
#include "arch/x86_64/preempt/thunk.h"
#include "arch/x86_64/cpu.h"

#define PREEMPT_BITS 8
#define SOFTIRQ_BITS 8
#define HARDIRQ_BITS 4
#define NMI_BITS 4

#define PREEMPT_SHIFT 0
#define SOFTIRQ_SHIFT (PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT (SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT (HARDIRQ_SHIFT + HARDIRQ_BITS)

/* PREEMPT_RT (make PREEMPT=rt): a spinlock_t section does not raise the
 * count (kernel/locking/spinlock.h). 1 or 0, from the build. */
#ifndef PREEMPT_RT
#define PREEMPT_RT 0
#endif

#define __MASK(bits) ((1u << (bits)) - 1)
#define PREEMPT_MASK (__MASK(PREEMPT_BITS) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK (__MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK (__MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)
#define NMI_MASK (__MASK(NMI_BITS) << NMI_SHIFT)

#define PREEMPT_OFFSET (1u << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET (1u << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET (1u << HARDIRQ_SHIFT)
#define NMI_OFFSET (1u << NMI_SHIFT)
#define PREEMPT_NEED_RESCHED 0x80000000u

/* Thread flags (struct thread.flags), set atomically by any CPU. */
#define TIF_NEED_RESCHED 0     /* a reschedule is wanted */
#define TIF_POLLING_NRFLAG 1   /* idle polls the flag: no IPI needed */
/* The lazy request (PREEMPT=lazy, Linux's PREEMPT_LAZY): a reschedule
 * wanted on behalf of a normal thread, acted on only at the next tick
 * (which promotes it to TIF_NEED_RESCHED, sched/wake.c), at the return to
 * user mode and when the thread blocks. It is never folded into the
 * preempt count, and no IPI is sent for it: bit 31 (folded) and the
 * dec-and-test of the other models mean "TIF_NEED_RESCHED", so that
 * preempt_enable()'s `decl; je` and the IRQ exit's compare stay one
 * instruction each and never fire for a lazy request. That is the whole
 * point of lazy: the kernel's own preemption points ignore it, and the
 * thread runs on until the tick, saving the preemptions (and their
 * lock-holder preemption) that full would make. */
#define TIF_NEED_RESCHED_LAZY 2
#define _TIF_NEED_RESCHED (1UL << TIF_NEED_RESCHED)
#define _TIF_POLLING_NRFLAG (1UL << TIF_POLLING_NRFLAG)
#define _TIF_NEED_RESCHED_LAZY (1UL << TIF_NEED_RESCHED_LAZY)
/* A signal is pending (Linux: kernel/signal.c): the return to user mode acts on
 * it. Not the preempt count's business; kept with the others as Linux
 * keeps every TIF_ bit in one word. */
#define TIF_SIGPENDING 4
#define _TIF_SIGPENDING (1UL << TIF_SIGPENDING)
/* The kernel wrote this thread's user frame (force_iret(),
 * kernel/entry/common.h): the next return from a system call checks
 * SYSRET's conditions in full (Linux 2.6's TIF_IRET, "force IRET"). */
#define TIF_IRET 5
#define _TIF_IRET (1UL << TIF_IRET)

/* A context switch happens with the count at exactly this value in every
 * thread: schedule() disables preemption once, the run-queue lock once
 * more. New threads start with it (Linux's FORK_PREEMPT_COUNT). */
#define SWITCH_PREEMPT_COUNT (2 * PREEMPT_DISABLE_OFFSET)

/* current->flags & _TIF_NEED_RESCHED: the authoritative copy of the
 * request, which any CPU may set (struct thread's flags are its first
 * field, asserted in sched/thread.c). */
static __always_inline bool tif_need_resched(void)
{
	const volatile u64 *flags = (const volatile u64 *)this_cpu_read(current);
	return *flags & _TIF_NEED_RESCHED;
}

/* current->flags & _TIF_NEED_RESCHED_LAZY (Linux's tif_need_resched_lazy()). */
static __always_inline bool tif_need_resched_lazy(void)
{
	const volatile u64 *flags = (const volatile u64 *)this_cpu_read(current);
	return *flags & _TIF_NEED_RESCHED_LAZY;
}

/* The owner serves both requests at a switch (Linux's
 * clear_tsk_need_resched()): atomically, since any CPU may set a flag
 * of the same word at the same time (resched_curr()'s lock cmpxchg).
 * A struct thread's flags are its first field. */
struct thread;
static __always_inline void clear_tsk_need_resched(struct thread *t)
{
	__atomic_fetch_and((u64 *)t, ~(_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY),
			   __ATOMIC_SEQ_CST);
}

static __always_inline bool preempt_fold_need_resched(void);

/* ---- The count model. The build names one file of arch/x86_64/preempt/
 * in PREEMPT_MODEL_H (Makefile: COUNT=folded gives folded.h). Each defines
 * the same interface:
 *   PREEMPT_MODEL_NAME            "folded", "percpu", "ti", "off", "racy"
 *   PREEMPT_HAS_COUNT             0: preempt_disable() adds nothing (off)
 *   PREEMPT_FOLDS_RESCHED         1: bit 31 is the inverted flag
 *   PREEMPT_COUNT_ON_STACK        1: the count is in thread_info (ti)
 *   PREEMPT_IPI_FOLDS             1: the RESCHEDULE IPI folds (folded)
 *   PREEMPT_ENABLED               the raw value of a preemptible count
 *   preempt_count_raw/set()       the stored 32 bits
 *   __preempt_count_add/sub/inc/dec()  one read-modify-write instruction
 *   __preempt_count_dec_and_test()     true when preempt_enable() must
 *                                 call preempt_schedule()
 *   set/clear/test_preempt_need_resched()  the folded copy of the flag
 *   should_resched(offset)        cond_resched()'s test (Linux's name)
 *   arch_irqentry_exit_need_resched()  the IRQ exit's test
 * and, where it needs one (each has a default below, as Linux's generic
 * headers give a default for every arch hook an arch does not define):
 *   preempt_model_scheduler_ipi() what the RESCHEDULE IPI does
 *   preempt_model_resched_remote(cpu)  what a remote request does
 *   preempt_model_switch(prev, next)   what a context switch does
 *   preempt_count_init_stack(top, c)   how a new stack gets its count
 *   preempt_count_raw_of(cpu, top)     another CPU's count, for `cpus` */
#include PREEMPT_MODEL_H

/* What preempt_disable() adds: nothing without a count (COUNT=off), as
 * in Linux without CONFIG_PREEMPT_COUNT, so every "count at a switch"
 * invariant still holds with 0. */
#define PREEMPT_DISABLE_OFFSET (PREEMPT_HAS_COUNT ? PREEMPT_OFFSET : 0u)

/* Linux's preempt_fold_need_resched() (include/linux/preempt.h): copy a
 * pending TIF_NEED_RESCHED into the count's folded bit. Only the CPU that
 * owns the count calls it: in the RESCHEDULE IPI and after a switch.
 * Returns whether a request was pending. */
static __always_inline bool preempt_fold_need_resched(void)
{
	/* LAB(L1) BEGIN: if this thread's TIF_NEED_RESCHED is set, copy it
	 * into the count (set_preempt_need_resched(): for the folded model
	 * one unlocked instruction on %gs:8) and say so; else change nothing. */
	if (!tif_need_resched())
		return false;
	set_preempt_need_resched();
	return true;
	/* LAB(L1) END: return false; */
}

/* ---- The hooks' defaults: what a model with the count per CPU and the
 * fold in the IPI handler does (nothing, or the fold). */
#ifndef preempt_model_scheduler_ipi
static __always_inline void preempt_model_scheduler_ipi(void)
{
	preempt_fold_need_resched(); /* tif_flag.h models: reads the flag only */
}
#endif
#ifndef preempt_model_resched_remote
static __always_inline void preempt_model_resched_remote(u32 cpu) { (void)cpu; }
#endif
#ifndef preempt_model_switch
static __always_inline void preempt_model_switch(u32 *prev_saved, const u32 *next_saved)
{
	(void)prev_saved;
	(void)next_saved;
}
#endif
#ifndef preempt_count_init_stack
static __always_inline void preempt_count_init_stack(u64 stack_top, u32 count)
{
	(void)stack_top;
	(void)count;
}
#endif
#ifndef preempt_count_raw_of
static __always_inline u32 preempt_count_raw_of(u32 cpu, u64 stack_top)
{
	(void)stack_top;
	return per_cpu(preempt_count, cpu);
}
#endif

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

/* The full-preemption point. The fast path is the model's dec-and-test
 * (COUNT=off: none, so this is a compiler barrier); the slow path calls
 * preempt_schedule() through a thunk that keeps every register, so the
 * compiler sees no call (arch/x86_64/preempt/preempt_thunk.asm). */
#define preempt_enable()                                         \
	do {                                                     \
		barrier();                                       \
		if (unlikely(__preempt_count_dec_and_test()))    \
			__preempt_schedule();                    \
	} while (0)

/* Raise/lower a count field by a given offset (irq entry, spinlocks). */
#define preempt_count_add(v) __preempt_count_add(v)
#define preempt_count_sub(v) __preempt_count_sub(v)

/* Linux's need_resched(): the thread flag, TIF_NEED_RESCHED only (a lazy
 * request waits for the tick, so loops that poll need_resched() ignore it,
 * as in Linux). */
static __always_inline bool need_resched(void)
{
	return tif_need_resched();
}

static inline const char *preempt_model_name(void)
{
	return PREEMPT_MODEL_NAME;
}
/* Prints "count=0x80000002 (preempt=2 softirq=0 hardirq=0 nmi=0 need_resched=0)". */
int preempt_count_describe(char *buf, size_t size, u32 raw, u64 tif_flags);

#endif
