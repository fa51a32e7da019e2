/* Between the scenarios over the real scheduler (sched_scenarios.c)
 * and their rules (sched_checks.c): the run's threads and locks, and
 * the checks, the engine's check_step and check_end. */
#ifndef FOLD_TESTS_EXPLORE_SCHED_CHECKS_H
#define FOLD_TESTS_EXPLORE_SCHED_CHECKS_H

#include "tests/explore/explore.h"
#include "sched/thread.h"
#include "kernel/locking/rtmutex.h"

extern struct thread sched_th[EX_MAX_THREADS];  /* engine thread i's, if a kernel thread */
extern bool sched_exited[EX_MAX_THREADS];
#define SCHED_NLOCKS 3
extern struct rt_mutex sched_L[SCHED_NLOCKS];
/* The thread inside each lock's section (1 + its index, 0: none), the
 * -EDEADLK returns of each run and the deadlock reports printed. */
/* Lock l: sched_L[l], then the spinlock_t S's rt_mutex, then
 * irq_thread.c's irq_request_mutex: every rt_mutex the rules watch. */
#define SCHED_NALL (SCHED_NLOCKS + 2)
struct rt_mutex *sched_lock(int l);
extern int sched_inside[SCHED_NLOCKS + 1]; /* the locks and S */
extern int sched_edeadlk;
extern int report_deadlocks[];
extern const struct ex_scenario *sched_cur;
bool sched_is_idle(int i);                      /* engine thread i is an idle thread */
bool sched_is_timer(int i);                     /* or the timer */

/* thread_create() calls for the device line of I (irq_thread_start()) */
int sched_irq_threads_made(void);
/* The device line's pending word is set while its thread is asleep (a
 * lost interrupt, at the end); the times its work ran. */
bool sched_line_lost(void);
unsigned sched_line_runs(void);
void sched_checks_reset(void);                  /* a run starts */
const char *sched_check_step(void);
const char *sched_check_end(void);

#endif
