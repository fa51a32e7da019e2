/* Loading a boot module's ELF image into a new address space
 * (process/exec.c). */
#ifndef FOLD_KERNEL_EXEC_H
#define FOLD_KERNEL_EXEC_H
#include "lib/types.h"

struct process;
struct boot_module;
/* p->mm, p->entry and p->user_sp for module m started with argv[0..argc):
 * 0, -ENOEXEC (the reason is printed), -E2BIG or -ENOMEM. */
int exec_load(struct process *p, const struct boot_module *m, int argc,
	      const char *const argv[]);
#endif
