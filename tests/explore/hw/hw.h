/* The hardware under the real scheduler, for the explorer
 * (tests/explore/hw.c): what the headers of tests/explore/hw/ call
 * instead of %gs, cli/sti, hlt, pause, the APIC and switch.asm. Each CPU
 * is one context at a time (the engine thread whose kernel thread it
 * runs), with its own IF flag and per-CPU area; interrupts are pending
 * bits, taken at a scheduling point of that CPU with IF set. */
#ifndef FOLD_TESTS_EXPLORE_HW_H
#define FOLD_TESTS_EXPLORE_HW_H

#include "lib/types.h"

#define HW_MAX_CPUS 4
#define HW_IRQ_RESCHEDULE 1u   /* the RESCHEDULE IPI */
#define HW_IRQ_TICK 2u         /* the local APIC timer */

struct thread;

u32 hw_cpu(void);              /* the CPU the running context is on */
void hw_irq_enable(void);      /* sti */
void hw_irq_disable(void);     /* cli */
bool hw_irqs_disabled(void);
void hw_safe_halt(void);       /* sti; hlt: until an interrupt */
void hw_cpu_relax(void);       /* pause, in a spin loop */
void hw_send_irq(u32 cpu, u32 bits);
u32 *hw_count(void);           /* this CPU's preempt count */

#endif
