/* Single x86-64 instructions wrapped for C: port I/O, MSRs, control
 * registers, CPUID, the TSC, interrupt flag. Everything here is one
 * instruction (or a fixed short sequence) and is always inlined. */
#ifndef FOLD_ARCH_CPU_H
#define FOLD_ARCH_CPU_H

#include "lib/types.h"

/* RFLAGS bits (SDM Vol. 1 3.4.3, Figure 3-8). */
#define X86_EFLAGS_CF (1UL << 0)
#define X86_EFLAGS_FIXED (1UL << 1)   /* always 1 */
#define X86_EFLAGS_PF (1UL << 2)
#define X86_EFLAGS_AF (1UL << 4)
#define X86_EFLAGS_ZF (1UL << 6)
#define X86_EFLAGS_SF (1UL << 7)
#define X86_EFLAGS_TF (1UL << 8)
#define X86_EFLAGS_IF (1UL << 9)
#define X86_EFLAGS_DF (1UL << 10)
#define X86_EFLAGS_OF (1UL << 11)
#define X86_EFLAGS_IOPL (3UL << 12)
#define X86_EFLAGS_NT (1UL << 14)
#define X86_EFLAGS_RF (1UL << 16)
#define X86_EFLAGS_AC (1UL << 18)
#define X86_EFLAGS_ID (1UL << 21)

/* CR4 bits (SDM Vol. 3A 2.5). */
#define X86_CR4_PGE (1UL << 7)
#define X86_CR4_SMEP (1UL << 20)
#define X86_CR4_SMAP (1UL << 21)

#define MSR_EFER 0xC0000080
#define MSR_FS_BASE 0xC0000100
#define MSR_GS_BASE 0xC0000101
#define MSR_KERNEL_GS_BASE 0xC0000102
#define MSR_APIC_BASE 0x1B
#define EFER_NXE (1UL << 11)

static __always_inline void outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" ::"a"(v), "Nd"(port));
}
static __always_inline void outl(u16 port, u32 v)
{
	__asm__ __volatile__("outl %0, %1" ::"a"(v), "Nd"(port));
}
static __always_inline void outw(u16 port, u16 v)
{
	__asm__ __volatile__("outw %0, %1" ::"a"(v), "Nd"(port));
}
static __always_inline u16 inw(u16 port)
{
	u16 v;
	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static __always_inline u8 inb(u16 port)
{
	u8 v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static __always_inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}
static __always_inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" ::"c"(msr), "a"((u32)v), "d"((u32)(v >> 32))
			     : "memory");
}

static __always_inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c,
					u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}
static __always_inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	cpuid_count(leaf, 0, a, b, c, d);
}

/* RDTSC is not ordered against earlier loads/stores; lfence before it
 * makes it wait for earlier instructions (SDM Vol. 2B, RDTSC). */
static __always_inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((u64)hi << 32) | lo;
}

#define DEFINE_CR(n)                                                          \
	static __always_inline u64 read_cr##n(void)                           \
	{                                                                     \
		u64 v;                                                        \
		__asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v));         \
		return v;                                                     \
	}                                                                     \
	static __always_inline void write_cr##n(u64 v)                        \
	{                                                                     \
		__asm__ __volatile__("mov %0, %%cr" #n ::"r"(v) : "memory");  \
	}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static __always_inline void invlpg(u64 va)
{
	__asm__ __volatile__("invlpg (%0)" ::"r"(va) : "memory");
}

/* The spin-wait hint. Under QEMU's -icount the vCPUs run one at a time and
 * `pause` is where QEMU switches to the next one (QEMU's helper_pause in
 * target/i386/tcg/misc_helper.c leaves the vCPU's loop): every spin
 * loop in fold must call this. */
static __always_inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

static __always_inline void local_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}
static __always_inline void local_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}
static __always_inline u64 read_rflags(void)
{
	u64 f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f)::"memory");
	return f;
}
static __always_inline bool irqs_disabled(void)
{
	return !(read_rflags() & X86_EFLAGS_IF);
}
static __always_inline u64 local_irq_save(void)
{
	u64 f = read_rflags();
	local_irq_disable();
	return f;
}
static __always_inline void local_irq_restore(u64 f)
{
	if (f & X86_EFLAGS_IF)
		local_irq_enable();
}
/* sti takes effect after the next instruction (SDM Vol. 2B, STI), so
 * "sti; hlt" cannot lose a wake-up interrupt between the two. */
static __always_inline void safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}
static __always_inline void halt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

static __always_inline u64 read_rbp(void)
{
	u64 v;
	__asm__ __volatile__("mov %%rbp, %0" : "=r"(v));
	return v;
}
static __always_inline u64 read_rsp(void)
{
	u64 v;
	__asm__ __volatile__("mov %%rsp, %0" : "=r"(v));
	return v;
}

/* a * b / c with a 128-bit intermediate: MUL leaves the product in
 * RDX:RAX and DIV divides it (SDM Vol. 2A, DIV). The caller guarantees the
 * quotient fits in 64 bits (else #DE). Linux: mul_u64_u64_div_u64. */
static __always_inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	u64 q, rdx;
	__asm__("mulq %3\n\tdivq %4" : "=a"(q), "=&d"(rdx) : "a"(a), "rm"(b), "rm"(c));
	return q;
}

#endif
