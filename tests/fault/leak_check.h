/* Leak accounting: what the kernel holds, taken before a workload and
 * after it (every process it started gone), and compared figure by
 * figure:
 *
 *   leak check: frames free 12034 before, 12034 after
 *   leak check: kernel stacks in use 9 before, 9 after
 *   ...
 *
 * A figure that differs is a leak, except frames taken into kmalloc's
 * size classes or made into new kernel stacks, which those allocators
 * keep for reuse (never give back): the frames line counts them and says
 * so. */
#ifndef FOLD_TESTS_FAULT_LEAK_CHECK_H
#define FOLD_TESTS_FAULT_LEAK_CHECK_H
#include "lib/types.h"

struct leak_snapshot {
	u64 frames_free;      /* frames_free() */
	u64 frames_kept;      /* held for reuse: kmalloc's class pages, stack slots */
	u64 stacks;           /* kernel stacks in use (stack_slots_in_use()) */
	u64 kmalloc_objects;  /* kmalloc_usage(): objects alive */
	u64 kmalloc_bytes;    /* ... and their bytes */
	u64 kobjects;         /* endpoints and notifications alive */
	u64 handles;          /* handles in every table */
	u64 processes;        /* struct process alive (zombies included) */
	u64 threads;          /* threads listed (the boot thread included) */
};

void leak_snapshot(struct leak_snapshot *s);
/* One line per figure (printk, "leak check: ..."); the number of
 * figures that differ: 0 means no leak. */
int leak_check(const struct leak_snapshot *before, const struct leak_snapshot *after);
/* The same count, printing nothing: for a check repeated in a loop. */
int leak_count(const struct leak_snapshot *before, const struct leak_snapshot *after);
#endif
