/* Per-CPU GDT and TSS. In long mode segmentation is mostly gone; the GDT
 * still names the code segment (L=1) and holds the TSS descriptor, and the
 * TSS holds the Interrupt Stack Table: known-good stacks the CPU switches
 * to for #DF, NMI and #MC, whatever the state of the current stack
 * (SDM Vol. 3A 9.7 "Task Management in 64-bit Mode", 7.14.5 "Interrupt
 * Stack Table"). */
#include "arch/x86_64/gdt.h"
#include "kernel/percpu.h"
#include "kernel/mm.h"
#include "kernel/panic.h"

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct gdt_ptr {
	u16 limit;
	u64 base;
} __packed;

/* null, kernel code, kernel data, (32-bit user code: unused), user data,
 * user code, TSS (16 bytes: a system descriptor is two slots). */
static u64 gdt[MAX_CPUS][8] __aligned(16);
static struct tss tss[MAX_CPUS] __aligned(16);

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
		t->ist[i] = stack_alloc();
	}
	t->iomap_base = sizeof(*t); /* no I/O permission bitmap */
	t->rsp[0] = 0;              /* set at each switch to a user thread */

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

void tss_set_rsp0(u64 top)
{
	tss[this_cpu_read(cpu)].rsp[0] = top;
	this_cpu_write(top_of_stack, top);
}
