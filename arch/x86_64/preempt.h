/* The count models' instructions (`make COUNT=...`); kernel/preempt.h
 * gives them meaning. Each model defines:
 *   preempt_count_raw()            the stored 32 bits
 *   __preempt_count_add/sub(v)     one read-modify-write instruction
 *   __preempt_count_dec_and_test() true when preempt_enable() must call
 *                                  preempt_schedule()
 *   set/clear/test_preempt_need_resched()  the folded copy of the flag
 *   PREEMPT_ENABLED                the raw value of a preemptible count
 *   preempt_count_set(v)           the context switch's and boot's write
 *
 *   folded: per-CPU, bit 31 = inverted need-resched (the final design)
 *   percpu: per-CPU, need-resched tested in the thread's flags (the seed patch)
 *   ti:     in thread_info at the base of the kernel stack (the kernel before)
 *   off:    only the IRQ fields; preempt_disable() does nothing
 *   racy:   folded's encoding, but remote CPUs clear bit 31 themselves with
 *           an atomic and, racing the owner's unlocked incl/decl (the
 *           article's first idea, kept to count what it loses)
 * COUNT_BIT31 is set for folded and racy, the two with bit 31.
 */
#ifndef FOLD_ARCH_PREEMPT_H
#define FOLD_ARCH_PREEMPT_H

#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"

/* The per-CPU field the models operate on. Only the preempt benchmark
 * changes it (to bench_count), to run every model's instruction sequence
 * side by side in one image without touching the real count. */
#ifndef PREEMPT_COUNT_FIELD
#define PREEMPT_COUNT_FIELD preempt_count
#endif

/* Makes GCC set up the frame before an asm that contains a call
 * (Linux's ASM_CALL_CONSTRAINT). */
register unsigned long current_stack_pointer __asm__("rsp");
#define ASM_CALL_CONSTRAINT "+r"(current_stack_pointer)

static __always_inline bool tif_need_resched(void);

#if COUNT_MODEL_TI
/* ---- ti: the count lives in struct thread_info at the lowest address of
 * the THREAD_SIZE-aligned kernel stack, found by masking %rsp. */
#define THREAD_SIZE 16384UL
struct thread_info {
	u32 preempt_count;
	u32 pad;
};
static __always_inline struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)(read_rsp() & ~(THREAD_SIZE - 1));
}
#define PREEMPT_ENABLED 0u
static __always_inline u32 preempt_count_raw(void)
{
	return READ_ONCE(current_thread_info()->preempt_count);
}
static __always_inline void preempt_count_set(u32 v)
{
	WRITE_ONCE(current_thread_info()->preempt_count, v);
}
static __always_inline void __preempt_count_add(u32 v)
{
	__asm__ __volatile__("addl %1, %0"
			     : "+m"(current_thread_info()->preempt_count)
			     : "ri"(v)
			     : "memory");
}
static __always_inline void __preempt_count_sub(u32 v)
{
	__asm__ __volatile__("subl %1, %0"
			     : "+m"(current_thread_info()->preempt_count)
			     : "ri"(v)
			     : "memory");
}
static __always_inline bool __preempt_count_dec_and_test(void)
{
	bool zero;
	__asm__ __volatile__("decl %0"
			     : "+m"(current_thread_info()->preempt_count),
			       "=@cce"(zero)
			     :
			     : "memory");
	return zero && tif_need_resched();
}
#else
/* ---- folded, percpu, off: the count is a per-CPU variable at %gs:8. */
#if COUNT_BIT31
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED
#else
#define PREEMPT_ENABLED 0u
#endif
static __always_inline u32 preempt_count_raw(void)
{
	return this_cpu_read(PREEMPT_COUNT_FIELD);
}
static __always_inline void preempt_count_set(u32 v)
{
	this_cpu_write(PREEMPT_COUNT_FIELD, v);
}
static __always_inline void __preempt_count_add(u32 v)
{
	__asm__ __volatile__("addl %0, %%gs:%c1" ::"ri"(v),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline void __preempt_count_sub(u32 v)
{
	__asm__ __volatile__("subl %0, %%gs:%c1" ::"ri"(v),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
/* folded: `decl %gs:8` sets ZF exactly when the raw count reaches 0, i.e.
 * depth 0 and bit 31 clear (reschedule wanted). One instruction and a
 * branch. percpu/off: ZF says depth 0; the flag is a second test. */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	bool zero;
	__asm__ __volatile__("decl %%gs:%c1"
			     : "=@cce"(zero)
			     : "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
#if COUNT_BIT31
	return zero;
#else
	return zero && tif_need_resched();
#endif
}
#endif

static __always_inline void __preempt_count_inc(void)
{
#if COUNT_MODEL_TI
	__asm__ __volatile__("incl %0"
			     : "+m"(current_thread_info()->preempt_count)::"memory");
#else
	__asm__ __volatile__("incl %%gs:%c0" ::"i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
#endif
}
static __always_inline void __preempt_count_dec(void)
{
#if COUNT_MODEL_TI
	__asm__ __volatile__("decl %0"
			     : "+m"(current_thread_info()->preempt_count)::"memory");
#else
	__asm__ __volatile__("decl %%gs:%c0" ::"i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
#endif
}

/* The folded copy of TIF_NEED_RESCHED. Only the owning CPU calls these;
 * each is one unlocked instruction (and/or/test on %gs:8). */
static __always_inline void set_preempt_need_resched(void)
{
#if COUNT_BIT31
	__asm__ __volatile__("andl %0, %%gs:%c1" ::"i"(~PREEMPT_NEED_RESCHED),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
#endif
}
static __always_inline void clear_preempt_need_resched(void)
{
#if COUNT_BIT31
	__asm__ __volatile__("orl %0, %%gs:%c1" ::"i"(PREEMPT_NEED_RESCHED),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
#endif
}
static __always_inline bool test_preempt_need_resched(void)
{
#if COUNT_BIT31
	return !(preempt_count_raw() & PREEMPT_NEED_RESCHED);
#else
	return tif_need_resched();
#endif
}

/* The call to preempt_schedule() through the register-saving thunk. */
static __always_inline void __preempt_schedule(void)
{
	__asm__ __volatile__("call preempt_schedule_thunk" : ASM_CALL_CONSTRAINT::"memory");
}

/* current->flags & _TIF_NEED_RESCHED, via %gs:current. */
struct thread;
static __always_inline bool tif_need_resched(void)
{
	struct thread *t = this_cpu_read(current);
	return READ_ONCE(*(volatile u64 *)t) & (1UL << 0);
}

/* Give a new stack the count its first instructions expect. Only the ti
 * model keeps the count on the stack (thread_info at the stack's base). */
static __always_inline void arch_stack_init_count(u64 stack_top, u32 count)
{
#if COUNT_MODEL_TI
	((struct thread_info *)(stack_top - THREAD_SIZE))->preempt_count = count;
#else
	(void)stack_top;
	(void)count;
#endif
}

#endif
