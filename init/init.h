/* After boot: run what the command line asks for (init/init.c). */
#ifndef FOLD_KERNEL_INIT_H
#define FOLD_KERNEL_INIT_H
#include "lib/types.h"
__noreturn void kernel_init_run(void);
#endif
