/* The explorer's arch/x86_64/kernel/percpu.h (kernel/percpu.h includes
 * it): no %gs here. The statistics go to percpu_area[0], and the CPU is
 * the running thread's (struct thread's cpu): ipc/endpoint.c's handoff
 * test compares it with the partner's (tests/explore/ipc_shim.c). */
#ifndef FOLD_ARCH_PERCPU_H
#define FOLD_ARCH_PERCPU_H

#define this_cpu_stat_inc(name) (percpu_area[0].stats.name++)
u32 raw_smp_processor_id(void);

#endif
