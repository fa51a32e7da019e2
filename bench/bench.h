/* fold's built-in benchmarks, run by the shell's `bench NAME key=value`.
 * Each prints a human-readable report and, for every result, one line
 *   BENCH <name> model=.. mode=.. smp=.. clock=.. key=value ...
 * for the host harness (tools/bench/run-bench). Under clock=icount (QEMU
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

/* Each benchmark's key=value options, one entry per option:
 *   NUM(key, min, max)   a number from min to max
 *   WORDS(key, words)    one of the strings of the array words (its index)
 * The option's value lives in the benchmark's local variable named key.
 * The benchmark builds its table from its list (BENCH_OPT_NUM and
 * BENCH_OPT_WORDS below), and arch/x86_64/kernel/asm-offsets.c hands the keys to
 * the host tools (build/fold_offsets.py): nobody copies them. */
#define BENCH_PREEMPT_OPTIONS(NUM, WORDS) \
	NUM(iters, 1000, 100000000)       \
	NUM(irq_iters, 100, 10000000)
#define BENCH_LATENCY_OPTIONS(NUM, WORDS) \
	NUM(interval, 50, 1000000)        \
	NUM(loops, 10, 100000)            \
	WORDS(load, bench_latency_loads)  \
	NUM(hog_points, 1, 100000000)     \
	NUM(hog_run, 1, 1000000000)       \
	NUM(histogram, 0, 2000)           \
	NUM(nsecs, 0, 1)                  \
	NUM(section_us, 1, 1000000)
#define BENCH_THROUGHPUT_OPTIONS(NUM, WORDS) \
	NUM(ops, 1000, 100000000)            \
	NUM(W, 0, 100000)                    \
	NUM(p, 1, 64)                        \
	NUM(lock_every, 0, 1000000)          \
	NUM(rounds, 10, 10000000)
#define BENCH_RACE_OPTIONS(NUM, WORDS) \
	NUM(rounds, 10, 10000000)
#define BENCH_UACCESS_OPTIONS(NUM, WORDS) \
	NUM(iters, 100, 10000000)
#define BENCH_SYSCALL_OPTIONS(NUM, WORDS) \
	NUM(calls, 100, 100000000)
#define BENCH_USERLAT_OPTIONS(NUM, WORDS) \
	NUM(interval, 50, 1000000)        \
	NUM(loops, 10, 100000)            \
	NUM(prio, 0, 99)                  \
	WORDS(load, bench_userlat_loads)
#define BENCH_IPC_OPTIONS(NUM, WORDS) \
	NUM(calls, 100, 10000000)         \
	WORDS(test, bench_ipc_tests)
#define BENCH_UDRIVER_OPTIONS(NUM, WORDS) \
	NUM(bytes, 64, 65536)             \
	NUM(rounds, 10, 100000)           \
	NUM(interval, 50, 1000000)        \
	NUM(prio, 0, 99)
#define BENCH_HACKBENCH_OPTIONS(NUM, WORDS) \
	NUM(groups, 1, 16)                  \
	NUM(fds, 1, 20)                     \
	NUM(loops, 1, 100000)               \
	NUM(depth, 1, 4096)
#define BENCH_WAKEUP_HOG_OPTIONS(NUM, WORDS) \
	NUM(interval, 50, 1000000)          \
	NUM(loops, 10, 100000)              \
	NUM(hog_points, 1, 100000000)       \
	NUM(hog_run, 1, 1000000000)
#define BENCH_MODE_COST_OPTIONS(NUM, WORDS) \
	NUM(iters, 1000, 100000000)          \
	NUM(irq_iters, 100, 10000000)
#define BENCH_INVERSION_OPTIONS(NUM, WORDS) \
	NUM(section_us, 10, 1000000)         \
	NUM(medium_us, 10, 10000000)
#define BENCH_OPT_NUM(key, min, max) { #key, &key, min, max, NULL, 0 },
#define BENCH_OPT_WORDS(key, words) { #key, &key, 0, 0, words, ARRAY_SIZE(words) },
/* The same lists as a table without values, for help (bench_usage). */
#define BENCH_USAGE_NUM(key, min, max) { #key, NULL, min, max, NULL, 0 },
#define BENCH_USAGE_WORDS(key, words) { #key, NULL, 0, 0, words, ARRAY_SIZE(words) },
/* bench latency's load= words, in the order of its LOAD_* values: the
 * one list, for bench_latency.c and the shell fuzzer's copy of the array. */
#define BENCH_LATENCY_LOAD_WORDS { "none", "hog", "pingpong", "lock", "local" }
extern const char *const bench_latency_loads[5];
/* bench ipc test=: every case; the same-CPU and cross-CPU ones only
 * (call, notify); or only the pairs, one per CPU (bench/bench_ipc.c). */
#define BENCH_IPC_TEST_WORDS { "all", "pingpong", "pairs" }
enum { IPC_TEST_ALL, IPC_TEST_PINGPONG, IPC_TEST_PAIRS };
extern const char *const bench_ipc_tests[3];

/* The benchmarks: X(name, its options list, what it measures). The shell's
 * bench command and its help are made from this list: bench_<name> runs
 * each. */
#define BENCHES(X)                                                                     \
	X(preempt, BENCH_PREEMPT_OPTIONS, "the preempt_disable/enable pair, every model") \
	X(latency, BENCH_LATENCY_OPTIONS, "wake-up latency, cyclictest's method")     \
	X(throughput, BENCH_THROUGHPUT_OPTIONS, "preempt-heavy work, switches, IPIs") \
	X(race, BENCH_RACE_OPTIONS, "remote reschedule requests vs a busy count") \
	X(uaccess, BENCH_UACCESS_OPTIONS, "copy_from_user per mode, might_fault on/off (E7)") \
	X(syscall, BENCH_SYSCALL_OPTIONS, "the null system call (getpid) from ring 3") \
	X(userlat, BENCH_USERLAT_OPTIONS, "wake-up latency of a user thread (cyclictest)") \
	X(ipc, BENCH_IPC_OPTIONS, "IPC call+reply and notification round trips, same CPU and across; pairs per CPU") \
	X(udriver, BENCH_UDRIVER_OPTIONS, "interrupt to user-level driver latency, per mode, idle and under a hog") \
	X(hackbench, BENCH_HACKBENCH_OPTIONS, "groups of threads passing messages (E8 throughput)") \
	X(wakeup_hog, BENCH_WAKEUP_HOG_OPTIONS, "FIFO and normal wake-up latency under a hog (E8)") \
	X(mode_cost, BENCH_MODE_COST_OPTIONS, "the mode points in none: patched code vs a variable (E8)") \
	X(inversion, BENCH_INVERSION_OPTIONS, "priority inversion: a lock's wait with and without inheritance (E9)")

/* One help line: "  bench latency    [interval=50-1000000 ... load=none|hog|pingpong ...]  what". */
void bench_usage(const char *bench, const struct bench_opt *opts, size_t n, const char *what);

/* Every benchmark's help line, from BENCHES() (the shell's `help`). */
void bench_help_all(void);

/* Parses argv[1..]; on a bad key or value prints why, after "bench
 * NAME: ", and returns -1. */
int bench_parse(const char *bench, int argc, char **argv, struct bench_opt *opts, size_t n);
/* The same for any command: messages start with "cmd: " (the torture's
 * options, tests/torture/torture.h, are parsed this way too). */
int opts_parse(const char *cmd, int argc, char **argv, struct bench_opt *opts, size_t n);
/* One help line, "  CMD [key=min-max ...]  what", as bench_usage's. */
void opts_usage(const char *cmd, const struct bench_opt *opts, size_t n, const char *what);
/* "model=folded mode=full smp=2 clock=icount" */
int bench_context(char *buf, size_t size);
/* Prints x/100 as "123.45". */
int fmt_centi(char *buf, size_t size, u64 x100);
/* num/den with `decimals` digits after the point, rounded ("0.0312"). */
int fmt_ratio(char *buf, size_t size, u64 num, u64 den, unsigned decimals);
/* Time n calls of fn in TSC ticks, as ns*100 per call, minus the loop. */
u64 bench_ns_x100(u64 ticks, u64 n);

int bench_preempt(int argc, char **argv);
int bench_latency(int argc, char **argv);
int bench_throughput(int argc, char **argv);
/* bench throughput's resched_ipi round trip between CPUs 0 and 1
 * (bench/bench_resched_ipi.c): 0, or -1 when a wait ran out. */
int bench_resched_ipi(const char *ctx, u64 rounds);
int bench_race(int argc, char **argv);
int bench_uaccess(int argc, char **argv);  /* bench/bench_uaccess.c */
int bench_syscall(int argc, char **argv);  /* bench/bench_user.c */
int bench_userlat(int argc, char **argv);
/* For the benchmarks that run user programs (bench/bench_user.c):
 * start a, wait, its output in bench_out; 0 if it exited 0 (else it says
 * why). bench_out_field: the number after key in bench_out (digits and a
 * '.', as text). */
struct spawn_args;
int bench_run_quiet(const struct spawn_args *a);
bool bench_out_field(const char *key, char *val, size_t size);
extern char bench_out[4096];
int bench_ipc(int argc, char **argv);      /* bench/bench_ipc.c */
int bench_udriver(int argc, char **argv);  /* bench/bench_udriver.c */
int bench_hackbench(int argc, char **argv);  /* bench/bench_hackbench.c */
int bench_wakeup_hog(int argc, char **argv); /* bench/bench_wakeup_hog.c */
int bench_mode_cost(int argc, char **argv);  /* bench/bench_mode_cost.c */
int bench_inversion(int argc, char **argv); /* bench/bench_inversion.c */
/* Registers bench preempt's empty handler at VECTOR_BENCH (once). */
void bench_irq_nop_init(void);
extern const char *const bench_userlat_loads[2]; /* none, hog */
#endif
