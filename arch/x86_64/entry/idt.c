/* The IDT: 256 interrupt gates, each pointing at its stub in entry.asm.
 * Interrupt gates (type 0xE) clear IF on entry, so every handler starts
 * with interrupts off (SDM Vol. 3A 7.12.1.3). Gate format: SDM Vol. 3A
 * Figure 7-8, "64-Bit IDT Gate Descriptors". */
#include "arch/x86_64/entry/idt.h"
#include "arch/x86_64/kernel/gdt.h"
#include "lib/types.h"

struct idt_gate {
	u16 off0;
	u16 sel;
	u8 ist;
	u8 type_attr;
	u16 off1;
	u32 off2;
	u32 zero;
} __packed;

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

extern const u64 vector_stubs[256];
static struct idt_gate idt[256] __aligned(16);

static void set_gate_dpl(int v, u64 handler, int ist, int dpl)
{
	idt[v].off0 = handler & 0xFFFF;
	idt[v].sel = KERNEL_CS;
	idt[v].ist = ist;
	idt[v].type_attr = (u8)(0x8E | dpl << 5); /* present, DPL, 64-bit interrupt gate */
	idt[v].off1 = (handler >> 16) & 0xFFFF;
	idt[v].off2 = handler >> 32;
	idt[v].zero = 0;
}

static void set_gate(int v, u64 handler, int ist)
{
	set_gate_dpl(v, handler, ist, 0);
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, vector_stubs[v], 0);
	/* A double fault may come from a broken stack (a kernel stack
	 * overflow into its guard page): take it on a known-good one. Same
	 * for NMI and #MC, which can arrive at any instruction. */
	set_gate(8, vector_stubs[8], IST_DF);
	set_gate(2, vector_stubs[2], IST_NMI);
	set_gate(18, vector_stubs[18], IST_MC);
	/* INT3 and INTO from ring 3 reach their handlers (DPL 3, SDM Vol. 3A
	 * 7.12.1.1): a user breakpoint is a SIGTRAP, not a #GP. Every other
	 * `int n` from user mode is a #GP, as the SDM specifies for DPL 0. */
	set_gate_dpl(3, vector_stubs[3], 0, 3);
	set_gate_dpl(4, vector_stubs[4], 0, 3);
}

void idt_load(void)
{
	struct idt_ptr p = { sizeof(idt) - 1, (u64)idt };
	__asm__ __volatile__("lidt %0" ::"m"(p));
}
