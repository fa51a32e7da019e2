/* Kernel threads: create (function, argument, name, priority, CPU
 * affinity), exit, join. */
#include "sched/sched.h"
#include "sched/wait.h"
#include "sched/rq.h"
#include "sched/migrate.h"
#include "arch/x86_64/entry/switch.h"
#include "kernel/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "mm/mm.h"
#include "lib/string.h"
#include "arch/x86_64/regs.h"

/* tif_need_resched() in kernel/preempt.h reads the flags at offset 0. */
_Static_assert(offsetof(struct thread, flags) == 0, "thread.flags must come first");
/* The CPU keeps RSP 16-byte aligned under the frame (SDM Vol. 3A 7.14.2). */
_Static_assert(sizeof(struct pt_regs) % 16 == 0, "pt_regs must keep the stack aligned");

struct thread boot_thread = {
	.name = "main",
	.state = THREAD_RUNNING,
	.prio = PRIO_NORMAL,
	.all_node = LIST_HEAD_INIT(boot_thread.all_node),
	.pi_locks = LIST_HEAD_INIT(boot_thread.pi_locks),
	.rq_node = LIST_HEAD_INIT(boot_thread.rq_node),
	.usage = 1, /* never freed */
};

static DEFINE_RAW_SPINLOCK(threads_lock); /* raw: rt_mutex_check_pi() walks under its raw lock */
static LIST_HEAD(all_threads);
static u32 next_id = 1;
static struct wait_queue join_wq = WAIT_QUEUE_INIT(join_wq);


static void add_to_all(struct thread *t)
{
	u64 f = raw_spin_lock_irqsave(&threads_lock);
	t->id = next_id++;
	list_add_tail(&t->all_node, &all_threads);
	raw_spin_unlock_irqrestore(&threads_lock, f);
}

void thread_set_allowed_cpus(struct thread *t, u64 allowed)
{
	t->allowed_cpus = allowed;
	t->migratory = (allowed & (allowed - 1)) != 0;
}

struct thread *thread_alloc(const char *name, int prio, u64 allowed)
{
	struct thread *t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	strlcpy(t->name, name, sizeof(t->name));
	t->prio = t->normal_prio = prio;
	INIT_LIST_HEAD(&t->pi_locks);
	thread_set_allowed_cpus(t, allowed);
	t->state = THREAD_SLEEPING;
	t->usage = 1; /* thread_join()'s */
	INIT_LIST_HEAD(&t->rq_node);
	add_to_all(t);
	return t;
}

/* Below the pt_regs kept free at the top (task_pt_regs, sched/thread.h). */
static u64 task_pt_regs_top(u64 top)
{
	return top - sizeof(struct pt_regs);
}

/* The first frame of a new thread: switch_to pops six callee-saved
 * registers (POP_CALLEE_SAVED, arch/x86_64/callee_saved.inc) and returns into thread_entry, with the count a switch
 * expects (the ti model keeps it at the base of this stack). */
void thread_setup_stack(struct thread *t, u64 top)
{
	u64 *sp = (u64 *)task_pt_regs_top(top);
	*--sp = 0;                   /* keeps the entry 16-byte aligned */
	*--sp = (u64)thread_entry;
	for (int i = 0; i < 6; i++)  /* rbp, rbx, r12-r15 */
		*--sp = 0;
	t->ksp = (u64)sp;
	t->stack_top = top;
	t->stack = (void *)(top - STACK_SIZE);
	t->saved_preempt_count = PREEMPT_ENABLED + SWITCH_PREEMPT_COUNT;
	preempt_count_init_stack(top, PREEMPT_ENABLED + SWITCH_PREEMPT_COUNT);
}

/* A new thread's first C code (from thread_entry), in the middle of the
 * switch that started it. */
void thread_start(struct thread *prev)
{
	finish_switch(prev);
	preempt_enable();
	struct thread *self = current_thread();
	self->fn(self->arg);
	thread_exit();
}

struct thread *kthread_create(void (*fn)(void *), void *arg, const char *name,
			      int prio, u64 allowed_cpus)
{
	BUG_ON(prio < 0 || prio > 99);
	u64 top = stack_alloc(); /* first: a thread in the list has an id and a stack */
	if (!top)
		return NULL;
	struct thread *t = thread_alloc(name, prio, allowed_cpus ? allowed_cpus : ALL_CPUS);
	if (!t) {
		stack_free(top);
		return NULL;
	}
	t->fn = fn;
	t->arg = arg;
	thread_setup_stack(t, top);
	t->cpu = (int)(allowed_cpus ? (u32)__builtin_ctzl(allowed_cpus) : raw_smp_processor_id());
	return t;
}

struct thread *thread_create(void (*fn)(void *), void *arg, const char *name,
			     int prio, u64 allowed_cpus)
{
	struct thread *t = kthread_create(fn, arg, name, prio, allowed_cpus);
	if (t)
		wake_up_thread(t);
	return t;
}

bool thread_prio_of(u32 id, int *prio)
{
	bool found = id == boot_thread.id;
	if (found)
		*prio = boot_thread.prio;
	u64 f = raw_spin_lock_irqsave(&threads_lock);
	struct thread *t;
	list_for_each_entry(t, &all_threads, all_node) {
		if (t->id == id && t->state != THREAD_DEAD) {
			found = true;
			*prio = t->prio;
		}
	}
	raw_spin_unlock_irqrestore(&threads_lock, f);
	return found;
}

bool thread_exists(u32 id)
{
	int prio;
	return thread_prio_of(id, &prio);
}

__noreturn void thread_exit(void)
{
	struct thread *self = current_thread();
	/* A thread must not leave with preemption disabled or IRQs off. */
	if (unlikely(preempt_count() != 0 || irqs_disabled())) {
		report_bug("preempt count leak on exit of thread %u (%s): count 0x%x, IRQs %s",
			   self->id, self->name, preempt_count(), irqs_disabled() ? "off" : "on");
		preempt_count_sub(preempt_count());
		local_irq_enable();
	}
	if (unlikely(is_migration_disabled(self))) {
		report_bug("migrate_disable() leak on exit of thread %u (%s): %u",
			   self->id, self->name, self->migration_disabled);
		self->migration_disabled = 0;
	}
	/* Dead with preemption off, as Linux's do_task_dead(): preempted
	 * here, a dead thread would go back on its run queue (a preempted
	 * thread stays runnable) while its joiner frees it. */
	preempt_disable();
	__atomic_store_n(&self->state, THREAD_DEAD, __ATOMIC_SEQ_CST);
	wake_up_all(&join_wq);
	__schedule(SM_NONE);
	panic("thread_exit: a dead thread ran again");
}

void thread_join(struct thread *t)
{
	might_sleep();
	wait_event(&join_wq, READ_ONCE(t->state) == THREAD_DEAD);
	/* Off its CPU for good before its stack is reused. */
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
	u64 f = raw_spin_lock_irqsave(&threads_lock);
	list_del(&t->all_node);
	raw_spin_unlock_irqrestore(&threads_lock, f);
	stack_free(t->stack_top);
	put_task_struct(t);
}

void __put_task_struct(struct thread *t)
{
	kfree(t);
}

void thread_for_each(void (*fn)(struct thread *t, void *arg), void *arg)
{
	u64 f = raw_spin_lock_irqsave(&threads_lock);
	fn(&boot_thread, arg);
	struct thread *t;
	list_for_each_entry(t, &all_threads, all_node)
		fn(t, arg);
	raw_spin_unlock_irqrestore(&threads_lock, f);
}
