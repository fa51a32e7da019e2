/* The explorer's arch/x86_64/cpu.h under the real scheduler: IF is a
 * flag per CPU, hlt and pause are scheduling points that wait
 * (tests/explore/hw.c); the rest of the real header (ports, MSRs, CRs)
 * is never reached by sched/. */
#ifndef FOLD_ARCH_CPU_H
#define FOLD_ARCH_CPU_H

#include "lib/types.h"
#include "tests/explore/hw/hw.h"

#define X86_EFLAGS_IF (1UL << 9)

static __always_inline void cpu_relax(void) { hw_cpu_relax(); }
static __always_inline void local_irq_enable(void) { hw_irq_enable(); }
static __always_inline void local_irq_disable(void) { hw_irq_disable(); }
static __always_inline bool irqs_disabled(void) { return hw_irqs_disabled(); }
static __always_inline u64 local_irq_save(void)
{
	u64 f = hw_irqs_disabled() ? 0 : X86_EFLAGS_IF;
	hw_irq_disable();
	return f;
}
static __always_inline void local_irq_restore(u64 f)
{
	if (f & X86_EFLAGS_IF)
		hw_irq_enable();
}
static __always_inline void safe_halt(void) { hw_safe_halt(); }

#endif
