/* The explorer's arch/x86_64/kernel/percpu.h under the real scheduler:
 * the %gs accessors become plain accesses to percpu_area[hw_cpu()], the
 * CPU of the engine context running (tests/explore/hw.c). */
#ifndef FOLD_ARCH_PERCPU_H
#define FOLD_ARCH_PERCPU_H

#include "tests/explore/hw/hw.h"

#define PERCPU_OFF(field) offsetof(struct percpu, field)
#define this_cpu_read(field) (percpu_area[hw_cpu()].field)
#define this_cpu_write(field, val) ((void)(percpu_area[hw_cpu()].field = (val)))
#define this_cpu_add(field, val) ((void)(percpu_area[hw_cpu()].field += (val)))
#define this_cpu_inc(field) this_cpu_add(field, 1)
#define this_cpu_dec(field) this_cpu_add(field, -1)
#define this_cpu_stat_inc(name) this_cpu_inc(stats.name)

static __always_inline struct percpu *this_cpu_ptr(void)
{
	return &percpu_area[hw_cpu()];
}

static __always_inline u32 raw_smp_processor_id(void)
{
	return hw_cpu();
}

#endif
