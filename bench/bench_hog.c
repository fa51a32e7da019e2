/* The hog load (bench/bench_hog.h). */
#include "bench/bench_hog.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"

/* ~200 instructions, no preemption point. The `pause` is not one either:
 * it is there for QEMU's -icount mode, which runs the vCPUs one at a time
 * and moves on at `pause` (arch/x86_64/cpu.h, cpu_relax). Without it a hog
 * on one vCPU would keep the others, and their timer interrupts, from
 * running for a whole round-robin slice, and -smp 2 latencies would
 * measure QEMU. */
static __attribute__((noipa)) void hog_work(void)
{
	for (volatile int i = 0; i < 32; i++)
		;
	cpu_relax();
}

void bench_hog_thread(void *arg)
{
	struct bench_hog *h = arg;
	for (u64 i = 1; !READ_ONCE(h->stop); i++) {
		hog_work();
		if (i % h->points == 0)
			might_resched();
		if (i % h->run == 0)
			cond_resched();
	}
}
