/* Part A's IPC scenarios (ipc_scenarios.c), for main.c. */
#ifndef FOLD_TESTS_EXPLORE_IPC_SCENARIOS_H
#define FOLD_TESTS_EXPLORE_IPC_SCENARIOS_H

#include "tests/explore/explore.h"

extern const struct ex_scenario ipc_scenarios[];
extern const int ipc_nscenarios;

#endif
