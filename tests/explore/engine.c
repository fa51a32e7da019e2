/* The explorer's engine: stateless search with dynamic partial-order
 * reduction (DPOR) and sleep sets.
 *
 * Each thread of a scenario is a coroutine (its own stack, and a switch of
 * the callee-saved registers, ex_swap below) that runs until its
 * next scheduling point, where it names the operation it will do next
 * (the shared objects it touches, read or write). The engine picks which
 * thread goes on, one step at a time, and runs each scenario from the
 * start again and again, each time under another schedule prefix: no
 * state is saved or compared, as in CHESS and loom, so the real code runs
 * unchanged and a step may do anything a C function does.
 *
 * Which schedules: DPOR (Flanagan and Godefroid, POPL 2005). After each
 * step it finds, for every thread, the last earlier step that touches an
 * object the thread's next operation touches, one of them writing, and
 * that is not already ordered before the thread by the happens-before of
 * the run so far (vector clocks); at the state before that step it adds
 * the thread (or, if it could not run there, every thread that could) to
 * the schedules still to try. Sleep sets (Godefroid) drop a thread whose
 * move was explored from an earlier sibling and which nothing dependent
 * has touched since. The result is every interleaving up to reordering
 * of independent steps, exhaustively, without a bound.
 *
 * What was taken from where. CHESS (Musuvathi et al., OSDI 2008): the
 * stateless re-execution from the start, and its preference for running
 * on the thread that ran last, so that the first schedules tried and the
 * first counterexample found have few preemptions; we did not take its
 * preemption bound, because with DPOR every scenario here finishes
 * without one (the largest, three over the real scheduler, in under a
 * minute), and exhaustive says more than "up to k preemptions". loom (tokio): the model of a program as real code
 * whose synchronisation calls are the scheduling points, replaced by a
 * shim, and DPOR over it. CDSChecker (Norris and Demsky, OOPSLA 2013) and
 * GenMC (Kokologiannakis et al.) also explore weak-memory behaviours
 * (reads from older stores); fold's locks use seq_cst-strong x86 atomics
 * and its count is one CPU's, so we take their per-object happens-before
 * bookkeeping only, with sequential consistency.
 *
 * A blocked thread (a held lock, a sleeping state) is never picked; the
 * switch away from it is forced, not a preemption. */
#define _GNU_SOURCE
#include "tests/explore/explore.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define EX_ASAN 1
#else
#define EX_ASAN 0
#endif

#define STACK_SIZE (256 * 1024)
#define NT EX_MAX_THREADS

enum { T_RUNNABLE, T_DONE };

struct thread_rt {
	void *sp;                /* saved stack pointer while switched out */
	char *stack;
	int status;
	struct ex_op pending;
	ex_cond_fn cond;
	const void *cond_arg;
	uint16_t clock[NT];      /* vector clock after its last step */
	char activity[64];
};

struct node {                    /* the state before step d */
	ex_mask enabled, backtrack, done, sleep;
	uint8_t chosen;
	struct ex_op pending[NT];
};

struct step {
	uint8_t thread;
	uint16_t lclock;         /* its thread's step count, 1.. */
	struct ex_op op;
	char act[64];            /* logging only: its thread's activity */
	char text[400];          /* and what the step did */
};

struct object {
	const void *addr;
	uint16_t wclock[NT], rclock[NT];
	uint16_t nsteps;
	uint16_t steps[EX_MAX_STEPS]; /* steps of this run that touched it */
};

static const struct ex_scenario *sc;
static struct thread_rt threads[NT];
static void *sched_sp;
#if EX_ASAN
static const void *sched_stack;  /* the scheduler's, for the fiber calls */
static size_t sched_stack_size;
#endif
static int running = -1;
static struct node nodes[EX_MAX_STEPS + 1];
static struct step steps[EX_MAX_STEPS + 1];
static int stack_len, depth;
static struct object objects[EX_MAX_OBJS];
static int nobjects;
static char failure[512];
bool ex_logging;

/* ---- coroutines ---- */

/* Save the callee-saved registers on this stack, store the stack
 * pointer in *save, load sp and return into whatever waits there: the
 * System V ABI's whole contract for a call (the caller saved the rest).
 * No system call, unlike swapcontext(), which sets the signal mask. */
static __attribute__((naked, noinline)) void ex_swap(void **save, void *sp)
{
	(void)save;
	(void)sp;
	__asm__ volatile("pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\t"
			 "pushq %r14\n\tpushq %r15\n\tmovq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
			 "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\t"
			 "popq %rbx\n\tpopq %rbp\n\tret");
}

static void switch_to(struct thread_rt *t)
{
#if EX_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, t->stack, STACK_SIZE);
	ex_swap(&sched_sp, t->sp);
	__sanitizer_finish_switch_fiber(fake, &sched_stack, &sched_stack_size);
#else
	ex_swap(&sched_sp, t->sp);
#endif
}

static void to_scheduler(void)
{
	struct thread_rt *t = &threads[running];
#if EX_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, sched_stack, sched_stack_size);
	ex_swap(&t->sp, sched_sp);
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
	ex_swap(&t->sp, sched_sp);
#endif
}

/* A new thread's first frame: ex_swap's ret lands here. */
static void thread_main(void)
{
	int self = running;
#if EX_ASAN
	__sanitizer_finish_switch_fiber(NULL, &sched_stack, &sched_stack_size);
#endif
	sc->threads[self].fn(self);
	threads[self].status = T_DONE;
	to_scheduler();
	abort(); /* never resumed */
}

void ex_point(const struct ex_op *op, ex_cond_fn cond, const void *arg)
{
	struct thread_rt *t = &threads[running];
	t->pending = *op;
	const void *whole = sc->object && op->obj[0] && !op->obj[1] ? sc->object(op->obj[0]) : NULL;
	if (whole && whole != op->obj[0]) {
		t->pending.obj[1] = whole;
		t->pending.kind[1] = EX_READ;
	}
	if (sc->extra)
		t->pending.obj[2] = sc->extra(&t->pending.kind[2]);
	t->cond = cond;
	t->cond_arg = arg;
	to_scheduler();
	/* The front end's work between the step's choice and its operation
	 * (an interrupt taken here): then the operation waits its turn again. */
	if (sc->resume && sc->resume())
		ex_point(op, cond, arg);
}

void ex_point1(const void *obj, int kind, ex_cond_fn cond, const void *arg)
{
	struct ex_op op = { { obj }, { (uint8_t)kind } };
	ex_point(&op, cond, arg);
}

void ex_fail(const char *fmt, ...)
{
	if (failure[0])
		return; /* the first one counts */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof(failure), fmt, ap);
	va_end(ap);
}

void ex_thread_abort(void)
{
	threads[running].status = T_DONE;
	to_scheduler();
	abort();
}

int ex_self(void) { return running; }
const char *ex_last_failure(void) { return failure; }
const char *ex_thread_name(int t) { return sc->threads[t].name; }
bool ex_thread_done(int t) { return threads[t].status == T_DONE; }

void ex_log(const char *fmt, ...)
{
	if (!ex_logging)
		return;
	char *text = steps[depth].text;
	size_t used = strlen(text);
	if (used && used < sizeof(steps[0].text) - 2) {
		strcpy(text + used, "; ");
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text + used, sizeof(steps[0].text) - used, fmt, ap);
	va_end(ap);
}

void ex_activity(const char *fmt, ...)
{
	if (!ex_logging)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(threads[running].activity, sizeof(threads[0].activity), fmt, ap);
	va_end(ap);
}

/* ---- the happens-before bookkeeping ---- */

static struct object *object_of(const void *addr)
{
	for (int i = 0; i < nobjects; i++)
		if (objects[i].addr == addr)
			return &objects[i];
	if (nobjects == EX_MAX_OBJS) {
		fprintf(stderr, "explore: more than %d shared objects\n", EX_MAX_OBJS);
		exit(2);
	}
	objects[nobjects].addr = addr;
	return &objects[nobjects++];
}

static bool conflict(int ka, int kb)
{
	return ka != EX_NONE && kb != EX_NONE && (ka == EX_WRITE || kb == EX_WRITE);
}

static bool dependent(const struct ex_op *a, const struct ex_op *b)
{
	for (int i = 0; i < EX_OBJS; i++)
		for (int j = 0; j < EX_OBJS; j++)
			if (a->obj[i] && a->obj[i] == b->obj[j] && conflict(a->kind[i], b->kind[j]))
				return true;
	return false;
}

static void join(uint16_t *c, const uint16_t *o)
{
	for (int i = 0; i < NT; i++)
		if (o[i] > c[i])
			c[i] = o[i];
}

/* Step d by thread q: its clock joins the objects' and theirs move on. */
static void record_step(int q)
{
	struct thread_rt *t = &threads[q];
	struct step *s = &steps[depth];
	s->thread = (uint8_t)q;
	s->op = t->pending;
	s->text[0] = 0;
	if (ex_logging)
		memcpy(s->act, t->activity, sizeof(s->act));
	struct object *objs[EX_OBJS] = { NULL };
	for (int i = 0; i < EX_OBJS; i++) {
		if (!s->op.obj[i] || s->op.kind[i] == EX_NONE)
			continue;
		objs[i] = object_of(s->op.obj[i]);
		join(t->clock, objs[i]->wclock);
		if (s->op.kind[i] == EX_WRITE)
			join(t->clock, objs[i]->rclock);
	}
	s->lclock = ++t->clock[q];
	for (int i = 0; i < EX_OBJS; i++) {
		struct object *o = objs[i];
		bool seen = false, write = false;
		for (int j = 0; j < EX_OBJS; j++) {
			seen |= j < i && objs[j] == o;
			write |= objs[j] == o && s->op.kind[j] == EX_WRITE;
		}
		if (!o || seen)
			continue;
		if (write) {
			memcpy(o->wclock, t->clock, sizeof(o->wclock));
			memcpy(o->rclock, t->clock, sizeof(o->rclock));
		} else {
			join(o->rclock, t->clock);
		}
		o->steps[o->nsteps++] = (uint16_t)depth;
	}
}

/* Flanagan-Godefroid's backtracking step, at the new state `depth`: for
 * every thread p, the last step racing with p's next operation. */
static void add_backtracks(void)
{
	for (int p = 0; p < sc->nthreads; p++) {
		struct thread_rt *t = &threads[p];
		if (t->status == T_DONE)
			continue;
		int last = -1;
		for (int k = 0; k < EX_OBJS; k++) {
			if (!t->pending.obj[k] || t->pending.kind[k] == EX_NONE)
				continue;
			struct object *o = object_of(t->pending.obj[k]);
			for (int j = o->nsteps - 1; j >= 0 && o->steps[j] > last; j--) {
				struct step *s = &steps[o->steps[j]];
				if (s->thread == p || !dependent(&s->op, &t->pending))
					continue;
				if (t->clock[s->thread] >= s->lclock)
					continue; /* already ordered before p */
				last = o->steps[j];
				break;
			}
		}
		if (last < 0)
			continue;
		struct node *n = &nodes[last];
		if (n->enabled & (1u << p))
			n->backtrack |= (ex_mask)(1u << p);
		else
			n->backtrack |= n->enabled;
	}
}

static ex_mask enabled_set(void)
{
	ex_mask e = 0;
	for (int p = 0; p < sc->nthreads; p++) {
		struct thread_rt *t = &threads[p];
		if (t->status != T_DONE && (!t->cond || t->cond(t->cond_arg)) &&
		    (!sc->may_run || sc->may_run(p)))
			e |= (ex_mask)(1u << p);
	}
	return e;
}

/* ---- one execution ---- */

enum outcome { END, PRUNED, FAILED };

/* The stack ex_swap() expects: six registers, then the return address
 * (thread_main), then a zero return address for thread_main, so that it
 * starts with the alignment of a called function (rsp + 8 a multiple
 * of 16). */
static void make_context(struct thread_rt *t)
{
	uintptr_t top = ((uintptr_t)t->stack + STACK_SIZE) & ~(uintptr_t)15;
	void **sp = (void **)top;
	*--sp = NULL;
	*--sp = (void *)thread_main;
	for (int i = 0; i < 6; i++)
		*--sp = NULL;
	t->sp = sp;
}

static void start_threads(void)
{
	for (int i = 0; i < nobjects; i++) { /* the same addresses every run */
		memset(objects[i].wclock, 0, sizeof(objects[i].wclock));
		memset(objects[i].rclock, 0, sizeof(objects[i].rclock));
		objects[i].nsteps = 0;
	}
	for (int p = 0; p < sc->nthreads; p++) {
		struct thread_rt *t = &threads[p];
		if (!t->stack && !(t->stack = malloc(STACK_SIZE))) {
			perror("explore: stack");
			exit(2);
		}
#if EX_ASAN
		ASAN_UNPOISON_MEMORY_REGION(t->stack, STACK_SIZE);
#endif
		make_context(t);
		t->status = T_RUNNABLE;
		memset(&t->pending, 0, sizeof(t->pending));
		t->cond = NULL;
		memset(t->clock, 0, sizeof(t->clock));
		t->activity[0] = 0;
	}
}

static int pick(ex_mask avail, int prefer)
{
	if (prefer >= 0 && (avail & (1u << prefer)))
		return prefer;
	return __builtin_ctz(avail);
}

static enum outcome run_once(uint64_t *new_steps)
{
	failure[0] = 0;
	running = -1;
	sc->reset(sc);
	start_threads();
	int last = -1;
	ex_mask next_sleep = 0;
	for (depth = 0;; depth++) {
		ex_mask e = enabled_set();
		struct node *n = &nodes[depth];
		int q;
		if (depth < stack_len) {
			q = n->chosen;
			if (!(e & (1u << q))) {
				fprintf(stderr, "explore: %s: the replay diverged at step %d\n",
					sc->name, depth + 1);
				exit(2);
			}
		} else {
			n->enabled = e;
			n->done = n->backtrack = 0;
			n->sleep = next_sleep;
			for (int p = 0; p < sc->nthreads; p++)
				n->pending[p] = threads[p].pending;
			stack_len = depth + 1;
			(*new_steps)++;
			add_backtracks();
			ex_mask avail = e & (ex_mask)~n->sleep;
			if (!avail)
				return e ? PRUNED : END;
			q = pick(avail, last);
			n->chosen = (uint8_t)q;
			n->backtrack |= (ex_mask)(1u << q);
			n->done |= (ex_mask)(1u << q);
		}
		if (depth >= EX_MAX_STEPS) {
			ex_fail("no end after %d steps: a livelock", EX_MAX_STEPS);
			return FAILED;
		}
		/* The sleep set of the next state: what slept or was explored
		 * here, and is independent of q's step. */
		next_sleep = 0;
		ex_mask carry = (ex_mask)((n->sleep | n->done) & ~(1u << q));
		for (int r = 0; r < sc->nthreads; r++)
			if ((carry & (1u << r)) && !dependent(&n->pending[r], &threads[q].pending))
				next_sleep |= (ex_mask)(1u << r);
		record_step(q);
		last = q;
		running = q;
		struct thread_rt *t = &threads[q];
		switch_to(t);
		running = -1;
		if (!failure[0]) {
			const char *why = sc->check_step ? sc->check_step() : NULL;
			if (why)
				ex_fail("%s", why);
		}
		if (failure[0]) {
			depth++;
			return FAILED;
		}
	}
}

/* The deepest state with a thread still to try: take it. */
static bool next_schedule(void)
{
	for (int d = stack_len - 1; d >= 0; d--) {
		struct node *n = &nodes[d];
		ex_mask todo = n->backtrack & n->enabled & (ex_mask)~(n->done | n->sleep);
		if (todo) {
			n->chosen = (uint8_t)__builtin_ctz(todo);
			n->done |= (ex_mask)(1u << n->chosen);
			stack_len = d + 1;
			return true;
		}
	}
	return false;
}

/* Replay the failing schedule, describing each step. */
static void print_schedule(int len, const char *end_failure)
{
	uint64_t ignored = 0;
	stack_len = len;
	ex_logging = true;
	enum outcome o = run_once(&ignored);
	ex_logging = false;
	int prev = -1, preemptions = 0;
	printf("  schedule (%d steps):\n", depth);
	for (int d = 0; d < depth; d++) {
		int q = steps[d].thread;
		if (prev >= 0 && q != prev && (nodes[d].enabled & (1u << prev)))
			preemptions++;
		prev = q;
		if (!steps[d].text[0])
			strcpy(steps[d].text, steps[d].lclock == 1 ? "starts" : "(no shared access)");
		printf("  %4d. %s %s%s%s\n", d + 1, sc->threads[q].name, steps[d].act,
		       steps[d].act[0] ? ": " : "", steps[d].text);
	}
	printf("  (%d preemption%s)\n", preemptions, preemptions == 1 ? "" : "s");
	const char *word = sc->found ? "REACHED" : "FAILED";
	if (o == END && end_failure)
		printf("  %s: %s\n", word, end_failure);
	else
		printf("  %s: %s\n", word, failure[0] ? failure : "(the replay did not fail)");
}

struct ex_stats ex_explore(const struct ex_scenario *scenario, uint64_t max_executions)
{
	struct ex_stats st = { 0 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sc = scenario;
	stack_len = 0;
	for (;;) {
		enum outcome o = run_once(&st.steps);
		if ((uint64_t)depth > st.max_depth)
			st.max_depth = (uint64_t)depth;
		const char *why = NULL;
		if (o == END) {
			st.executions++;
			why = sc->check_end ? sc->check_end() : NULL;
			if (why) {
				static char saved[512];
				snprintf(saved, sizeof(saved), "%s", why);
				why = saved;
				ex_fail("%s", why);
			}
		} else if (o == PRUNED) {
			st.pruned++;
		}
		if (o == FAILED || why) {
			st.failed = true;
			printf("%s in %s after %llu interleavings: %s\n",
			       sc->found ? sc->found : "VIOLATION", sc->name,
			       (unsigned long long)st.executions, o == FAILED ? failure : why);
			print_schedule(depth, why);
			if (why)
				ex_fail("%s", why); /* the replay cleared it */
			break;
		}
		if (max_executions && st.executions + st.pruned >= max_executions) {
			st.failed = true;
			printf("INCOMPLETE %s: stopped after %llu interleavings\n", sc->name,
			       (unsigned long long)(st.executions + st.pruned));
			break;
		}
		if (!next_schedule())
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return st;
}
