/* The preempt benchmark's pair, once per count model
 * (bench/bench_pair.c, compiled four times by the Makefile). */
#ifndef FOLD_KERNEL_BENCH_PAIR_H
#define FOLD_KERNEL_BENCH_PAIR_H
#include "lib/types.h"

/* n preempt_disable()/preempt_enable() pairs on the stand-in count. */
void bench_pair_loop_folded(u64 n);
void bench_pair_loop_percpu(u64 n);
void bench_pair_loop_ti(u64 n);
void bench_pair_loop_off(u64 n);
/* The stand-in count's starting value in that model (PREEMPT_ENABLED). */
u32 bench_pair_enabled_folded(void);
u32 bench_pair_enabled_percpu(void);
u32 bench_pair_enabled_ti(void);
u32 bench_pair_enabled_off(void);
#endif
