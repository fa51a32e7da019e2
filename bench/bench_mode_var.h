/* The variable-test stand-ins that bench mode_cost patches in
 * (bench/bench_mode_var.asm). Jump targets only: never called. */
#ifndef FOLD_ARCH_BENCH_MODE_VAR_H
#define FOLD_ARCH_BENCH_MODE_VAR_H
void bench_var_preempt_schedule(void);
void bench_var_exit_cond_resched(void);
#endif
