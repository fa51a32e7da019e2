/* tests/explore/hw.c's machine, for the scenarios over the real
 * scheduler (sched_scenarios.c): a run's CPUs, which engine thread is
 * which kernel thread and where it runs, and the engine's hooks. */
#ifndef FOLD_TESTS_EXPLORE_HW_SCHED_H
#define FOLD_TESTS_EXPLORE_HW_SCHED_H

#include "lib/types.h"
#include "tests/explore/hw/hw.h"

struct thread;

/* A run starts: cpus CPUs online, each count preemptible, IF set, no
 * interrupt pending. */
void hw_reset(int cpus);
/* Engine thread i is kernel thread t, on (or last on) cpu. */
void hw_bind(int engine_thread, struct thread *t, int cpu);
/* cpu runs engine thread i's kernel thread now (its `current`). */
void hw_set_context(int cpu, int engine_thread);
int hw_cpus(void);
/* Some ticket lock (a run queue's, rt_mutex_pi_lock, a wait queue's) is
 * held: not a quiescent point. */
bool hw_ticket_locks_held(void);
int hw_context(int cpu);
/* A thread queued at the start: its first run waits to be switched to,
 * then ends the switch as thread_start() does. */
void hw_first_switch_in(void);
/* Engine thread i has been switched away from while waiting on an
 * rt_mutex (pi_blocked_on set) in this run. */
bool hw_slept_on_lock(int engine_thread);
/* READ_ONCE() of p is a scheduling point in this run (one address). */
void hw_watch_read(const volatile void *p);
/* The engine's hooks (struct ex_scenario's may_run, extra, resume). */
bool hw_may_run(int t);
const void *hw_extra(uint8_t *kind);
bool hw_take_interrupt(void);

#endif
