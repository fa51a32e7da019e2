/* The per-CPU area's base: IA32_GS_BASE (MSR 0xC0000101, SDM Vol. 3A
 * 3.4.4.1), so %gs:offset reaches this CPU's struct percpu. */
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"

/* Point this CPU's GS base at its area. Must come before anything that
 * touches %gs: printk, spinlocks, the preempt count. */
void arch_percpu_set_base(struct percpu *p)
{
	wrmsr(MSR_GS_BASE, (u64)p);
}
