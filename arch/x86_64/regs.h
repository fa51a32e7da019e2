/* The register frame the common interrupt entry builds on the stack
 * (arch/x86_64/entry/entry.asm pushes it in reverse order of these fields). The
 * last five are what the CPU pushed itself (SDM Vol. 3A 7.14.2, "Stack
 * usage on transfers to interrupt and exception-handling routines", 64-bit
 * mode always pushes SS:RSP). */
#ifndef FOLD_ARCH_REGS_H
#define FOLD_ARCH_REGS_H
#include "lib/types.h"

struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector;
	u64 error_code; /* the CPU's, or 0 for vectors without one */
	u64 rip, cs, rflags, rsp, ss;
};

#endif
