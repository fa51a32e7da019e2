/* CPU discovery from ACPI: the RSDP GRUB found, the RSDT/XSDT, and the
 * MADT's processor and IOAPIC entries (ACPI 6.5 spec 5.2.5-5.2.12); and
 * what powering off needs, from the FADT (5.2.9) and the DSDT's \_S5. */
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

/* Soft-off (S5) through the PM1 control registers (ACPI 6.5 4.8.3.2.1):
 * filled by acpi_init() from the FADT and the DSDT, used by
 * acpi_power_off() (acpi_poweroff.c). */
struct acpi_pm_info {
	bool s5_valid;
	const char *why;           /* !s5_valid: what was missing */
	u16 pm1a_cnt, pm1b_cnt;    /* I/O ports of PM1a/PM1b_CNT_BLK; pm1b 0 if none */
	u16 smi_cmd;               /* SMI_CMD port, 0 if none ... */
	u8 acpi_enable;            /* ... and the value that turns ACPI mode on */
	u8 slp_typa, slp_typb;     /* \_S5's package: PM1a's and PM1b's SLP_TYP */
};
extern struct acpi_pm_info acpi_pm;
/* Fills `madt`; on any problem prints one message and returns false (the
 * caller then boots on one CPU). */
bool acpi_init(void);
#endif
