#ifndef FOLD_ARCH_SMPBOOT_H
#define FOLD_ARCH_SMPBOOT_H
#include "lib/types.h"
/* Start every enabled CPU the MADT lists (up to maxcpus=), then print
 * how many are online. */
void smp_boot_aps(void);
/* maxcpus=: at most this many CPUs, 0 for all (Linux's setup_max_cpus). */
extern u32 setup_max_cpus;
#endif
