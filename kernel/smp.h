/* Cross-CPU function calls over the CALL_FUNCTION IPI, and stopping the
 * other CPUs on panic. */
#ifndef FOLD_KERNEL_SMP_H
#define FOLD_KERNEL_SMP_H
#include "lib/types.h"

typedef void (*smp_call_func_t)(void *arg);

/* Run fn(arg) on `cpu` in hardirq context; with wait, return after it ran.
 * Returns 0, or -1 if the CPU is not online. Waiting with IRQs off could
 * deadlock against a CPU calling us, so it is a BUG. */
int smp_call_function_single(u32 cpu, smp_call_func_t fn, void *arg, bool wait);
/* The same on every online CPU in `mask` except the caller. */
void smp_call_function_many(u64 mask, smp_call_func_t fn, void *arg, bool wait);
void smp_init(void);          /* register the IPI handlers */
u32 smp_processor_id(void);   /* checks preemption is off (debug build) */
#endif
