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
/* The first raw spinlock taken: rtmutex.c's rt_mutex_pi_lock, the only
 * one it has (NULL before it was ever taken). */
struct raw_spinlock *shim_pi_lock(void);
/* Thread i has gone to sleep on an rt_mutex in this run: called
 * schedule() while it waits on one, in a section of rt_mutex_pi_lock's
 * that its release ends. */
bool shim_slept_on_lock(int i);
/* Raw spinlocks held now, by anyone (0: a quiescent point). */
int shim_raw_locks_held(void);
/* For a scenario whose threads exit: an owner word's load is followed
 * by a point (the owner loaded may exit before it is followed), and a
 * read through an exited thread's pi_blocked_on is reported. */
void shim_watch_exits(void);
/* The running thread t exits and its memory is freed (poisoned). */
void shim_thread_exit(struct thread *t);
/* "deadlock detected" reports printed by thread i in this run
 * (tests/explore/report.c counts them in report_deadlocks[]). */
extern int report_deadlocks[];
int shim_deadlock_reports(int i);
/* An owner word, readable: "0", "O", "O|waiters", "waiters bit". */
const char *shim_owner_str(u64 v, char *buf, size_t size);
const char *shim_state_str(int state);

/* tests/explore/ipc_shim.c: the heap under ipc/endpoint.c and object.c.
 * A freed block is poisoned and kept for the rest of the run. Reset it
 * before a run; name a block for the reports ("S's thread"); the start
 * of the block p points into, or NULL (and its name and offset); p, used by the running thread for
 * `what`, points into a freed block or holds the poison: a use-after-free,
 * reported, and the thread stops (a point's shim checks after the point).
 * ipc_object(): a scenario's object hook (explore.h): the block's start. */
void shim_heap_reset(void);
void shim_heap_name(const void *p, const char *name);
const void *shim_heap_object(const void *p);
/* "S's ipc_state+0x10" for an address in a block, or NULL. */
const char *shim_heap_str(const void *p, char *buf, size_t size);
void shim_heap_check(const void *p, const char *what);
const void *ipc_object(const void *addr);

/* shim/explore_shim.h's points: p is an rt_mutex's owner word (atomics)
 * or a thread's state (WRITE_ONCE); any other address
 * is no point. expr: the address as the kernel's source spells it. */
void explore_atomic_point(const volatile void *p, int write, const char *expr);
void explore_atomic_done(const volatile void *p, const char *op, u64 before);
void explore_write_point(const volatile void *p);
bool explore_read_watched(const volatile void *p);
void explore_write_done(const volatile void *p);

#endif
