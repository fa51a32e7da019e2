/* The explorer's kernel/preempt.h: only what kernel/locking/spinlock.h
 * and sched/migrate.h ask of it on PREEMPT_RT (set by the build). */
#ifndef FOLD_KERNEL_PREEMPT_H
#define FOLD_KERNEL_PREEMPT_H

#include "lib/types.h"

#ifndef PREEMPT_RT
#error "the explorer builds kernel/locking with -DPREEMPT_RT=1"
#endif

#endif
