/* The instructions every per-CPU count model shares: the count is a 32-bit
 * field of this CPU's struct percpu, one %gs:offset operand away
 * (arch/x86_64/kernel/percpu.h), and each change to it is ONE unlocked
 * read-modify-write instruction. That is enough: only this CPU writes its
 * count, and an interrupt can only arrive between two instructions, never
 * inside one (SDM Vol. 3A 7.6, "Program or Task Restart"), so an
 * interrupt handler's own +/- pairs always find the count whole.
 *
 * Included by folded.h, percpu.h, off.h and racy.h; ti.h keeps the count
 * on the stack instead and has its own. */
#ifndef FOLD_ARCH_PREEMPT_GS_COUNT_H
#define FOLD_ARCH_PREEMPT_GS_COUNT_H

#include "kernel/percpu.h"

/* The per-CPU field the models operate on. Only the preempt benchmark
 * changes it (to bench_count), to run every model's instruction sequence
 * side by side in one image without touching the real count
 * (bench/bench_pair.c). */
#ifndef PREEMPT_COUNT_FIELD
#define PREEMPT_COUNT_FIELD preempt_count
#endif

static __always_inline u32 gs_count_read(void)
{
	return this_cpu_read(PREEMPT_COUNT_FIELD);
}
static __always_inline void gs_count_write(u32 v)
{
	this_cpu_write(PREEMPT_COUNT_FIELD, v);
}
static __always_inline void gs_count_add(u32 v)
{
	__asm__ __volatile__("addl %0, %%gs:%c1" ::"ri"(v),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline void gs_count_sub(u32 v)
{
	__asm__ __volatile__("subl %0, %%gs:%c1" ::"ri"(v),
			     "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline void gs_count_inc(void)
{
	__asm__ __volatile__("incl %%gs:%c0" ::"i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
static __always_inline void gs_count_dec(void)
{
	__asm__ __volatile__("decl %%gs:%c0" ::"i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
}
/* `decl %gs:off`, and ZF: true when the stored 32 bits became 0. */
static __always_inline bool gs_count_dec_is_zero(void)
{
	bool zero;
	__asm__ __volatile__("decl %%gs:%c1"
			     : "=@cce"(zero)
			     : "i"(PERCPU_OFF(PREEMPT_COUNT_FIELD))
			     : "memory");
	return zero;
}

/* The stored value, and the add/sub that irq_enter()/irq_exit() and the
 * spinlocks use: the same in every per-CPU model (preempt_disable()'s
 * inc/dec are each model's own: off makes them nothing). */
static __always_inline u32 preempt_count_raw(void) { return gs_count_read(); }
static __always_inline void preempt_count_set(u32 v) { gs_count_write(v); }
static __always_inline void __preempt_count_add(u32 v) { gs_count_add(v); }
static __always_inline void __preempt_count_sub(u32 v) { gs_count_sub(v); }

#endif
