/* CPU discovery from ACPI: the RSDP GRUB found, the RSDT/XSDT, and the
 * MADT's processor and IOAPIC entries (ACPI 6.5 spec 5.2.5-5.2.12). */
#ifndef FOLD_ARCH_ACPI_H
#define FOLD_ARCH_ACPI_H
#include "lib/types.h"
#include "kernel/percpu.h"

#define MAX_IOAPICS 8

struct madt_info {
	bool valid;
	u64 lapic_phys;
	u32 ncpus;                 /* enabled processors, boot CPU included */
	u32 apic_ids[MAX_CPUS];
	u32 nioapics;
	struct { u32 id, phys, gsi_base; } ioapics[MAX_IOAPICS];
	u32 skipped;               /* disabled, over MAX_CPUS, or too short */
};

extern struct madt_info madt;
/* Fills `madt`; on any problem prints one message and returns false (the
 * caller then boots on one CPU). */
bool acpi_init(void);
#endif
