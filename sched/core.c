/* The scheduler core: per-CPU run queues, __schedule() and the context
 * switch around it, wake-ups, the tick's round-robin, and idle pulling.
 *
 * The count at a context switch is SWITCH_PREEMPT_COUNT in every thread:
 * schedule()'s own preempt_disable() plus the run-queue lock. That is why
 * the folded and percpu models can keep the count per CPU: the value is
 * the same on both sides of every switch (asserted below). The percpu
 * model still saves and restores it, as the seed patch did. */
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "kernel/preempt.h"
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/mm.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

struct rq {
	struct spinlock lock;
	struct list_head fifo;     /* prio 1..99, highest first, FIFO within */
	struct list_head normal;   /* prio 0, round-robin */
	u32 nr_queued;             /* in the two lists (curr is not) */
	struct thread *curr;
	struct thread *idle;
};

static struct rq rqs[MAX_CPUS];
bool sched_running;

struct thread *switch_to(struct thread *prev, struct thread *next);
struct thread *thread_alloc(const char *name, int prio, u64 allowed);
void thread_setup_stack(struct thread *t, u64 top);

u32 rq_nr_running(u32 cpu)
{
	struct rq *rq = &rqs[cpu];
	return READ_ONCE(rq->nr_queued) + (READ_ONCE(rq->curr) != rq->idle);
}

struct thread *rq_curr(u32 cpu)
{
	return READ_ONCE(rqs[cpu].curr);
}

static void enqueue(struct rq *rq, struct thread *t, bool head)
{
	if (t->prio > 0) {
		struct list_head *pos = &rq->fifo;
		struct thread *it;
		list_for_each_entry(it, &rq->fifo, rq_node) {
			if (head ? it->prio <= t->prio : it->prio < t->prio) {
				pos = &it->rq_node;
				break;
			}
		}
		list_add_tail(&t->rq_node, pos);
	} else if (head) {
		list_add(&t->rq_node, &rq->normal);
	} else {
		list_add_tail(&t->rq_node, &rq->normal);
	}
	rq->nr_queued++;
	t->on_rq = 1;
}

static void dequeue(struct rq *rq, struct thread *t)
{
	list_del_init(&t->rq_node);
	rq->nr_queued--;
}

static struct thread *pick_next(struct rq *rq)
{
	struct thread *t;
	if (!list_empty(&rq->fifo))
		t = list_first_entry(&rq->fifo, struct thread, rq_node);
	else if (!list_empty(&rq->normal))
		t = list_first_entry(&rq->normal, struct thread, rq_node);
	else
		return rq->idle;
	dequeue(rq, t);
	return t;
}

static void check_switch_count(const char *when)
{
	if (unlikely(preempt_count() != SWITCH_PREEMPT_COUNT))
		panic("BUG: preempt count 0x%x %s a context switch, expected %u",
		      preempt_count(), when, SWITCH_PREEMPT_COUNT);
}

/* The second half of a switch, run by the thread switched TO (or by a new
 * thread in thread_start): release the run-queue lock that the previous
 * thread took on this CPU, and fold its own need-resched state. */
void finish_switch(struct thread *prev)
{
	struct rq *rq = &rqs[raw_smp_processor_id()];
	check_switch_count("after");
	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	raw_spin_unlock(&rq->lock);
	preempt_count_sub(PREEMPT_DISABLE_OFFSET);
	if (tif_need_resched())
		set_preempt_need_resched();
	local_irq_enable();
}

void __schedule(int mode)
{
	struct thread *prev = current_thread();
	struct rq *rq = &rqs[raw_smp_processor_id()];

	local_irq_disable();
	spin_lock(&rq->lock);
	check_switch_count("before");

	__atomic_fetch_and(&prev->flags, ~_TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	clear_preempt_need_resched();

	if (mode != SM_PREEMPT && READ_ONCE(prev->state) != THREAD_RUNNING)
		prev->on_rq = 0; /* blocks: off the run queue */
	else if (prev != rq->idle)
		enqueue(rq, prev, mode == SM_PREEMPT && prev->prio > 0);

	struct thread *next = pick_next(rq);
	if (next == prev) {
		raw_spin_unlock(&rq->lock);
		preempt_count_sub(PREEMPT_DISABLE_OFFSET);
		local_irq_enable();
		return;
	}
	rq->curr = next;
	next->cpu = (int)raw_smp_processor_id();
	next->on_cpu = 1;
	if (next != rq->idle && next->prio == PRIO_NORMAL && next->slice <= 0)
		next->slice = SCHED_SLICE_TICKS;
	prev->nr_switches++;
	this_cpu_stat_inc(context_switches);
#if COUNT_MODEL_PERCPU
	prev->saved_preempt_count = preempt_count_raw();
	preempt_count_set(next->saved_preempt_count);
#endif
	this_cpu_write(current, next);
	prev = switch_to(prev, next);
	finish_switch(prev);
}

/* Debug check: schedule() from atomic context (Linux's "scheduling while
 * atomic"). Report, then switch with the count the switch needs and give
 * the caller its count back afterwards. */
void schedule(void)
{
	u32 excess = 0;
	if (unlikely(preempt_count() != 0 || irqs_disabled())) {
		report_bug("scheduling while atomic: %s, IRQs %s",
			   preempt_count() ? "preempt count nonzero" : "count ok",
			   irqs_disabled() ? "off" : "on");
		excess = preempt_count();
		preempt_count_sub(excess);
		local_irq_enable();
	}
	do {
		preempt_disable();
		__schedule(SM_NONE);
		preempt_enable_no_resched();
	} while (need_resched());
	preempt_count_add(excess);
}

void yield(void)
{
	schedule();
}

static u32 select_cpu(struct thread *t)
{
	u64 allowed = t->allowed_cpus & cpu_online_mask();
	u32 prev = (u32)t->cpu;
	if (!allowed)
		return prev;
	if ((allowed & (1UL << prev)) && rq_nr_running(prev) == 0)
		return prev;
	for_each_online_cpu(c)
		if ((allowed & (1UL << c)) && rq_nr_running(c) == 0)
			return c;
	if (allowed & (1UL << prev))
		return prev;
	return (u32)__builtin_ctzl(allowed);
}

static void check_preempt(struct rq *rq, struct thread *t, u32 cpu)
{
	struct thread *curr = rq->curr;
	if (curr == rq->idle || t->prio > curr->prio)
		resched_curr(cpu);
}

bool wake_up_thread(struct thread *t)
{
	u64 f = local_irq_save();
	for (;;) {
		u32 cpu = (u32)READ_ONCE(t->cpu);
		struct rq *rq = &rqs[cpu];
		spin_lock(&rq->lock);
		if ((u32)t->cpu != cpu) { /* moved while we took the lock */
			spin_unlock(&rq->lock);
			continue;
		}
		if (t->state != THREAD_SLEEPING) {
			spin_unlock(&rq->lock);
			local_irq_restore(f);
			return false;
		}
		__atomic_store_n(&t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
		if (t->on_rq) {
			/* Still on its CPU, on the way to schedule(): seeing
			 * RUNNING there, it will simply stay. */
			spin_unlock(&rq->lock);
			local_irq_restore(f);
			return true;
		}
		/* Off the run queue and, under this lock, off its CPU. */
		u32 target = select_cpu(t);
		if (target != cpu) {
			spin_unlock(&rq->lock);
			rq = &rqs[target];
			spin_lock(&rq->lock);
		}
		t->cpu = (int)target;
		enqueue(rq, t, false);
		check_preempt(rq, t, target);
		spin_unlock(&rq->lock);
		local_irq_restore(f);
		return true;
	}
}

/* From the tick, in hardirq context: the round-robin time slice. */
void scheduler_tick(void)
{
	u32 cpu = raw_smp_processor_id();
	struct rq *rq = &rqs[cpu];
	if (!sched_running)
		return;
	spin_lock(&rq->lock);
	struct thread *curr = rq->curr;
	if (curr != rq->idle && curr->prio == PRIO_NORMAL && --curr->slice <= 0) {
		curr->slice = SCHED_SLICE_TICKS;
		if (!list_empty(&rq->normal) || !list_empty(&rq->fifo))
			resched_curr(cpu);
	}
	spin_unlock(&rq->lock);
}

/* An idle CPU takes a queued thread from a busy one. Locks in CPU order. */
void sched_pull_work(void)
{
	u32 self = raw_smp_processor_id();
	for_each_online_cpu(c) {
		if (c == self || READ_ONCE(rqs[c].nr_queued) == 0)
			continue;
		struct rq *a = &rqs[MIN(c, self)], *b = &rqs[MAX(c, self)];
		u64 f = local_irq_save();
		spin_lock(&a->lock);
		spin_lock(&b->lock);
		struct thread *it, *found = NULL;
		list_for_each_entry(it, &rqs[c].fifo, rq_node)
			if (!found && (it->allowed_cpus & (1UL << self)))
				found = it;
		list_for_each_entry(it, &rqs[c].normal, rq_node)
			if (!found && (it->allowed_cpus & (1UL << self)))
				found = it;
		if (found) {
			dequeue(&rqs[c], found);
			found->cpu = (int)self;
			enqueue(&rqs[self], found, false);
			resched_curr(self);
		}
		spin_unlock(&b->lock);
		spin_unlock(&a->lock);
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
	spin_lock_init(&rq->lock, "rq");
	INIT_LIST_HEAD(&rq->fifo);
	INIT_LIST_HEAD(&rq->normal);
	rq->idle = thread_alloc(name, -1, 1UL << cpu);
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
	thread_setup_stack(rq->idle, stack_alloc());
	rq->idle->fn = idle_entry;
	rq->idle->on_cpu = 0;
	boot_thread.cpu = 0;
	boot_thread.on_rq = 1;
	boot_thread.on_cpu = 1;
	boot_thread.allowed_cpus = 1;
	boot_thread.slice = SCHED_SLICE_TICKS;
	rq->curr = &boot_thread;
	resched_init();
	sched_running = true;
}
