/* Wake-ups and the work that moves threads between run queues: which
 * CPU a woken thread goes to, whether it preempts what runs there, the
 * tick's round-robin, idle pulling, and each CPU's run queue at boot. */
#include "sched/rq.h"
#include "sched/migrate.h"
#include "kernel/entry/common.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "mm/mm.h"
#include "arch/x86_64/cpu.h"
#include "kernel/trace/trace.h"

bool sched_running;

u32 rq_nr_running(u32 cpu)
{
	struct rq *rq = &rqs[cpu];
	return READ_ONCE(rq->nr_queued) + (READ_ONCE(rq->curr) != rq->idle);
}

static u32 select_cpu(struct thread *t)
{
	u64 allowed = t->allowed_cpus & cpu_online_mask();
	u32 prev = (u32)t->cpu;
	/* In a migrate_disable() section (PREEMPT_RT): where it slept. */
	if (is_migration_disabled(t))
		return prev;
	if (!allowed)
		return prev;
	/* One CPU to choose from (pinned, or one online): that one, without
	 * looking at any run queue, as Linux's select_task_rq() calls the
	 * class's selection only when p->nr_cpus_allowed > 1. */
	if (!(allowed & (allowed - 1)))
		return (u32)__builtin_ctzl(allowed);
	if ((allowed & (1UL << prev)) && rq_nr_running(prev) == 0)
		return prev;
	for_each_online_cpu(c)
		if ((allowed & (1UL << c)) && rq_nr_running(c) == 0)
			return c;
	if (allowed & (1UL << prev))
		return prev;
	return (u32)__builtin_ctzl(allowed);
}

/* Linux's wakeup_preempt(): does the woken thread t preempt what runs on
 * cpu? The idle thread, always; a lower class or priority (a FIFO thread
 * woken where a normal one runs, or a higher FIFO), at once, with a full
 * request: real-time wake-ups keep full semantics in lazy mode. A normal
 * thread woken where a normal thread runs preempts it too (CFS/EEVDF's
 * wake-up preemption, simplified: the sleeper is owed CPU time), but
 * through resched_curr_lazy(): in lazy mode at the next tick. */
static void check_preempt(struct rq *rq, struct thread *t, u32 cpu)
{
	struct thread *curr = rq->curr;
	if (curr == rq->idle || t->prio > curr->prio)
		resched_curr(cpu);
	else if (t->prio == PRIO_NORMAL && curr->prio == PRIO_NORMAL)
		resched_curr_lazy(cpu);
}

/* Give woken t, RUNNING and on no list, to the run queue `to`: t->cpu
 * changes with both run queues locked, so that whoever locks t's run
 * queue by t->cpu (rt_mutex_setprio()'s lock_task_rq()) finds t either
 * still on `from`, not queued, or on `to`. Linux holds p->pi_lock across
 * set_task_cpu() for the same reason. Locks in CPU order, as idle
 * pulling does: taking the lower one drops `from` for a moment, when
 * nothing can queue or move t (its state is RUNNING, so no other waker
 * acts, and it is on no list to pull). Returns `to`, locked; `from` is
 * unlocked. */
static struct rq *move_woken(struct thread *t, struct rq *from, struct rq *to)
{
	if (to > from) {
		raw_spin_lock(&to->lock);
	} else {
		raw_spin_unlock(&from->lock);
		raw_spin_lock(&to->lock);
		raw_spin_lock(&from->lock);
	}
	t->cpu = (int)(to - rqs);
	raw_spin_unlock(&from->lock);
	return to;
}

/* Wake t if it is in `state` (Linux's try_to_wake_up()). A thread asleep
 * on a spinlock_t (THREAD_RTLOCK_WAIT, PREEMPT_RT only) keeps that sleep:
 * a wake-up for the state it saved turns the saved state RUNNING instead,
 * so that the wait it was preparing ends once it has the lock. Inline in
 * its two callers, each with its state a constant: outside PREEMPT_RT,
 * wake_up_thread() is the code it was before RT. */
static __always_inline bool try_to_wake_up(struct thread *t, int state)
{
	u64 f = local_irq_save();
	for (;;) {
		u32 cpu = (u32)READ_ONCE(t->cpu);
		struct rq *rq = &rqs[cpu];
		raw_spin_lock(&rq->lock);
		if ((u32)t->cpu != cpu) { /* moved while we took the lock */
			raw_spin_unlock(&rq->lock);
			continue;
		}
		if (t->state != state) {
			/* A wake-up for the state an rtlock wait saved goes to
			 * the saved state, whatever the state is now: it is
			 * RUNNING from wake_up_rtlock() until the lock is taken
			 * and current_restore_rtlock_saved_state() puts the
			 * saved state back (Linux's ttwu_state_match()). */
			bool woken = PREEMPT_RT && state != THREAD_RTLOCK_WAIT &&
				     t->saved_state == state;
			if (woken)
				t->saved_state = THREAD_RUNNING;
			raw_spin_unlock(&rq->lock);
			local_irq_restore(f);
			return woken;
		}
		__atomic_store_n(&t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
		if (t->on_rq) {
			/* Still on its CPU, on the way to schedule(): seeing
			 * RUNNING there, it will simply stay. */
			raw_spin_unlock(&rq->lock);
			local_irq_restore(f);
			return true;
		}
		/* Off the run queue and, under this lock, off its CPU. */
		u32 target = select_cpu(t);
		if (target != cpu)
			rq = move_woken(t, rq, &rqs[target]);
		enqueue(rq, t, false);
		trace_event(sched_wakeup, t, target);
		check_preempt(rq, t, target);
		raw_spin_unlock(&rq->lock);
		local_irq_restore(f);
		return true;
	}
}

bool wake_up_thread(struct thread *t)
{
	return try_to_wake_up(t, THREAD_SLEEPING);
}

bool wake_up_rtlock(struct thread *t)
{
#if PREEMPT_RT
	return try_to_wake_up(t, THREAD_RTLOCK_WAIT);
#else
	(void)t;
	return false; /* no thread sleeps on a spinlock_t: one patch site less */
#endif
}

#if PREEMPT_RT /* kernel/locking/spinlock_rt.c's, compiled on RT alone */
/* The current thread's state changes under its run-queue lock, as a
 * waker's test does. */
static void set_current_state_locked(int state, bool save)
{
	struct thread *me = current_thread();
	u64 f = local_irq_save();
	struct rq *rq = &rqs[raw_smp_processor_id()];
	raw_spin_lock(&rq->lock);
	if (save) {
		me->saved_state = me->state;
		__atomic_store_n(&me->state, state, __ATOMIC_SEQ_CST);
	} else {
		__atomic_store_n(&me->state, me->saved_state, __ATOMIC_SEQ_CST);
		me->saved_state = THREAD_RUNNING;
	}
	raw_spin_unlock(&rq->lock);
	local_irq_restore(f);
}

void current_save_and_set_rtlock_wait_state(void)
{
	set_current_state_locked(THREAD_RTLOCK_WAIT, true);
}

void current_restore_rtlock_saved_state(void)
{
	set_current_state_locked(THREAD_RUNNING, false);
}
#endif

/* From the tick, in hardirq context: the round-robin time slice. */
void scheduler_tick(void)
{
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = &rqs[cpu];
	if (!sched_running)
		return;
	raw_spin_lock(&rq->lock);
	struct thread *curr = rq->curr;
	/* Tick-based CPU time, as Linux without VIRT_CPU_ACCOUNTING: the
	 * whole tick goes to the mode the tick interrupted. */
	struct pt_regs *regs = this_cpu_read(irq_regs);
	if (curr != rq->idle) {
		if (regs && user_mode(regs))
			curr->utime++;
		else
			curr->stime++;
	}
	/* Linux's sched_tick(): a lazy request still pending from before
	 * this tick becomes a full one (flag, fold), so the IRQ exit on the
	 * way out preempts: a normal thread is preempted at most a tick
	 * late. Done before the slice below, whose own (lazy) request thus
	 * waits for the next tick, as Linux's task_tick does. Not tested
	 * against the mode: only lazy mode sets the flag, and one left from
	 * before a switch to another mode is served the same way. */
	/* LAB(L4) BEGIN: a lazy request pending on curr becomes a full one
	 * (resched_curr(): flag and fold); count it in lazy_promoted unless
	 * a full one was pending already. */
	u64 flags = READ_ONCE(curr->flags);
	if (flags & _TIF_NEED_RESCHED_LAZY) {
		if (!(flags & _TIF_NEED_RESCHED))
			this_cpu_stat_inc(lazy_promoted);
		resched_curr(cpu);
	}
	/* LAB(L4) END */
	/* The slice: spent by each tick in which curr ran as a normal thread
	 * (a flip to FIFO and back in between counts), refilled only when it
	 * is switched in (switch_prepare()), never by a change of policy.
	 * Spent, it asks again at every tick while curr is normal and another
	 * thread waits: a request served while curr was FIFO left it running
	 * (and rt_mutex_setprio() asks when it drops back to normal). */
	if (curr != rq->idle && (tick_bands(curr) & RAN_NORMAL) && curr->slice > 0)
		curr->slice--;
	if (curr != rq->idle && curr->prio == PRIO_NORMAL && curr->slice <= 0 &&
	    rq_first_queued(rq))
		resched_curr_lazy(cpu);
	rt_tick(rq, curr, cpu);
	raw_spin_unlock(&rq->lock);
}

/* May an idle cpu take queued thread t? If t may run there and is not in
 * a migrate_disable() section. */
static bool may_pull(const struct thread *t, u32 cpu)
{
	return (t->allowed_cpus & (1UL << cpu)) && !is_migration_disabled(t);
}

/* An idle CPU takes a queued thread from a busy one. Locks in CPU order.
 * A run queue whose queued threads are all pinned to it is not locked:
 * pairs pinned to their CPUs never find their run queue held by an idle
 * CPU that could take nothing from it. The hint, migratory_queued, is
 * set by enqueue() and cleared here, under the lock, by a look that
 * finds no queued thread allowed elsewhere: a flag costs enqueue() one
 * instruction where a count would cost enqueue() and dequeue() a test
 * each, on every switch. */
void sched_pull_work(void)
{
	u32 self = raw_smp_processor_id();
	for_each_online_cpu(c) {
		if (c == self || !READ_ONCE(rqs[c].migratory_queued))
			continue;
		/* Where c's idle thread runs, c runs its queued threads itself:
		 * whoever queued them there asked c to reschedule. Taking one
		 * would let two idle CPUs pass a thread back and forth, each
		 * taking it before the other's schedule() runs it. */
		if (READ_ONCE(rqs[c].curr) == rqs[c].idle)
			continue;
		struct rq *a = &rqs[MIN(c, self)], *b = &rqs[MAX(c, self)];
		u64 f = local_irq_save();
		raw_spin_lock(&a->lock);
		raw_spin_lock(&b->lock);
		struct thread *it, *found = NULL;
		u32 migratory = 0;
		list_for_each_entry(it, &rqs[c].fifo, rq_node) {
			migratory += it->migratory;
			if (!found && may_pull(it, self))
				found = it;
		}
		list_for_each_entry(it, &rqs[c].normal, rq_node) {
			migratory += it->migratory;
			if (!found && may_pull(it, self))
				found = it;
		}
		/* found leaves below: the others decide */
		rqs[c].migratory_queued = migratory > (found ? found->migratory : 0);
		if (found) {
			dequeue(&rqs[c], found);
			found->cpu = (int)self;
			enqueue(&rqs[self], found, false);
			resched_curr(self);
		}
		raw_spin_unlock(&b->lock);
		raw_spin_unlock(&a->lock);
		local_irq_restore(f);
		if (found)
			return;
	}
}

void sched_prepare_cpu(u32 cpu)
{
	struct rq *rq = &rqs[cpu];
	char name[THREAD_NAME_LEN] = "idle/";
	name[5] = (char)('0' + cpu / 10 % 10);
	name[6] = (char)('0' + cpu % 10);
	name[7] = 0;
	raw_spin_lock_init(&rq->lock, "rq");
	per_cpu(rq, cpu) = rq; /* this_rq() */
	INIT_LIST_HEAD(&rq->fifo);
	INIT_LIST_HEAD(&rq->normal);
	rq->idle = thread_alloc(name, -1, 1UL << cpu);
	if (!rq->idle) /* boot only: no user input reaches here */
		panic("sched: no memory for %s at boot", name);
	rq->idle->cpu = (int)cpu;
	rq->idle->on_rq = 1;
	rq->idle->state = THREAD_RUNNING;
	rq->curr = rq->idle;
	per_cpu(idle, cpu) = rq->idle;
	per_cpu(rq, cpu) = rq;
}

void sched_init_ap(u32 cpu)
{
	struct thread *idle = rqs[cpu].idle;
	idle->on_cpu = 1;
	idle->saved_preempt_count = PREEMPT_ENABLED + PREEMPT_DISABLE_OFFSET;
	this_cpu_write(current, idle);
}

static void idle_entry(void *arg)
{
	(void)arg;
	cpu_idle();
}

/* Boot CPU: run queue 0, the boot thread as its current thread, and an
 * idle thread with a stack of its own. */
void sched_init(void)
{
	sched_prepare_cpu(0);
	struct rq *rq = &rqs[0];
	thread_setup_stack(rq->idle, stack_alloc_boot("idle/0"));
	rq->idle->fn = idle_entry;
	rq->idle->on_cpu = 0;
	boot_thread.cpu = 0;
	boot_thread.on_rq = 1;
	boot_thread.on_cpu = 1;
	boot_thread.allowed_cpus = 1;
	boot_thread.slice = SCHED_SLICE_TICKS;
	rq->curr = &boot_thread;
	sched_running = true;
}
