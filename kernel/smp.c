#include "kernel/smp.h"
#include "kernel/percpu.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "mm/mm.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/regs.h"
#include "lib/list.h"
#include "kernel/debug/checks.h"

struct call_single_data {
	smp_call_func_t fn;
	void *arg;
	volatile int done;
	bool free_after;
	struct list_head node;
};

static struct call_queue {
	raw_spinlock_t lock;   /* raw: the IPI handler takes it */
	struct list_head list;
} queues[MAX_CPUS];

u32 smp_processor_id(void)
{
	/* The CPU number is stable only while nothing can migrate us
	 * (checked in the debug build: Linux's CONFIG_DEBUG_PREEMPT). */
	if (DEBUG_CHECKS && unlikely(preemptible()))
		report_bug("using smp_processor_id() in preemptible code");
	return raw_smp_processor_id();
}

static void call_function_interrupt(struct pt_regs *regs)
{
	(void)regs;
	struct call_queue *q = &queues[raw_smp_processor_id()];
	LIST_HEAD(work);
	apic_eoi();
	this_cpu_stat_inc(call_function_ipis);
	raw_spin_lock(&q->lock);
	while (!list_empty(&q->list)) {
		struct list_head *n = q->list.next;
		list_move_tail(n, &work);
	}
	raw_spin_unlock(&q->lock);
	while (!list_empty(&work)) {
		struct call_single_data *csd =
			list_first_entry(&work, struct call_single_data, node);
		list_del(&csd->node);
		csd->fn(csd->arg);
		if (csd->free_after)
			kfree(csd);
		else
			__atomic_store_n(&csd->done, 1, __ATOMIC_RELEASE);
	}
}

static void queue_call(u32 cpu, struct call_single_data *csd)
{
	struct call_queue *q = &queues[cpu];
	u64 f = raw_spin_lock_irqsave(&q->lock);
	list_add_tail(&csd->node, &q->list);
	raw_spin_unlock_irqrestore(&q->lock, f);
	arch_send_call_function_single_ipi(cpu);
}

int smp_call_function_single(u32 cpu, smp_call_func_t fn, void *arg, bool wait)
{
	if (cpu >= MAX_CPUS || !READ_ONCE(per_cpu(online, cpu)))
		return -1;
	preempt_disable();
	if (cpu == raw_smp_processor_id()) {
		u64 f = local_irq_save();
		fn(arg);
		local_irq_restore(f);
		preempt_enable();
		return 0;
	}
	if (wait && irqs_disabled())
		BUG("smp_call_function_single(wait) with IRQs off can deadlock");
	struct call_single_data on_stack = { fn, arg, 0, false, LIST_HEAD_INIT(on_stack.node) };
	struct call_single_data *csd = &on_stack;
	if (!wait) {
		csd = kmalloc(sizeof(*csd));
		BUG_ON(!csd);
		*csd = (struct call_single_data){ fn, arg, 0, true, LIST_HEAD_INIT(csd->node) };
	}
	queue_call(cpu, csd);
	preempt_enable();
	if (wait)
		while (!__atomic_load_n(&csd->done, __ATOMIC_ACQUIRE))
			cpu_relax();
	return 0;
}

void smp_call_function_many(u64 mask, smp_call_func_t fn, void *arg, bool wait)
{
	struct call_single_data csds[MAX_CPUS];
	preempt_disable();
	u32 self = raw_smp_processor_id();
	if (wait && irqs_disabled())
		BUG("smp_call_function_many(wait) with IRQs off can deadlock");
	u64 sent = 0;
	for_each_online_cpu(c) {
		if (c == self || !(mask & (1UL << c)))
			continue;
		struct call_single_data *csd = &csds[c];
		if (!wait) {
			csd = kmalloc(sizeof(*csd));
			BUG_ON(!csd);
		}
		*csd = (struct call_single_data){ fn, arg, 0, !wait, LIST_HEAD_INIT(csd->node) };
		queue_call(c, csd);
		sent |= 1UL << c;
	}
	preempt_enable();
	if (!wait)
		return;
	for (u32 c = 0; c < MAX_CPUS; c++)
		if (sent & (1UL << c))
			while (!__atomic_load_n(&csds[c].done, __ATOMIC_ACQUIRE))
				cpu_relax();
}

void smp_init(void)
{
	for (u32 c = 0; c < MAX_CPUS; c++) {
		raw_spin_lock_init(&queues[c].lock, "call_queue");
		INIT_LIST_HEAD(&queues[c].list);
	}
	irq_register(VECTOR_CALL_FUNCTION, call_function_interrupt, "call-function");
}
