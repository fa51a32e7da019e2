/* One count model's preempt_disable()/preempt_enable() pair in a loop,
 * for the preempt benchmark. The Makefile compiles this file once per
 * model (bench_pair_folded.o, ...), each time with that model's file as
 * PREEMPT_MODEL_H and PREEMPT_COUNT_FIELD=bench_count, so one image holds
 * all four models' real instruction sequences (from
 * arch/x86_64/preempt/, not copies), working on a stand-in count. */
#include "bench/bench_pair.h"
#include "kernel/preempt.h"

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)

void PASTE(bench_pair_loop_, BENCH_VARIANT)(u64 n)
{
	for (u64 i = 0; i < n; i++) {
		preempt_disable();
		preempt_enable();
	}
}

/* The stand-in count's starting value in this model. */
u32 PASTE(bench_pair_enabled_, BENCH_VARIANT)(void)
{
	return PREEMPT_ENABLED;
}
