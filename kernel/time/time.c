#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"

/* ticks * 1e9 / hz without overflow: a 128-bit product, then one div. */
u64 tsc_to_ns(u64 ticks)
{
	if (!tsc_hz)
		return 0;
	return mul_u64_u64_div_u64(ticks, NSEC_PER_SEC, tsc_hz);
}

u64 ns_to_tsc(u64 ns)
{
	return mul_u64_u64_div_u64(ns, tsc_hz, NSEC_PER_SEC);
}

u64 ktime_get_ns(void)
{
	return tsc_to_ns(rdtsc() - tsc_at_boot);
}

void ndelay_spin(u64 ns)
{
	u64 end = rdtsc() + ns_to_tsc(ns);
	while (rdtsc() < end)
		cpu_relax();
}
