#ifndef FOLD_ARCH_TRAPS_H
#define FOLD_ARCH_TRAPS_H
#include "lib/types.h"
struct pt_regs;
void do_exception(struct pt_regs *regs);
const char *exception_name(int vector);
const char *exception_mnemonic(int vector);
/* The IRETQ of the return to ring 3 (arch/x86_64/entry/entry.asm): a fault
 * there is the process's, not the kernel's. */
extern const char native_irq_return_user_iret[];
#endif
