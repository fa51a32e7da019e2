/* The scenarios over the real scheduler (tests/explore/sched_scenarios.c). */
#ifndef FOLD_TESTS_EXPLORE_SCHED_SCENARIOS_H
#define FOLD_TESTS_EXPLORE_SCHED_SCENARIOS_H

#include "tests/explore/explore.h"

#define SC_LAZY 1   /* a scenario's arg: preempt=lazy (else full) */
#define SC_POLL 2   /* idle=poll (else halt) */
/* and the -EDEADLK returns (each with its report) a run must end with */
#define SC_EDEADLK(n) ((n) << 4)
#define SC_EDEADLK_OF(arg) ((arg) >> 4)

extern const struct ex_scenario sched_scenarios[];
extern const int sched_nscenarios;

#endif
