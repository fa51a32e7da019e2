/* The explorer's arch/x86_64/preempt/gs_count.h: the count is this
 * CPU's percpu_area[].preempt_count, one C access for each %gs
 * instruction of the real header (one instruction: no other CPU writes
 * it, and an interrupt comes only at a scheduling point). */
#ifndef FOLD_ARCH_PREEMPT_GS_COUNT_H
#define FOLD_ARCH_PREEMPT_GS_COUNT_H

#include "kernel/percpu.h"

static __always_inline u32 gs_count_read(void) { return *hw_count(); }
static __always_inline void gs_count_write(u32 v) { *hw_count() = v; }
static __always_inline void gs_count_add(u32 v) { *hw_count() += v; }
static __always_inline void gs_count_sub(u32 v) { *hw_count() -= v; }
static __always_inline void gs_count_inc(void) { ++*hw_count(); }
static __always_inline void gs_count_dec(void) { --*hw_count(); }
static __always_inline bool gs_count_dec_is_zero(void) { return --*hw_count() == 0; }

static __always_inline u32 preempt_count_raw(void) { return gs_count_read(); }
static __always_inline void preempt_count_set(u32 v) { gs_count_write(v); }
static __always_inline void __preempt_count_add(u32 v) { gs_count_add(v); }
static __always_inline void __preempt_count_sub(u32 v) { gs_count_sub(v); }

#endif
