/* The interleaving explorer's engine: threads as coroutines, stopped at
 * scheduling points, and every interleaving of a scenario that matters
 * run from the start (tests/explore/engine.c says how). Its front ends:
 * the scenarios over the real scheduler on a model of the hardware
 * (sched_scenarios.c, hw.c: sched/, rtmutex.c, spinlock_rt.c), the few
 * rt_mutex, irq_thread and IPC scenarios still over a scheduler shim
 * (rtmutex_scenarios.c, ipc_scenarios.c), and the fold protocol at the
 * instruction level (fold_model.c), where each CPU is a thread running
 * the built kernel's instructions. A host program: libc, no kernel headers here. */
#ifndef FOLD_TESTS_EXPLORE_H
#define FOLD_TESTS_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

#define EX_MAX_THREADS 12
#define EX_OBJS 3               /* objects an operation may touch */
typedef uint16_t ex_mask;       /* a set of threads */
#define EX_MAX_STEPS 2000       /* an execution longer than this: livelock */
#define EX_MAX_OBJS 256

enum ex_access { EX_NONE, EX_READ, EX_WRITE };

/* What a thread does next at its scheduling point: up to three shared
 * objects (addresses) and how it accesses each. Two operations are
 * dependent when they access one object and one of them writes it. */
struct ex_op {
	const void *obj[EX_OBJS];
	uint8_t kind[EX_OBJS];
};

/* May the thread run its pending operation? (A free lock; a RUNNING
 * state; an IPI pending.) NULL: always. */
typedef bool (*ex_cond_fn)(const void *arg);

struct ex_thread_def {
	const char *name;
	int prio;                /* rt_mutex scenarios: the thread's priority */
	void (*fn)(int self);
	const char *prog;        /* the front end's script for it, if any */
};

struct ex_scenario {
	const char *name;
	const char *what;        /* one line: what it exercises */
	int nthreads;
	struct ex_thread_def threads[EX_MAX_THREADS];
	int arg;                 /* the front end's own parameter */
	const char *names[4];    /* and names (the rt_mutex scenarios' locks) */
	bool quick;              /* in the quick subset (make check) */
	/* Before each execution: the shared state as at the start. */
	void (*reset)(const struct ex_scenario *sc);
	/* After each step: NULL, or what broke (the engine stops there). */
	const char *(*check_step)(void);
	/* When no thread can run: NULL if the end is right, or what is wrong. */
	const char *(*check_end)(void);
	/* NULL, or the object an address belongs to (a heap block's start):
	 * a point with one address also reads that object, so that a free
	 * (a write of the start) is dependent on every access into it. */
	const void *(*object)(const void *addr);
	/* What the engine calls a failing end or step: NULL, "VIOLATION"; a
	 * litmus test, which looks for an outcome, "REACHED". */
	const char *found;
	/* NULL, or more for every point (the real scheduler's hardware,
	 * tests/explore/hw.c): may thread t run (is it its CPU's context)?
	 * a third object every operation touches (its CPU's pending
	 * interrupts, read, while IF is set; *kind says how); and, when the
	 * thread is run on, work to do first (an interrupt): true if it did
	 * any, and the point is then made again. */
	bool (*may_run)(int t);
	const void *(*extra)(uint8_t *kind);
	bool (*resume)(void);
};

/* ---- for the front ends, from inside a thread ---- */

/* A scheduling point: the thread's next operation is op, runnable when
 * cond(arg) holds. Returns when the explorer runs the thread on; the
 * thread then does the operation, alone, up to its next point. */
void ex_point(const struct ex_op *op, ex_cond_fn cond, const void *arg);
/* The same with one object. */
void ex_point1(const void *obj, int kind, ex_cond_fn cond, const void *arg);
/* A violation, found by the running thread: the execution stops. */
void ex_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The running thread stops here for good (a BUG): ex_fail() first. */
__attribute__((noreturn)) void ex_thread_abort(void);
int ex_self(void);                       /* the running thread, 0.. */
const char *ex_thread_name(int t);
bool ex_thread_done(int t);

/* The step log, kept only while a failing schedule is replayed:
 * ex_logging says whether to spend time describing steps. */
extern bool ex_logging;
void ex_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What the running thread is doing, printed with each of its steps
 * ("rt_mutex_unlock(L)"): a format, kept only while logging. */
void ex_activity(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- for the driver ---- */

struct ex_stats {
	uint64_t executions;     /* complete interleavings */
	uint64_t pruned;         /* cut by a sleep set: equivalent to one run */
	uint64_t steps;          /* distinct schedule prefixes (tree nodes) */
	uint64_t max_depth;
	double seconds;
	bool failed;
};

/* Explore every interleaving of sc (up to the equivalence of
 * independent steps). On a violation, prints it with the schedule
 * that leads there, numbered step by step. max_executions bounds the
 * search (0: none); reaching it is a failure. */
struct ex_stats ex_explore(const struct ex_scenario *sc, uint64_t max_executions);
/* What the last violation was ("" if none). */
const char *ex_last_failure(void);

#endif
