/* The explorer's kernel/printk.h: the one tests/explore/shim/ has. */
#include "tests/explore/shim/kernel/printk.h"
