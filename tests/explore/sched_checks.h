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
extern struct rt_mutex sched_L[2];
extern const struct ex_scenario *sched_cur;
bool sched_is_idle(int i);                      /* engine thread i is an idle thread */
bool sched_is_timer(int i);                     /* or the timer */

void sched_checks_reset(void);                  /* a run starts */
const char *sched_check_step(void);
const char *sched_check_end(void);

#endif
