#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"

struct percpu percpu_area[MAX_CPUS];
u32 nr_cpus_online;
u32 nr_cpus_possible = 1;
volatile u64 cpu_online_bits;

void set_cpu_online(u32 cpu)
{
	WRITE_ONCE(percpu_area[cpu].online, 1);
	__atomic_fetch_or(&cpu_online_bits, 1UL << cpu, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&nr_cpus_online, 1, __ATOMIC_SEQ_CST);
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
