/* Part A's scenarios (rtmutex_scenarios.c), for main.c. */
#ifndef FOLD_TESTS_EXPLORE_RTMUTEX_SCENARIOS_H
#define FOLD_TESTS_EXPLORE_RTMUTEX_SCENARIOS_H

#include "tests/explore/explore.h"

extern const struct ex_scenario rtmutex_scenarios[];
extern const int rtmutex_nscenarios;

#endif
