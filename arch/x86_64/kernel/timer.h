/* The timer behind kernel/time/hrtimer.c: one one-shot interrupt per CPU
 * (arch/x86_64/kernel/timer.c: the local APIC timer, SDM Vol. 3A 12.5.4). */
#ifndef FOLD_ARCH_TIMER_H
#define FOLD_ARCH_TIMER_H
#include "lib/types.h"
#include "arch/x86_64/entry/irq.h"

extern u64 apic_timer_hz;             /* the timer's input clock */
/* Boot CPU: calibrate against the TSC; the handler runs on every CPU,
 * acknowledged before it runs. */
void arch_timer_init(irq_handler_t handler);
void arch_timer_oneshot_ns(u64 ns);   /* interrupt this CPU after ns */
void arch_timer_stop(void);
#endif
