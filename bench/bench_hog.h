/* The hog load of bench latency and bench wakeup_hog: a normal thread that
 * loops ~200-instruction iterations with no preemption point of its own
 * but a might_resched() every `points` iterations and a cond_resched()
 * every `run`: full and lazy preempt it anywhere, voluntary at
 * might_resched(), none only at cond_resched(). */
#ifndef FOLD_KERNEL_BENCH_HOG_H
#define FOLD_KERNEL_BENCH_HOG_H
#include "lib/types.h"

struct bench_hog {
	u64 points, run;
	volatile int stop; /* set by the benchmark: the hog returns */
};

/* The thread function; arg is a struct bench_hog. */
void bench_hog_thread(void *arg);
#endif
