#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"

struct percpu percpu_area[MAX_CPUS];
u32 nr_cpus_online;
u32 nr_cpus_possible = 1;

/* Point this CPU's GS base at its area. Must come before anything that
 * touches %gs: printk, spinlocks, the preempt count. */
void arch_percpu_set_base(struct percpu *p)
{
	wrmsr(MSR_GS_BASE, (u64)p);
}

void percpu_init_cpu(u32 cpu, u32 apic_id)
{
	struct percpu *p = &percpu_area[cpu];
	p->self = p;
	p->cpu = cpu;
	p->apic_id = apic_id;
	/* Boot and AP start-up run with preemption off until the CPU enters
	 * its idle loop. */
	arch_percpu_set_base(p);
	/* Through the model's own accessor: COUNT=ti keeps it on the stack. */
	preempt_count_set(PREEMPT_ENABLED + PREEMPT_DISABLE_OFFSET);
}
