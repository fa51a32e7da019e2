/* lock_stat: contended acquisitions counted per lock class (Linux's
 * CONFIG_LOCK_STAT `contentions`, reduced to that one count), in every
 * build: debug, release, LOCKDEP=1.
 *
 * A contended acquisition is one that found the lock held: the ticket a
 * locker drew was not the one served. Only raw_spinlock_t's slow path
 * counts (kernel/locking/raw_spinlock.c), after the inline fast path's
 * compare-and-exchange failed and the ticket it then drew still had to
 * wait: an uncontended lock runs not one more instruction, and the lock
 * structure is unchanged. A spinlock_t counts under its raw lock's name,
 * except on PREEMPT=rt, where it is an rt_mutex and not counted.
 *
 * The class is the lock's name (DEFINE_RAW_SPINLOCK's variable, or
 * raw_spin_lock_init()'s string): the locks of one kind share it, as the
 * run queues' "rq" or every endpoint's lock, which is what lockdep calls
 * a class too. A class gets its slot in a fixed table at its first
 * contention (claimed with one compare-and-exchange, no lock: a counter
 * must not take one); two CPUs that register one name at once may claim
 * two slots, and every reader adds up the slots of a name. A full table
 * counts in lock_stat_overflow instead.
 *
 * Each contention is also a trace event, Linux's lock:contention_begin
 * (the lock's address, flags LCB_F_SPIN) and lock:contention_end when
 * the wait ends (kernel/trace/trace.h). `stat` prints the table. */
#ifndef FOLD_KERNEL_LOCK_STAT_H
#define FOLD_KERNEL_LOCK_STAT_H
#include "lib/types.h"

#define LOCK_STAT_CLASSES 48
/* Linux's contention_begin flag for a spinning lock (LCB_F_SPIN). */
#define LCB_F_SPIN (1U << 0)

struct raw_spinlock;

struct lock_class_stat {
	const char *volatile name;  /* NULL: a free slot */
	volatile u64 contentions;
};

/* From the slow path, before the wait: count l's class, trace the begin. */
void lock_contended(struct raw_spinlock *l);
/* After the wait: trace the end. */
void lock_contended_end(struct raw_spinlock *l);

/* Contended acquisitions of the class `name` since boot (0: none yet). */
u64 lock_stat_contentions(const char *name);
/* Of every class. */
u64 lock_stat_total(void);
/* The classes with contentions, one entry per name (duplicate slots
 * merged), at most max of them: how many were written. */
u32 lock_stat_snapshot(struct lock_class_stat *out, u32 max);
/* Contentions of classes that found the table full. */
extern volatile u64 lock_stat_overflow;
#endif
