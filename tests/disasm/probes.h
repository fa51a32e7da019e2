#ifndef FOLD_KERNEL_PROBES_H
#define FOLD_KERNEL_PROBES_H
#include "lib/types.h"
u32 probe_this_cpu_read(void);
void probe_this_cpu_write(u64 v);
void probe_this_cpu_inc(void);
void probe_this_cpu_add(u64 v);
void probe_preempt_disable(void);
void probe_preempt_enable(void);
void probe_preempt_pair(void);
/* The fold protocol's pieces, for tests/explore/ (probes.c). */
void probe_schedule_clear(void);
void probe_irq_enter(void);
void probe_scheduler_ipi(void);
void probe_irq_exit(void);
bool probe_irq_exit_need_resched(void);
#endif
