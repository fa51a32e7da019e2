/* NMIs. They arrive at any instruction, even with IRQs off and between
 * `syscall` and the entry's SWAPGS, so the entry picks GS from the GS base
 * MSR (paranoid_entry, arch/x86_64/entry/entry.asm), and the first thing done
 * here is to check that it got it right: IA32_GS_BASE must be one of the
 * per-CPU areas, the one whose `self` points at itself. A wrong GS would
 * otherwise show up later as a confusing oops somewhere in printk.
 *
 * The handler does not touch the preempt count (Linux's nmi_enter adds
 * NMI_OFFSET): it runs on its IST stack, where the ti model, which finds
 * the count by masking RSP, would find none. */
#include "arch/x86_64/kernel/nmi.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/debug/nmi_backtrace.h"

static void (*volatile test_handler)(struct pt_regs *regs);

void nmi_set_test_handler(void (*fn)(struct pt_regs *regs))
{
	WRITE_ONCE(test_handler, fn);
}

static bool gs_base_ok(void)
{
	u64 gs = rdmsr(MSR_GS_BASE);
	u64 lo = (u64)&percpu_area[0], hi = (u64)&percpu_area[MAX_CPUS];
	if (gs < lo || gs >= hi || (gs - lo) % sizeof(struct percpu))
		return false;
	return ((struct percpu *)gs)->self == (struct percpu *)gs;
}

void do_nmi(struct pt_regs *regs)
{
	/* During a panic: the panicking CPU is stopping this one, after the
	 * backtrace it asked for (kernel/panic.c). */
	if (panic_in_progress()) {
		nmi_cpu_backtrace(regs);
		for (;;)
			halt();
	}
	if (!gs_base_ok())
		panic("NMI with a wrong GS base %016llx at %04llx:%016llx (the entry's SWAPGS decision)",
		      (unsigned long long)rdmsr(MSR_GS_BASE), (unsigned long long)regs->cs,
		      (unsigned long long)regs->rip);
	this_cpu_stat_inc(nmis);
	this_cpu_write(in_nmi, 1); /* printk: bounded waits for the console */
	bool asked = nmi_cpu_backtrace(regs); /* `bt all`, a lockup report */
	this_cpu_write(in_nmi, 0);
	if (asked)
		return;
	void (*fn)(struct pt_regs *) = READ_ONCE(test_handler);
	if (fn) {
		fn(regs);
		return;
	}
	printk(KERN_WARNING "NMI received for unknown reason on CPU %u at %04llx:%016llx\n",
	       raw_smp_processor_id(), (unsigned long long)regs->cs,
	       (unsigned long long)regs->rip);
}

void arch_send_nmi(u32 cpu)
{
	apic->send_ipi(per_cpu(apic_id, cpu), ICR_NMI);
}
