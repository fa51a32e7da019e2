/* The fuzzers under fault injection: user/sysfuzz.c (with spawn=true, so
 * that processes are made and unmade too) or four user/ipcfuzz.c sharing
 * handles, with one allocator's fault_attr (kernel/debug/fault_inject.h)
 * failing a percentage of their calls, and a leak check
 * (tests/fault/leak_check.h) once every process is gone. Run by the
 * fault_inject suite, the shell's `fail fuzz` and make fuzz-inject.
 *
 * A run passes if the kernel lives (a panic ends the boot), every fuzzer
 * exits 0 (ipcfuzz: or is killed by the driver while all of them wait),
 * the leak check finds every figure back where it was, and failures were
 * injected (a run that failed nothing tested nothing). Each prints
 *
 *   fault fuzz: sysfuzz, failslab at 10%: 20000 system calls, 52 failures
 *   injected, 1 fuzzer, 0 leaks (840 ms): ok
 *
 * (on one line), after the leak check's lines. */
#ifndef FOLD_TESTS_FAULT_FAULT_FUZZ_H
#define FOLD_TESTS_FAULT_FAULT_FUZZ_H
#include "lib/types.h"

struct fault_attr;

enum fault_fuzzer { FAULT_FUZZ_SYS, FAULT_FUZZ_IPC };

struct fault_fuzz_run {
	/* What to run: */
	int fuzzer;              /* enum fault_fuzzer */
	struct fault_attr *attr;
	u32 percent;
	u64 count;               /* system calls: sysfuzz's calls=, ipcfuzz's over all four */
	u64 seed;                /* the fuzzers' and the attr generator's */
	/* What happened: */
	u64 calls;               /* system calls made */
	u64 injected;            /* failures injected */
	u64 fuzzers;             /* processes started (ipcfuzz: replacements too) */
	u64 bad;                 /* fuzzers that ended any other way */
	int leaks;               /* figures the leak check found changed */
	u64 ms;
};

/* One run; 0 if it passed. */
int fault_fuzz_one(struct fault_fuzz_run *r);
/* The injection set: the allocators the matrix fails in turn (NULL-ended).
 * Kernel stacks and thread structs are not in it until stack_alloc() and
 * thread_alloc() return errors. */
extern struct fault_attr *const fault_fuzz_attrs[];
#define FAULT_FUZZ_PERCENTS { 1, 10 }
/* Each attr of the set at each percentage, with one fuzzer: the number
 * of runs that failed. */
int fault_fuzz_matrix(int fuzzer, u64 count, u64 seed);
#endif
