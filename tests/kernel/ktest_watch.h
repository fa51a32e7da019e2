/* The case watchdog: a case that never returns (a student's lab code, a
 * kernel a bug has wedged) ends the run with its name instead of hanging
 * it. On every CPU a timer looks, every 5 ms, at the case running now;
 * past its bail-out time the first CPU to see it prints the case as
 * timed out and "Bail out!", and QEMU exits (tests failed). A CPU stuck
 * with IRQs off cannot look, but the others can.
 *
 * The labs' runner (tests/labs/lab_run.c) watches each lab case; with
 * ktest_case_ms=N on the command line (make grade's regression suites)
 * every case of the other suites is watched too, N virtual ms each. */
#ifndef FOLD_TESTS_KERNEL_KTEST_WATCH_H
#define FOLD_TESTS_KERNEL_KTEST_WATCH_H
#include "lib/types.h"

/* ktest_case_ms=: 0 (the default) leaves the other suites' cases
 * unwatched. */
extern u32 ktest_case_ms;

/* Case `number`, `name`, starts now; the run ends if it has not returned
 * (ktest_watch_end()) within bail_ms. limit_ms is the limit its timeout
 * line names. The first call starts every CPU's timer. */
void ktest_watch_begin(const char *name, int number, u32 limit_ms, u32 bail_ms);
/* It returned in time: no CPU may bail out for it now. */
void ktest_watch_end(void);
#endif
