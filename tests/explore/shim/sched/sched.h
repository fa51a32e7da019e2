/* The explorer's sched/sched.h: the scheduler as kernel/locking/ sees it,
 * with the real struct thread (sched/thread.h). tests/explore/shim.c
 * implements it: schedule() blocks the coroutine until its state is
 * RUNNING, the wake-ups test the state as try_to_wake_up() does. */
#ifndef FOLD_SCHED_SCHED_H
#define FOLD_SCHED_SCHED_H

#include "lib/types.h"
#include "sched/thread.h"

struct thread *current_thread(void);
void schedule(void);
bool wake_up_thread(struct thread *t);
bool wake_up_rtlock(struct thread *t);
void current_save_and_set_rtlock_wait_state(void);
void current_restore_rtlock_saved_state(void);
void rt_mutex_setprio(struct thread *t, int prio);
/* tests/explore/ipc_shim.c: ipc/endpoint.c's direct switch, and the
 * sleep its debug delay would take (never: the delay is 0). */
bool sched_handoff(struct thread *next);
void sleep_until(u64 deadline_ns);
void thread_for_each(void (*fn)(struct thread *t, void *arg), void *arg);
#define might_sleep() __might_sleep(__FILE__, __LINE__)
void __might_sleep(const char *file, int line);

#endif
