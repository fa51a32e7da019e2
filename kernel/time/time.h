/* Monotonic time in nanoseconds since boot, from the TSC. */
#ifndef FOLD_KERNEL_TIME_H
#define FOLD_KERNEL_TIME_H
#include "lib/types.h"

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

extern u64 tsc_hz;        /* 0 until calibrated */
extern u64 tsc_at_boot;
extern const char *tsc_source; /* "cpuid 0x15", "cpuid 0x16" or "pit" */

/* clock=icount: QEMU runs -icount shift=0,sleep=off (1 ns per guest
 * instruction), so the tests and benchmarks scale their time bounds. */
extern bool clock_icount;
u64 ktime_get_ns(void);
u64 tsc_to_ns(u64 ticks);
u64 ns_to_tsc(u64 ns);
void ndelay_spin(u64 ns);
#endif
