/* fold's built-in benchmarks, run by the shell's `bench NAME key=value`.
 * Each prints a human-readable report and, for every result, one line
 *   BENCH <name> model=.. mode=.. smp=.. clock=.. key=value ...
 * for the host harness (tests/bench/run-bench). Under clock=icount (QEMU
 * -icount shift=0,sleep=off) 1 ns of virtual time is one guest
 * instruction, so the figures are instruction counts, reproducible. */
#ifndef FOLD_TESTS_BENCH_H
#define FOLD_TESTS_BENCH_H
#include "lib/types.h"

/* An option: key=value with a numeric range, or one of a word list. */
struct bench_opt {
	const char *key;
	u64 *value;
	u64 min, max;
	const char *const *words; /* if set, value is the index of the word */
	size_t nwords;
};

/* Parses argv[1..]; on a bad key or value prints why and returns -1. */
int bench_parse(const char *bench, int argc, char **argv, struct bench_opt *opts, size_t n);
/* "model=folded mode=full smp=2 clock=icount" */
int bench_context(char *buf, size_t size);
/* Prints x/100 as "123.45". */
int fmt_centi(char *buf, size_t size, u64 x100);
/* Time n calls of fn in TSC ticks, as ns*100 per call, minus the loop. */
u64 bench_ns_x100(u64 ticks, u64 n);

int bench_preempt(int argc, char **argv);
int bench_latency(int argc, char **argv);
int bench_throughput(int argc, char **argv);
int bench_race(int argc, char **argv);
#endif
