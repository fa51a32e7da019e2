/* The legacy 8259A PICs. fold uses the local APIC and never the PIC, but
 * the PIC must be remapped before it is masked: its power-on vectors 8-15
 * collide with CPU exceptions (a timer IRQ would arrive as a "double
 * fault"). Remap to 0x28-0x37 (out of fold's way), then mask every line.
 * A masked 8259 can still raise a spurious IRQ 7/15; those vectors are
 * registered as spurious. Intel 8259A datasheet, ICW1-ICW4. */
#include "arch/x86_64/kernel/apic/pic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/irq.h"
#include "kernel/percpu.h"
#include "arch/x86_64/regs.h"

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xA0
#define PIC2_DATA 0xA1
#define PIC_VECTOR_BASE 0x28

static void pic_spurious(struct pt_regs *regs)
{
	(void)regs;
	this_cpu_stat_inc(spurious);
	/* No EOI: a spurious 8259 interrupt has no in-service bit to clear
	 * (for IRQ 15 the master would need one; masked lines make that
	 * moot here). */
}

void pic_disable(void)
{
	outb(PIC1_CMD, 0x11);  /* ICW1: init, expect ICW4 */
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, PIC_VECTOR_BASE);      /* ICW2: vector offsets */
	outb(PIC2_DATA, PIC_VECTOR_BASE + 8);
	outb(PIC1_DATA, 0x04); /* ICW3: slave on IRQ 2 */
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, 0x01); /* ICW4: 8086 mode */
	outb(PIC2_DATA, 0x01);
	outb(PIC1_DATA, 0xFF); /* mask everything */
	outb(PIC2_DATA, 0xFF);
	irq_register(PIC_VECTOR_BASE + 7, pic_spurious, "pic-spurious");
	irq_register(PIC_VECTOR_BASE + 15, pic_spurious, "pic-spurious");
}
