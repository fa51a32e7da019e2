/* The explorer's kernel/printk.h: a message goes to the step log. */
#ifndef FOLD_KERNEL_PRINTK_H
#define FOLD_KERNEL_PRINTK_H

#include "lib/types.h"

__printf(1, 2) int printk(const char *fmt, ...);
#define pr_err(...) printk(__VA_ARGS__)
#define pr_warn(...) printk(__VA_ARGS__)
#define pr_info(...) printk(__VA_ARGS__)

#endif
