/* Turning the syscall instruction on, per CPU (SDM Vol. 2B SYSCALL;
 * Vol. 3A 5.8.8 "Fast System Calls in 64-Bit Mode"; Vol. 4 for the MSR
 * numbers). The entry itself is arch/x86_64/entry/syscall_64.asm. */
#include "arch/x86_64/entry/syscall.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/cpu.h"

#define MSR_STAR 0xC0000081
#define MSR_LSTAR 0xC0000082
#define MSR_FMASK 0xC0000084
#define EFER_SCE (1UL << 0)

/* The RFLAGS bits SYSCALL clears (Linux's list, arch/x86/kernel/cpu/
 * common.c): IF, so the entry runs with interrupts off until it is on the
 * kernel stack; TF, so a user single-step does not trap on the kernel's
 * first instruction; DF, which the C ABI wants clear; AC, so a user's
 * AC=1 does not switch SMAP off in the kernel; NT, IOPL and the
 * arithmetic flags, so the kernel starts from a known state. */
#define SYSCALL_FMASK (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
		       X86_EFLAGS_SF | X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | \
		       X86_EFLAGS_OF | X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_RF | \
		       X86_EFLAGS_AC | X86_EFLAGS_ID)

void syscall_init(void)
{
	/* STAR[47:32]: SYSCALL's CS (SS = CS + 8). STAR[63:48]: SYSRET's
	 * base; 64-bit SYSRET loads CS = base + 16 and SS = base + 8, RPL 3
	 * (the GDT's order, arch/x86_64/kernel/gdt.h). */
	wrmsr(MSR_STAR, ((u64)(USER32_CS_SLOT | 3) << 48) | ((u64)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)entry_SYSCALL_64);
	wrmsr(MSR_FMASK, SYSCALL_FMASK);
	wrmsr(MSR_KERNEL_GS_BASE, 0); /* the user's GS base, swapped in at exit */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}
