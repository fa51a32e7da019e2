/* The local APIC behind one ops table: xAPIC (registers in MMIO at the
 * APIC base, SDM Vol. 3A 12.4) or x2APIC (registers as MSRs 0x800 +
 * offset/16, SDM Vol. 3A 12.12), chosen from CPUID.01H:ECX[21] when each
 * CPU starts. Register offsets below are the xAPIC MMIO offsets. */
#ifndef FOLD_ARCH_APIC_H
#define FOLD_ARCH_APIC_H
#include "lib/types.h"

#define APIC_ID 0x20
#define APIC_VERSION 0x30
#define APIC_TPR 0x80
#define APIC_EOI 0xB0
#define APIC_SVR 0xF0
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300
#define APIC_ICR_HIGH 0x310
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CURRENT 0x390
#define APIC_TIMER_DIVIDE 0x3E0

#define APIC_LVT_MASKED (1u << 16)
#define APIC_TIMER_PERIODIC (1u << 17)

/* ICR fields (SDM Vol. 3A Figure 12-12). */
#define ICR_FIXED 0x000
#define ICR_INIT 0x500
#define ICR_STARTUP 0x600
#define ICR_NMI 0x400
#define ICR_LEVEL_ASSERT (1u << 14)
#define ICR_LEVEL_TRIGGER (1u << 15)
#define ICR_DELIVERY_PENDING (1u << 12)
#define ICR_ALL_BUT_SELF (3u << 18)

struct apic_ops {
	const char *name;
	u32 (*read)(u32 reg);
	void (*write)(u32 reg, u32 v);
	/* icr_low: vector | delivery mode | shorthand; dest: APIC ID. */
	void (*send_ipi)(u32 dest, u32 icr_low);
	u32 (*id)(void);
	/* End of interrupt: one write of 0 to the EOI register (SDM Vol. 3A
	 * 12.8.5, "Signaling Interrupt Servicing Completion"), as a call of
	 * its own per backend (Linux's apic->eoi): no register argument to
	 * pass and decode on every interrupt. */
	void (*eoi)(void);
};

extern const struct apic_ops *apic;

void apic_init_bsp(u64 lapic_phys);   /* choose the backend, map xAPIC MMIO */
void apic_init_cpu(void);             /* enable this CPU's APIC */
/* Acknowledge the interrupt being serviced (none before the APIC is up). */
static inline void apic_eoi(void)
{
	if (apic)
		apic->eoi();
}
void apic_send_ipi(u32 cpu, int vector);
u32 apic_cpuid_id(void);              /* this CPU's APIC ID from CPUID */
bool apic_is_x2apic(void);
#endif
