/* The torture's workers: what every CPU does at random (tests/torture/torture.h
 * says what and why; tests/torture/torture_run.c starts, watches and stops
 * them). */
#include "tests/torture/torture_internal.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"

struct torture_state tstate;

/* ---- the token ring: cross-CPU wake-ups */

static bool may_take(const struct tworker *w)
{
	return !READ_ONCE(w->shunned);
}

/* A random worker on another CPU (on one CPU: another worker), never a
 * shunned one (the lost-wake-up injection's victim). */
static struct tworker *pick_target(struct tworker *w)
{
	for (;;) {
		struct tworker *to = &tstate.w[prandom_below(&w->rng, tstate.nworkers)];
		if (to == w || !may_take(to))
			continue;
		if (tstate.ncpus > 1 && to->cpu == w->cpu)
			continue;
		return to;
	}
}

/* inject=lost: give `to` a token WITHOUT the wake-up it needs. Only done
 * to a worker that is asleep and off its run queue, so that the token is
 * one it will never see by itself; other workers stop passing to it
 * first. Returns true if this hand-off was the lost one. */
static bool inject_lost(struct tworker *to)
{
	int one = 1;
	if (!__atomic_compare_exchange_n(&tstate.inject_pending, &one, 0, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return false;
	WRITE_ONCE(to->shunned, 1);
	struct thread *t = to->th;
	if (READ_ONCE(t->state) != THREAD_SLEEPING || READ_ONCE(t->on_rq) ||
	    READ_ONCE(to->tokens)) {
		WRITE_ONCE(to->shunned, 0); /* not asleep: try another time */
		__atomic_store_n(&tstate.inject_pending, 1, __ATOMIC_SEQ_CST);
		return false;
	}
	__atomic_fetch_add(&to->tokens, 1, __ATOMIC_SEQ_CST);
	return true;
}

static void pass_token(struct tworker *w)
{
	struct tworker *to = pick_target(w);
	if (tstate.inject == TORTURE_INJECT_LOST && inject_lost(to))
		return;
	__atomic_fetch_add(&to->tokens, 1, __ATOMIC_SEQ_CST);
	if (wake_up_one(&to->wq)) {
		if (to->cpu != w->cpu)
			w->wakeups++;
		else
			w->local_wakeups++;
	}
}

/* ---- nests: preempt_disable, local_irq_save and spinlocks, at random */

enum nest_kind { N_PREEMPT, N_IRQ, N_LOCK, N_LOCK_IRQ, NR_NEST_KINDS };
#define NEST_MAX 6

/* Spin a little (a few hundred instructions) with a `pause`, so that
 * under icount QEMU moves on to the next vCPU now and then. */
static __noinline void work(struct tworker *w)
{
	for (volatile u32 i = prandom_below(&w->rng, 64); i; i--)
		;
	cpu_relax();
}

/* The count and the interrupt flag must be back at their base: 0 and on.
 * A leak is said and repaired, so the run goes on and counts them all. */
static void check_base(struct tworker *w, u32 depth)
{
	u32 c = preempt_count();
	bool irqs_off = irqs_disabled();
	w->count_checks++;
	if (likely(c == 0 && !irqs_off))
		return;
	w->leaks++;
	torture_print("torture: count leak: %s on CPU %u: count 0x%x (base 0), IRQs %s, after a "
		       "nest of depth %u\n", w->name, w->cpu, c, irqs_off ? "off" : "on", depth);
	preempt_count_sub(c);
	if (irqs_off)
		local_irq_enable();
}

/* inject=leak: leave one more level than was entered (preemption off, or
 * IRQs off without a count). */
static void inject_leak(void)
{
	int one = 1;
	if (!__atomic_compare_exchange_n(&tstate.inject_pending, &one, 0, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	if (PREEMPT_HAS_COUNT)
		preempt_disable();
	else
		local_irq_disable();
}

/* A nest of random depth. Locks are taken in index order (no ABBA), and
 * only with IRQs off: fold's stop_machine() parks each CPU from an IPI,
 * not from a stopper thread as Linux's does, so a CPU parked while it
 * held a lock with IRQs on would leave a CPU spinning for that lock with
 * IRQs off unable to park, and the mode switch would wait for ever. With
 * pass set, the token goes to its next worker from the innermost level:
 * a wake-up from atomic context. */
static void nest(struct tworker *w, bool pass)
{
	u8 kind[NEST_MAX];
	u8 lock[NEST_MAX];
	u64 flags[NEST_MAX];
	u32 depth = 1 + prandom_below(&w->rng, NEST_MAX);
	u32 next_lock = 0;
	bool irqs_off = false;
	for (u32 i = 0; i < depth; i++) {
		u32 k = prandom_below(&w->rng, NR_NEST_KINDS);
		if (k >= N_LOCK && next_lock >= TORTURE_NLOCKS)
			k = prandom_below(&w->rng, N_LOCK);
		if (k == N_LOCK && !irqs_off)
			k = N_LOCK_IRQ;
		kind[i] = (u8)k;
		if (k >= N_LOCK) {
			lock[i] = (u8)(next_lock + prandom_below(&w->rng, TORTURE_NLOCKS - next_lock));
			next_lock = lock[i] + 1u;
		}
		switch (k) {
		case N_PREEMPT:
			preempt_disable();
			break;
		case N_IRQ:
			flags[i] = local_irq_save();
			irqs_off = true;
			break;
		case N_LOCK:
			raw_spin_lock(&tstate.locks[lock[i]]);
			break;
		default:
			flags[i] = raw_spin_lock_irqsave(&tstate.locks[lock[i]]);
			irqs_off = true;
			break;
		}
		work(w);
	}
	if (pass)
		pass_token(w);
	for (u32 i = depth; i-- > 0;) {
		switch (kind[i]) {
		case N_PREEMPT:
			preempt_enable();
			break;
		case N_IRQ:
			local_irq_restore(flags[i]);
			break;
		case N_LOCK:
			raw_spin_unlock(&tstate.locks[lock[i]]);
			break;
		default:
			raw_spin_unlock_irqrestore(&tstate.locks[lock[i]], flags[i]);
			break;
		}
	}
	if (tstate.inject == TORTURE_INJECT_LEAK)
		inject_leak();
	w->nests++;
	if (depth > w->depth_max)
		w->depth_max = depth;
	check_base(w, depth);
}

/* ---- the other random things */

static void ipi_fn(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&tstate.ipis_ran, 1, __ATOMIC_RELAXED);
}

static void random_ipi(struct tworker *w)
{
	if (tstate.ncpus < 2)
		return;
	u32 cpu = prandom_below(&w->rng, tstate.ncpus - 1);
	if (cpu >= w->cpu)
		cpu++;
	bool wait = prandom_below(&w->rng, 2);
	if (smp_call_function_single(cpu, ipi_fn, NULL, wait) == 0)
		w->ipis++;
}

static void mutex_handoff(struct tworker *w)
{
	struct tmutex *m = &tstate.mutexes[prandom_below(&w->rng, TORTURE_NMUTEXES)];
	mutex_lock(&m->m);
	if (m->last && m->last != w)
		w->handoffs++;
	m->last = w;
	if (prandom_below(&w->rng, 4) == 0)
		sleep_ns(1 + prandom_below(&w->rng, 20) * NSEC_PER_USEC);
	else if (prandom_below(&w->rng, 2))
		yield();
	mutex_unlock(&m->m);
}

/* One or two rt_mutexes (in index order), taken at a random priority,
 * FIFO 1 to 3 or normal: their owners are boosted and unboosted all
 * through the run, and torture_run() checks the PI invariant meanwhile. */
static void rt_mutex_section(struct tworker *w)
{
	struct thread *me = current_thread();
	int prio = (int)prandom_below(&w->rng, 4); /* 0: stays normal */
	u32 a = prandom_below(&w->rng, TORTURE_NMUTEXES);
	u32 b = prandom_below(&w->rng, TORTURE_NMUTEXES);
	if (prio)
		sched_setscheduler(me, prio);
	rt_mutex_lock(&tstate.rtmutexes[MIN(a, b)]);
	if (a != b)
		rt_mutex_lock(&tstate.rtmutexes[MAX(a, b)]);
	if (prandom_below(&w->rng, 4) == 0)
		sleep_ns(1 + prandom_below(&w->rng, 20) * NSEC_PER_USEC);
	w->pi_sections++;
	if (a != b)
		rt_mutex_unlock(&tstate.rtmutexes[MAX(a, b)]);
	rt_mutex_unlock(&tstate.rtmutexes[MIN(a, b)]);
	if (prio)
		sched_setscheduler(me, PRIO_NORMAL);
}

static void random_action(struct tworker *w)
{
	switch (prandom_below(&w->rng, 8)) {
	case 0:
	case 1:
		nest(w, false);
		break;
	case 2:
		w->sleeps++;
		sleep_ns(1 + prandom_below(&w->rng, 50) * NSEC_PER_USEC);
		break;
	case 3:
		if (prandom_below(&w->rng, 2))
			mutex_handoff(w);
		else
			rt_mutex_section(w);
		break;
	case 4:
		random_ipi(w);
		break;
	case 5:
		cond_resched();
		break;
	case 6:
		might_resched();
		break;
	default:
		yield();
		break;
	}
	WRITE_ONCE(w->progress, w->progress + 1);
}

/* A worker: sleep until a token comes, take it, do up to three random
 * things, pass it on (a quarter of the time from inside a nest). */
void torture_worker(void *arg)
{
	struct tworker *w = arg;
	for (;;) {
		WRITE_ONCE(w->busy, 0);
		WRITE_ONCE(w->progress, w->progress + 1);
		wait_event(&w->wq, READ_ONCE(w->tokens) > 0 || READ_ONCE(tstate.stop));
		if (READ_ONCE(tstate.stop))
			break;
		WRITE_ONCE(w->busy, 1);
		__atomic_fetch_sub(&w->tokens, 1, __ATOMIC_SEQ_CST);
		if (READ_ONCE(w->shunned)) {
			/* The injected loss was not one after all (a hand-off
			 * already on its way woke this worker): again. */
			WRITE_ONCE(w->shunned, 0);
			__atomic_store_n(&tstate.inject_pending, 1, __ATOMIC_SEQ_CST);
		}
		for (u32 n = prandom_below(&w->rng, 4); n; n--)
			random_action(w);
		if (prandom_below(&w->rng, 4) == 0)
			nest(w, true);
		else
			pass_token(w);
	}
}
