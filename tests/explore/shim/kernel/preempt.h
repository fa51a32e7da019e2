/* The explorer's kernel/preempt.h: only what kernel/locking/spinlock.h
 * and sched/migrate.h ask of it on PREEMPT_RT (set by the build), and
 * the thread flags ipc/endpoint.c tests (kernel/preempt.h's values). */
#ifndef FOLD_KERNEL_PREEMPT_H
#define FOLD_KERNEL_PREEMPT_H

#include "lib/types.h"

#ifndef PREEMPT_RT
#error "the explorer builds kernel/locking with -DPREEMPT_RT=1"
#endif

#define _TIF_NEED_RESCHED (1UL << 0)
#define _TIF_NEED_RESCHED_LAZY (1UL << 2)
#define _TIF_SIGPENDING (1UL << 4)

#endif
