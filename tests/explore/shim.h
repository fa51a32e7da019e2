/* What tests/explore/shim.c (the kernel's world, as rtmutex.c sees it)
 * tells the rt_mutex scenarios, and what they tell it. */
#ifndef FOLD_TESTS_EXPLORE_SHIM_H
#define FOLD_TESTS_EXPLORE_SHIM_H

#include "lib/types.h"

struct thread;
struct rt_mutex;

/* The run's threads (the explorer's thread i is threads[i]) and the
 * rt_mutexes whose owner words are scheduling points. Frees every raw
 * spinlock the code has taken so far: the start of an execution. */
void shim_reset(struct thread **threads, int nthreads, struct rt_mutex **locks, int nlocks);
/* Raw spinlocks held now, by anyone (0: a quiescent point). */
int shim_raw_locks_held(void);
/* "deadlock detected" reports printed by thread i in this run. */
int shim_deadlock_reports(int i);
/* An owner word, readable: "0", "O", "O|waiters", "waiters bit". */
const char *shim_owner_str(u64 v, char *buf, size_t size);
const char *shim_state_str(int state);

/* shim/explore_shim.h's points: p is an rt_mutex's owner word (atomics)
 * or a thread's state (WRITE_ONCE); any other address is no point. */
void explore_atomic_point(const volatile void *p, int write);
void explore_atomic_done(const volatile void *p, const char *op, u64 before);
void explore_write_point(const volatile void *p);
void explore_write_done(const volatile void *p);

#endif
