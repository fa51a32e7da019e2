#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/irq.h"
#include "mm/mm.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/time/time.h"
#include "arch/x86_64/regs.h"

const struct apic_ops *apic;
static volatile u32 *xapic_base;

/* ---- xAPIC: 32-bit MMIO registers, 16-byte aligned ---- */
static u32 xapic_read(u32 reg)
{
	return xapic_base[reg / 4];
}
static void xapic_write(u32 reg, u32 v)
{
	xapic_base[reg / 4] = v;
}
static void xapic_send_ipi(u32 dest, u32 icr_low)
{
	/* Wait for a previous IPI to leave (Delivery Status, bit 12). */
	while (xapic_read(APIC_ICR_LOW) & ICR_DELIVERY_PENDING)
		cpu_relax();
	xapic_write(APIC_ICR_HIGH, dest << 24);
	xapic_write(APIC_ICR_LOW, icr_low); /* writing the low half sends */
}
static u32 xapic_id(void)
{
	return xapic_read(APIC_ID) >> 24;
}
static void xapic_eoi(void)
{
	xapic_base[APIC_EOI / 4] = 0;
}

static const struct apic_ops xapic_ops = {
	"xAPIC", xapic_read, xapic_write, xapic_send_ipi, xapic_id, xapic_eoi,
};

/* ---- x2APIC: MSR 0x800 + offset/16; the ICR is one 64-bit MSR ---- */
static u32 x2apic_read(u32 reg)
{
	return (u32)rdmsr(0x800 + reg / 16);
}
static void x2apic_write(u32 reg, u32 v)
{
	wrmsr(0x800 + reg / 16, v);
}
static void x2apic_send_ipi(u32 dest, u32 icr_low)
{
	/* SDM 12.12.9: the x2APIC ICR has no delivery-status wait and takes
	 * the 32-bit destination in its upper half. */
	wrmsr(0x830, ((u64)dest << 32) | icr_low);
}
static u32 x2apic_id(void)
{
	return (u32)rdmsr(0x802);
}
static void x2apic_eoi(void)
{
	wrmsr(0x800 + APIC_EOI / 16, 0);
}

static const struct apic_ops x2apic_ops = {
	"x2APIC", x2apic_read, x2apic_write, x2apic_send_ipi, x2apic_id, x2apic_eoi,
};

static bool cpu_has_x2apic(void)
{
	u32 a, b, c, d;
	cpuid(1, &a, &b, &c, &d);
	return c & (1u << 21);
}

bool apic_is_x2apic(void)
{
	return apic == &x2apic_ops;
}

u32 apic_cpuid_id(void)
{
	u32 a, b, c, d, max;
	cpuid(0, &max, &b, &c, &d);
	if (apic_is_x2apic() && max >= 0xB) {
		cpuid_count(0xB, 0, &a, &b, &c, &d);
		return d; /* x2APIC ID (SDM Vol. 2A, CPUID leaf 0BH) */
	}
	cpuid(1, &a, &b, &c, &d);
	return b >> 24; /* initial APIC ID */
}

static void spurious_handler(struct pt_regs *r)
{
	(void)r;
	/* No EOI for the spurious vector (SDM Vol. 3A 12.9). */
	this_cpu_stat_inc(spurious);
}

static void error_handler(struct pt_regs *r)
{
	(void)r;
	apic->write(APIC_ESR, 0); /* latch, then read (SDM 12.5.3) */
	u32 esr = apic->read(APIC_ESR);
	pr_err("apic: error interrupt, ESR=%#x\n", esr);
	apic_eoi();
}

void apic_init_bsp(u64 lapic_phys)
{
	if (cpu_has_x2apic()) {
		apic = &x2apic_ops;
	} else {
		apic = &xapic_ops;
		xapic_base = ioremap(lapic_phys ? lapic_phys : 0xFEE00000, PAGE_SIZE);
	}
	irq_register(VECTOR_SPURIOUS, spurious_handler, "apic-spurious");
	irq_register(VECTOR_ERROR, error_handler, "apic-error");
}

void apic_init_cpu(void)
{
	/* IA32_APIC_BASE: bit 11 global enable, bit 10 x2APIC mode
	 * (SDM Vol. 3A 12.12.1: set EN before EXTD). */
	u64 base = rdmsr(MSR_APIC_BASE) | (1UL << 11);
	wrmsr(MSR_APIC_BASE, base);
	if (apic_is_x2apic())
		wrmsr(MSR_APIC_BASE, base | (1UL << 10));
	apic->write(APIC_TPR, 0);
	apic->write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	apic->write(APIC_LVT_LINT1, APIC_LVT_MASKED);
	apic->write(APIC_LVT_ERROR, VECTOR_ERROR);
	apic->write(APIC_LVT_TIMER, APIC_LVT_MASKED | VECTOR_TIMER);
	apic->write(APIC_ESR, 0);
	apic->write(APIC_ESR, 0);
	/* SVR bit 8 enables the APIC; the low byte is the spurious vector. */
	apic->write(APIC_SVR, 0x100 | VECTOR_SPURIOUS);
	apic_eoi();
}

void apic_send_ipi(u32 cpu, int vector)
{
	apic->send_ipi(per_cpu(apic_id, cpu), ICR_FIXED | (u32)vector);
}
