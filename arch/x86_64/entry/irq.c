/* The C side of the interrupt and exception entries and exits
 * (arch/x86_64/entry/entry.asm saves a struct pt_regs and calls
 * irq_dispatch() or exc_dispatch(), then restores it and returns with
 * iretq).
 *
 * Exceptions go to the trap handler. An interrupt runs its handler
 * between irq_enter() and irq_exit(), which keep the hardirq field of the
 * preempt count, so in_interrupt() is true inside it. Then, for both, the
 * return-to-kernel preemption check (Linux's irqentry_exit(),
 * kernel/entry/common.c), in C. */
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/kernel/traps.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/cpu.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "kernel/entry/common.h"
#include "kernel/trace/trace.h"
#include "kernel/debug/checks.h"

/* A vector nobody registered: said, and otherwise ignored. Every slot
 * of the table holds a handler, so the dispatch calls without a test. */
static void unexpected_irq(struct pt_regs *regs)
{
	pr_warn("irq: unexpected vector %lu\n", (unsigned long)regs->vector);
}

static irq_handler_t handlers[256] = { [0 ... 255] = unexpected_irq };
static const char *names[256];

void irq_register(int vector, irq_handler_t h, const char *name)
{
	BUG_ON(vector < 32 || vector > 255);
	BUG_ON(handlers[vector] != unexpected_irq && handlers[vector] != h);
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

/* The RESCHEDULE IPI: all its work is the scheduler's (sched/core.c). */
static void reschedule_interrupt(struct pt_regs *regs)
{
	(void)regs;
	apic_eoi();
	scheduler_ipi();
}

void init_IRQ(void)
{
	apic_init_bsp(madt.valid ? madt.lapic_phys : 0); /* xAPIC or x2APIC */
	apic_init_cpu();                                 /* the boot CPU's */
	this_cpu_write(apic_id, apic->id());
	irq_register(VECTOR_RESCHEDULE, reschedule_interrupt, "reschedule");
}

/* A handler that left the count other than it found it: said, and the
 * count set back (debug build: a release build neither reads the count
 * before the handler nor compares it after, kernel/debug/checks.h). */
static __noinline __attribute__((cold)) void irq_count_leak(int v, u32 before)
{
	report_bug("preempt count leak in IRQ handler %s (vector %d): 0x%x on entry, 0x%x on exit",
		   irq_name(v), v, before, preempt_count());
	preempt_count_set((preempt_count_raw() & PREEMPT_NEED_RESCHED) | before);
}

/* The handler, straight from the table: one that needs the local APIC's
 * EOI sends it itself, as Linux's sysvec handlers do, and the timer's
 * sets irq_regs for the tick (arch/x86_64/kernel/timer.c): no lookup for
 * either here. The vector is read from the frame where it is needed: kept
 * in a register across the call it would cost the dispatch a
 * callee-saved register to push and pop. */
static __always_inline void handle_irq(struct pt_regs *regs)
{
	u32 before = DEBUG_CHECKS ? preempt_count() : 0;
	irq_enter();
	this_cpu_stat_inc(irqs);
	trace_event(irq_handler_entry, (int)regs->vector);
	handlers[regs->vector](regs);
	trace_event(irq_handler_exit, (int)regs->vector,
		    handlers[regs->vector] != unexpected_irq);
	irq_exit();
	/* A handler must leave the count as it found it. */
	if (DEBUG_CHECKS && unlikely(preempt_count() != before))
		irq_count_leak((int)regs->vector, before);
}

/* Back to the interrupted kernel code: preempt it if it ran with IF=1 (a
 * frame with IF=0 was in a section that cannot be preempted, or is an
 * exception taken with IRQs off) and the count model says a reschedule
 * is due with nothing disabling preemption. For the folded model that
 * test is the single `cmpl $0, %gs:8`: depth 0 and the inverted bit 31
 * clear. Whether the mode preempts here is the scheduler's question. */
static __always_inline void irqentry_exit(struct pt_regs *regs)
{
	/* LAB(L2) BEGIN: leave if the interrupted code ran with IRQs off
	 * (IF clear in its saved flags); else, when the count model says a
	 * reschedule is due with nothing disabling preemption, ask the mode
	 * (irqentry_exit_cond_resched()). */
	if (!(regs->rflags & X86_EFLAGS_IF))
		return;
	if (arch_irqentry_exit_need_resched())
		irqentry_exit_cond_resched();
	/* LAB(L2) END: (void)regs; */
}

/* The way back from either: exit_to_user_mode() (kernel/entry/common.c)
 * or the preemption check. */
static __always_inline void irqentry_exit_to(struct pt_regs *regs)
{
	if (user_mode(regs))
		exit_to_user_mode(regs);
	else
		irqentry_exit(regs);
}

void irq_dispatch(struct pt_regs *regs)
{
	handle_irq(regs);
	irqentry_exit_to(regs);
}

/* The paranoid vectors (NMI, #DF, #MC) call do_exception() themselves
 * and leave as they came (arch/x86_64/entry/entry.asm): no exit work, no
 * preemption. */
void exc_dispatch(struct pt_regs *regs)
{
	do_exception(regs);
	irqentry_exit_to(regs);
}

const char *irq_controller_name(void)
{
	return apic ? apic->name : "no APIC";
}
