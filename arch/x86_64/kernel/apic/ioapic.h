/* The I/O APIC (arch/x86_64/kernel/apic/ioapic.c): just enough to route one ISA
 * interrupt line to a vector on the boot CPU, and mask and unmask it, for
 * an interrupt bound to a user-level driver (ipc/irq_notify.c). */
#ifndef FOLD_ARCH_IOAPIC_H
#define FOLD_ARCH_IOAPIC_H
#include "lib/types.h"

/* ISA IRQ n arrives at vector IRQ_VECTOR_BASE + n (below the IPIs, above
 * the 8259's remapped 0x28-0x37). */
#define IRQ_VECTOR_BASE 0x40
#define NR_ISA_IRQS 16

/* Maps the first I/O APIC of the MADT; false (said why) if there is none. */
bool ioapic_init(void);
/* Route ISA IRQ irq (edge, active high: ISA's polarity) to vector on the
 * CPU whose APIC ID is dest, masked. false if no I/O APIC covers it. */
bool ioapic_route_isa(u32 irq, u32 vector, u32 dest);
void ioapic_mask(u32 irq);
void ioapic_unmask(u32 irq);
#endif
