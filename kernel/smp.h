#ifndef FOLD_KERNEL_SMP_H
#define FOLD_KERNEL_SMP_H
#include "lib/types.h"
void smp_stop_other_cpus(void);
#endif
