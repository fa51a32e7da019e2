/* The explorer's command line (tests/explore/run-explore drives it):
 *   explore rtmutex [--quick] [--only NAME] [--expect-violation NAME]
 * runs Part A's scenarios against the kernel files it was linked with
 * (rtmutex.c's owner-exits; ipc/endpoint.c, the ipc scenarios); one
 * line per scenario, and a summary: scenarios, interleavings, steps, time.
 * --expect-violation: the named scenario must report a violation (the
 * self-test's doctored copy), the others are not run.
 *   explore fold MODEL FILE
 * runs Part B on the instruction lists in FILE (fold_model.c).
 *   explore litmus [--sc] FILE...
 * runs the memory model's litmus tests (litmus.c, tests/explore/litmus/).
 * Compiled with EXPLORE_HW, this is explore-sched, over the real
 * scheduler (tests/explore/hw.c): `explore-sched rtmutex` runs its
 * scenarios (sched_scenarios.c: the scheduler's, and Part A's rt_mutex
 * and irq_thread ones) with the same options. */
#include "tests/explore/explore.h"
#include "tests/explore/rtmutex_scenarios.h"
#include "tests/explore/ipc_scenarios.h"
#include "tests/explore/sched_scenarios.h"
#include "tests/explore/fold_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXECUTIONS 3000000

static int run_rtmutex(int argc, char **argv)
{
	bool quick = false;
	const char *only = NULL, *expect = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--expect-violation") && i + 1 < argc)
			only = expect = argv[++i];
		else {
			fprintf(stderr, "explore rtmutex: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	int passed = 0, failed = 0, n = 0;
	struct ex_stats total = { 0 };
#ifdef EXPLORE_HW
	const struct { const char *name; const struct ex_scenario *sc; int n; } sets[] = {
		{ "sched", sched_scenarios, sched_nscenarios },
	};
#else
	const struct { const char *name; const struct ex_scenario *sc; int n; } sets[] = {
		{ "rtmutex", rtmutex_scenarios, rtmutex_nscenarios },
		{ "ipc", ipc_scenarios, ipc_nscenarios },
	};
#endif
	for (int i = 0, set = 0; set < (int)(sizeof(sets) / sizeof(sets[0]));
	     i = i + 1 < sets[set].n ? i + 1 : (set++, 0)) {
		const struct ex_scenario *sc = &sets[set].sc[i];
		if ((only && strcmp(sc->name, only)) || (quick && !sc->quick))
			continue;
		n++;
		struct ex_stats st = ex_explore(sc, MAX_EXECUTIONS);
		bool ok = expect ? st.failed : !st.failed;
		printf("%s %s %s: %s: %d threads, %llu interleavings (+%llu pruned), "
		       "%llu steps, deepest %llu, %.2f s%s\n", ok ? "ok  " : "FAIL",
		       sets[set].name, sc->name,
		       sc->what, sc->nthreads, (unsigned long long)st.executions,
		       (unsigned long long)st.pruned, (unsigned long long)st.steps,
		       (unsigned long long)st.max_depth, st.seconds,
		       expect ? (st.failed ? " (the violation expected)" :
				 " (no violation: one was expected)") : "");
		ok ? passed++ : failed++;
		total.executions += st.executions;
		total.pruned += st.pruned;
		total.steps += st.steps;
		total.seconds += st.seconds;
	}
	if (!n) {
		fprintf(stderr, "explore rtmutex: no scenario %s\n", only ? only : "");
		return 2;
	}
	printf("rtmutex: %d scenarios, %llu interleavings (+%llu pruned by sleep sets), "
	       "%llu steps explored, %.1f s\n", n, (unsigned long long)total.executions,
	       (unsigned long long)total.pruned, (unsigned long long)total.steps,
	       total.seconds);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "rtmutex"))
		return run_rtmutex(argc - 2, argv + 2);
#ifndef EXPLORE_HW
	if (argc >= 2 && !strcmp(argv[1], "fold"))
		return fold_main(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "litmus"))
		return litmus_main(argc - 2, argv + 2);
#endif
	fprintf(stderr, "usage: explore rtmutex [--quick] [--only NAME] "
		"[--expect-violation NAME]\n       explore fold MODEL FILE\n"
		"       explore litmus [--sc] FILE...\n");
	return 2;
}
