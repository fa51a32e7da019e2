#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "kernel/cmdline.h"
#include "lib/parse.h"

bool clock_icount;

static int set_clock(const char *v)
{
	static const char *const w[] = { "wall", "icount" };
	int i = match_word(v, w, 2);
	if (i < 0)
		return -1;
	clock_icount = i == 1;
	return 0;
}
early_param(clock, set_clock, clock_icount,
	    "wall or icount (QEMU -icount shift=0,sleep=off: 1 ns per instruction)", "wall");

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
