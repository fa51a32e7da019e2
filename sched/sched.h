#ifndef FOLD_SCHED_SCHED_H
#define FOLD_SCHED_SCHED_H
#include "lib/types.h"
#include "sched/thread.h"

#define SM_NONE 0
#define SM_PREEMPT 1

void __schedule(int mode);
void schedule(void);
void sched_init_boot_thread(void);
extern struct thread boot_thread;
static inline struct thread *current_thread(void);
#include "kernel/percpu.h"
static inline struct thread *current_thread(void)
{
	return this_cpu_read(current);
}
#endif
