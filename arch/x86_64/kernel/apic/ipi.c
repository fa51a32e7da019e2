/* Sending IPIs: a fixed-vector interrupt or an NMI through the local
 * APIC's interrupt command register (SDM Vol. 3A 12.6.1). */
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/entry/irq.h"
#include "kernel/percpu.h"

void smp_send_reschedule(u32 cpu)
{
	apic_send_ipi(cpu, VECTOR_RESCHEDULE);
}

void arch_send_call_function_single_ipi(u32 cpu)
{
	apic_send_ipi(cpu, VECTOR_CALL_FUNCTION);
}

void smp_send_stop(void)
{
	if (apic && READ_ONCE(nr_cpus_online) > 1)
		apic->send_ipi(0, ICR_NMI | ICR_ALL_BUT_SELF);
}
