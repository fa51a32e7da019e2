#ifndef FOLD_ARCH_GDT_H
#define FOLD_ARCH_GDT_H
#include "lib/types.h"

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define TSS_SEL 0x18

/* IST slots (1-based in the IDT gate; 0 = no stack switch). */
#define IST_DF 1
#define IST_NMI 2
#define IST_MC 3

void gdt_init_cpu(u32 cpu);
#endif
