/* Boot modules: the files GRUB loaded beside the kernel (multiboot2 spec
 * 3.6.6), found by name. scripts/mkiso.sh loads each user program as
 * `module2 /boot/user/NAME NAME`, so a module's name is its program's. */
#ifndef FOLD_KERNEL_MODULE_H
#define FOLD_KERNEL_MODULE_H
#include "lib/types.h"

#define MODULE_NAME_MAX 32

struct boot_module {
	char name[MODULE_NAME_MAX];
	const void *data;              /* through the direct map */
	size_t size;
};

/* After vm_init() (the direct map): the table from the boot information,
 * one line saying what is there, a warning per module that was dropped
 * or is not a user program. */
void module_init(void);
const struct boot_module *module_find(const char *name); /* NULL if none */
u32 module_count(void);
const struct boot_module *module_at(u32 i);              /* NULL past the end */
#endif
