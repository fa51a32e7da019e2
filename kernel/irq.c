/* The C side of the common interrupt entry (arch/x86_64/entry.asm):
 * exceptions go to the arch's trap handler; device and IPI vectors run
 * their handler between irq_enter() and irq_exit(), which keep the hardirq
 * field of the preempt count, so in_interrupt() is true inside them. */
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/apic.h"

static irq_handler_t handlers[256];
static const char *names[256];

void irq_register(int vector, irq_handler_t h, const char *name)
{
	BUG_ON(vector < 32 || vector > 255);
	BUG_ON(handlers[vector] && handlers[vector] != h);
	names[vector] = name;
	handlers[vector] = h;
}

const char *irq_name(int vector)
{
	return vector >= 0 && vector < 256 && names[vector] ? names[vector] : "?";
}

void irq_enter(void)
{
	preempt_count_add(HARDIRQ_OFFSET);
}

void irq_exit(void)
{
	preempt_count_sub(HARDIRQ_OFFSET);
}

void irq_dispatch(struct pt_regs *regs)
{
	int v = (int)regs->vector;
	if (v < 32) {
		do_exception(regs);
		return;
	}
	u32 before = preempt_count();
	irq_enter();
	this_cpu_stat_inc(irqs);
	if (handlers[v]) {
		handlers[v](regs);
	} else {
		pr_warn("irq: unexpected vector %d\n", v);
		apic_eoi();
	}
	irq_exit();
	/* A handler must leave the count as it found it. */
	if (unlikely(preempt_count() != before)) {
		report_bug("preempt count leak in IRQ handler %s (vector %d): "
			   "0x%x on entry, 0x%x on exit",
			   irq_name(v), v, before, preempt_count());
		preempt_count_set((preempt_count_raw() & PREEMPT_NEED_RESCHED) | before);
	}
}
