/* The explorer's TSS: no ring 3, so RSP0 is only this CPU's top_of_stack. */
#ifndef FOLD_ARCH_GDT_H
#define FOLD_ARCH_GDT_H
#include "kernel/percpu.h"
static __always_inline void tss_set_rsp0(u64 top) { this_cpu_write(top_of_stack, top); }
#endif
