#ifndef FOLD_ARCH_SMPBOOT_H
#define FOLD_ARCH_SMPBOOT_H
#include "lib/types.h"
/* Start every enabled CPU the MADT lists; returns how many are online. */
u32 smp_boot_aps(void);
#endif
