/* Non-maskable interrupts (arch/x86_64/kernel/nmi.c). */
#ifndef FOLD_ARCH_NMI_H
#define FOLD_ARCH_NMI_H
#include "lib/types.h"
struct pt_regs;

/* The NMI's work, from the paranoid entry (arch/x86_64/entry/entry.asm). */
void do_nmi(struct pt_regs *regs);
/* A test's handler for every NMI (NULL: none); the tests' NMIs are the
 * only ones fold expects besides the panic's. */
void nmi_set_test_handler(void (*fn)(struct pt_regs *regs));
/* An NMI to `cpu` through its local APIC (SDM Vol. 3A 12.6.1, delivery
 * mode NMI: the vector field is ignored). */
void arch_send_nmi(u32 cpu);
#endif
