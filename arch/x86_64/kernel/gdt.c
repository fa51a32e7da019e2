/* Per-CPU GDT and TSS. In long mode segmentation is mostly gone; the GDT
 * still names the code segment (L=1) and holds the TSS descriptor, and the
 * TSS holds the Interrupt Stack Table: known-good stacks the CPU switches
 * to for #DF, NMI and #MC, whatever the state of the current stack
 * (SDM Vol. 3A 9.7 "Task Management in 64-bit Mode", 7.14.5 "Interrupt
 * Stack Table").
 *
 * The TSS also ends in the I/O permission bit map (SDM Vol. 1 19.5.2 "I/O
 * Permission Bit Map"; Vol. 3A 9.7): at CPL 3 (IOPL is 0) an IN or OUT to
 * port p is allowed only if bit p of the map at TSS + iomap_base is clear,
 * and every bit the access covers must be; a bit beyond the TSS limit
 * counts as set, so a map shorter than 8 KiB denies every port past its
 * end. fold's covers ports 0-0x3ff (IO_BITMAP_PORTS) and is followed by
 * the 0xff byte the SDM asks for (the CPU reads two bytes of the map for
 * every access). It is per-process state: a process with ports
 * (ioperm(), process/sys_irq.c) has its map copied in when it is switched
 * to on a CPU whose TSS holds another version of it; for every other one
 * iomap_base points past the limit, so any IN or OUT from ring 3 is a
 * #GP. Linux does the same (arch/x86/kernel/process.c,
 * tss_update_io_bitmap(): the map copied on demand, with its sequence
 * number; IO_BITMAP_OFFSET_INVALID otherwise). */
#include "arch/x86_64/kernel/gdt.h"
#include "kernel/percpu.h"
#include "mm/mm.h"
#include "kernel/panic.h"

struct gdt_ptr {
	u16 limit;
	u64 base;
} __packed;

/* null, kernel code, kernel data, (32-bit user code: unused), user data,
 * user code, TSS (16 bytes: a system descriptor is two slots). */
static u64 gdt[MAX_CPUS][8] __aligned(16);
static struct tss tss[MAX_CPUS] __aligned(16);
static u64 io_bitmap_sequence; /* io_bitmap_next_seq(): the last version handed out */

void gdt_init_cpu(u32 cpu)
{
	u64 *g = gdt[cpu];
	struct tss *t = &tss[cpu];

	g[0] = 0;
	g[1] = 0x00AF9A000000FFFFULL; /* code: P, DPL0, S, exec/read, L=1 */
	g[2] = 0x00CF92000000FFFFULL; /* data: P, DPL0, S, read/write */
	g[3] = 0;                     /* 32-bit user code: fold runs none */
	g[4] = 0x00CFF2000000FFFFULL; /* user data: P, DPL3, S, read/write */
	g[5] = 0x00AFFA000000FFFFULL; /* user code: P, DPL3, S, exec/read, L=1 */

	/* SDM Vol. 3A Figure 9-4: 64-bit TSS descriptor. */
	u64 base = (u64)t, limit = sizeof(*t) - 1;
	g[6] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ULL << 40) |
	       (((limit >> 16) & 0xF) << 48) | (((base >> 24) & 0xFF) << 56);
	g[7] = base >> 32;

	for (int i = 0; i < 3; i++) {
		t->ist[i] = stack_alloc_boot("an IST stack"); /* boot and CPU bring-up only */
	}
	t->iomap_base = IOMAP_INVALID; /* no process's ports yet */
	t->io_bitmap[IO_BITMAP_BYTES] = 0xff;
	t->rsp[0] = 0;              /* set at each switch to a user thread */
	per_cpu(tss, cpu) = t;
	per_cpu(io_bitmap_seq, cpu) = 0; /* iomap_base invalid: no map */

	struct gdt_ptr p = { sizeof(gdt[cpu]) - 1, (u64)g };
	__asm__ __volatile__("lgdt %0\n\t"
			     "pushq %1\n\t"
			     "leaq 1f(%%rip), %%rax\n\t"
			     "pushq %%rax\n\t"
			     "lretq\n"
			     "1:\n\t"
			     "movl %2, %%eax\n\t"
			     "movl %%eax, %%ds\n\t"
			     "movl %%eax, %%es\n\t"
			     "movl %%eax, %%ss\n\t"
			     "ltr %w3"
			     :
			     : "m"(p), "i"(KERNEL_CS), "i"(KERNEL_DS), "r"(TSS_SEL)
			     : "rax", "memory");
}

u64 io_bitmap_next_seq(void)
{
	return __atomic_add_fetch(&io_bitmap_sequence, 1, __ATOMIC_RELAXED);
}

void __tss_load_io_bitmap(const u8 *bitmap, u64 seq)
{
	struct tss *t = &tss[this_cpu_read(cpu)];
	if (bitmap) {
		for (u32 i = 0; i < IO_BITMAP_BYTES; i++)
			t->io_bitmap[i] = bitmap[i];
		t->iomap_base = IOMAP_VALID;
	} else {
		t->iomap_base = IOMAP_INVALID;
	}
	this_cpu_write(io_bitmap_seq, seq);
}
