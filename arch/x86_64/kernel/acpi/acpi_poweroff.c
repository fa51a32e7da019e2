/* S5, soft off: write SLP_TYPx with SLP_EN to the PM1 control registers
 * (ACPI 6.5 4.8.3.2.1, "PM1 Control Registers": SCI_EN bit 0, SLP_TYPx
 * bits 10-12, SLP_EN bit 13, write-only), PM1a's value from \_S5's first
 * element and PM1b's from its second (7.4.2). The FADT and the DSDT were
 * read at boot (acpi.c), so nothing here maps or parses a table: this
 * runs at the end of a test run and from panic(). */
#include "arch/x86_64/kernel/acpi/acpi_poweroff.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/cpu.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"

#define PM1_SCI_EN (1u << 0)
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK (7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN (1u << 13)

/* Firmware may leave the chipset in legacy (SMI) mode: then the OS writes
 * ACPI_ENABLE to SMI_CMD and waits for SCI_EN (ACPI 6.5 4.8.2.5, "Legacy/
 * ACPI Select and the SCI Interrupt"). Sleeping works only in ACPI mode. */
static void acpi_enable_mode(void)
{
	if (inw(acpi_pm.pm1a_cnt) & PM1_SCI_EN)
		return;
	if (!acpi_pm.smi_cmd || !acpi_pm.acpi_enable) {
		printk(KERN_WARNING "acpi: SCI_EN is clear and the FADT gives no way to set it; trying S5 anyway\n");
		return;
	}
	outb(acpi_pm.smi_cmd, acpi_pm.acpi_enable);
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (!(inw(acpi_pm.pm1a_cnt) & PM1_SCI_EN) && ktime_get_ns() < end)
		cpu_relax();
	if (!(inw(acpi_pm.pm1a_cnt) & PM1_SCI_EN))
		printk(KERN_WARNING "acpi: ACPI mode not on 1 s after ACPI_ENABLE (%#x to port %#x); trying S5 anyway\n",
		       acpi_pm.acpi_enable, acpi_pm.smi_cmd);
}

/* SLP_TYP first, then SLP_TYP with SLP_EN: two writes, as ACPICA does
 * (acpi_hw_legacy_sleep), for chipsets that want the type set first. */
static void enter_s5(u16 port, u8 slp_typ)
{
	u16 v = inw(port) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);
	v |= (u16)(slp_typ << PM1_SLP_TYP_SHIFT);
	outw(port, v);
	outw(port, v | PM1_SLP_EN);
}

void acpi_power_off(void)
{
	if (!acpi_pm.s5_valid) {
		printk(KERN_EMERG "acpi: cannot power off: %s\n", acpi_pm.why);
		return;
	}
	acpi_enable_mode();
	if (acpi_pm.pm1b_cnt)
		printk(KERN_EMERG "acpi: powering off (S5, PM1a_CNT=%#x, SLP_TYP=%u; PM1b_CNT=%#x, SLP_TYP=%u)\n",
		       acpi_pm.pm1a_cnt, acpi_pm.slp_typa, acpi_pm.pm1b_cnt, acpi_pm.slp_typb);
	else
		printk(KERN_EMERG "acpi: powering off (S5, PM1a_CNT=%#x, SLP_TYP=%u)\n",
		       acpi_pm.pm1a_cnt, acpi_pm.slp_typa);
	enter_s5(acpi_pm.pm1a_cnt, acpi_pm.slp_typa);
	if (acpi_pm.pm1b_cnt)
		enter_s5(acpi_pm.pm1b_cnt, acpi_pm.slp_typb);
	ndelay_spin(100 * NSEC_PER_MSEC);
	printk(KERN_EMERG "acpi: still running 100 ms after entering S5\n");
}
