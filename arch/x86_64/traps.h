#ifndef FOLD_ARCH_TRAPS_H
#define FOLD_ARCH_TRAPS_H
#include "lib/types.h"
struct pt_regs;
void do_exception(struct pt_regs *regs);
const char *exception_name(int vector);
const char *exception_mnemonic(int vector);
#endif
