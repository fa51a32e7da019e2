/* The C entry (init/main.c), called by boot/entry.asm in 64-bit mode. */
#ifndef FOLD_KERNEL_MAIN_H
#define FOLD_KERNEL_MAIN_H
#include "lib/types.h"
void kmain(u64 multiboot_info_phys);
#endif
