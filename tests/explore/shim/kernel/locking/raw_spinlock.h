/* The explorer's raw_spinlock_t (tests/explore/shim.c): the lock and
 * unlock are scheduling points, and a thread whose lock is held by
 * another is not scheduled until it is free (its spinning changes
 * nothing). Replaces kernel/locking/raw_spinlock.h by include order. */
#ifndef FOLD_KERNEL_RAW_SPINLOCK_H
#define FOLD_KERNEL_RAW_SPINLOCK_H

#include "lib/types.h"

typedef struct raw_spinlock {
	int holder;              /* 1 + the explorer's thread, 0 when free */
	const char *name;
} raw_spinlock_t;

#define RAW_SPINLOCK_INIT(n) { 0, n }
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = RAW_SPINLOCK_INIT(#x)

void raw_spin_lock_init(raw_spinlock_t *l, const char *name);
void raw_spin_lock(raw_spinlock_t *l);
void raw_spin_unlock(raw_spinlock_t *l);
u64 raw_spin_lock_irqsave(raw_spinlock_t *l);
void raw_spin_unlock_irqrestore(raw_spinlock_t *l, u64 flags);

#endif
