/* The syscall instruction's MSRs (arch/x86_64/entry/syscall.c) and its entry
 * (arch/x86_64/entry/syscall_64.asm). */
#ifndef FOLD_ARCH_SYSCALL_H
#define FOLD_ARCH_SYSCALL_H
#include "lib/types.h"

/* STAR, LSTAR, FMASK, EFER.SCE on this CPU. */
void syscall_init(void);
/* IA32_LSTAR's target. */
void entry_SYSCALL_64(void);
#endif
