/* The I/O APIC, for the ISA lines a user-level driver takes (the UART's
 * IRQ 4). Two registers in MMIO, IOREGSEL at +0x00 and IOWIN at +0x10;
 * register 0x01 is the version (bits 16-23: the last redirection entry);
 * entry n is the 64-bit pair 0x10 + 2n, 0x11 + 2n: vector (bits 0-7),
 * delivery mode fixed (000), physical destination (bit 11 = 0), polarity
 * (bit 13), trigger mode (bit 15), mask (bit 16), destination APIC ID
 * (bits 56-63). Intel 82093AA I/O APIC datasheet, 3.2.4 "IOREDTBL".
 *
 * ISA IRQ n is global system interrupt n unless the MADT has an Interrupt
 * Source Override for it (ACPI 6.5 5.2.12.5). fold's MADT reader does not
 * keep overrides; QEMU's pc and q35 override only IRQ 0 (to GSI 2) and the
 * PCI lines, so IRQ 3 and 4, the only ones fold lets a driver bind
 * (ipc/irq_notify.c), are GSI 3 and 4 there, edge-triggered, active
 * high. */
#include "arch/x86_64/kernel/apic/ioapic.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/mm/vm.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "mm/mm.h"

#define IOREGSEL 0x00
#define IOWIN 0x10
#define IOAPICVER 0x01
#define REDTBL(n) (0x10 + 2 * (n))
#define RTE_MASKED (1U << 16)

static volatile u32 *base;
static u32 gsi_base, nr_entries;
static DEFINE_RAW_SPINLOCK(ioapic_lock); /* raw: hard interrupt handlers mask lines */

static u32 ioapic_read(u32 reg)
{
	base[IOREGSEL / 4] = reg;
	return base[IOWIN / 4];
}

static void ioapic_write(u32 reg, u32 v)
{
	base[IOREGSEL / 4] = reg;
	base[IOWIN / 4] = v;
}

bool ioapic_init(void)
{
	if (base)
		return true;
	if (!madt.valid || !madt.nioapics) {
		pr_warn("ioapic: the MADT lists no I/O APIC: no IRQ can be bound\n");
		return false;
	}
	base = ioremap(madt.ioapics[0].phys, PAGE_SIZE);
	gsi_base = madt.ioapics[0].gsi_base;
	nr_entries = ((ioapic_read(IOAPICVER) >> 16) & 0xff) + 1;
	pr_info("ioapic: id %u at %#x, GSIs %u-%u\n", madt.ioapics[0].id, madt.ioapics[0].phys,
		gsi_base, gsi_base + nr_entries - 1);
	return true;
}

static bool entry_of(u32 irq, u32 *n)
{
	if (!base || irq < gsi_base || irq - gsi_base >= nr_entries)
		return false;
	*n = irq - gsi_base;
	return true;
}

bool ioapic_route_isa(u32 irq, u32 vector, u32 dest)
{
	u32 n;
	if (!entry_of(irq, &n))
		return false;
	u64 f = raw_spin_lock_irqsave(&ioapic_lock);
	/* Masked first, so the line cannot fire half-programmed. */
	ioapic_write(REDTBL(n), RTE_MASKED);
	ioapic_write(REDTBL(n) + 1, dest << 24);
	/* Fixed, physical, active high (bit 13 = 0), edge (bit 15 = 0). */
	ioapic_write(REDTBL(n), RTE_MASKED | (vector & 0xff));
	raw_spin_unlock_irqrestore(&ioapic_lock, f);
	return true;
}

static void set_mask(u32 irq, bool masked)
{
	u32 n;
	if (!entry_of(irq, &n))
		return;
	u64 f = raw_spin_lock_irqsave(&ioapic_lock);
	u32 lo = ioapic_read(REDTBL(n));
	ioapic_write(REDTBL(n), masked ? lo | RTE_MASKED : lo & ~RTE_MASKED);
	raw_spin_unlock_irqrestore(&ioapic_lock, f);
}

void ioapic_mask(u32 irq)
{
	set_mask(irq, true);
}

void ioapic_unmask(u32 irq)
{
	set_mask(irq, false);
}
