/* The explorer's kernel/panic.h: BUG() and report_bug() are violations
 * of the scenario (tests/explore/shim.c). */
#ifndef FOLD_KERNEL_PANIC_H
#define FOLD_KERNEL_PANIC_H

#include "lib/types.h"

__printf(1, 2) __noreturn void panic(const char *fmt, ...);
#define BUG(fmt, ...) panic("BUG: " fmt " (%s:%d)", ##__VA_ARGS__, __FILE__, __LINE__)
#define BUG_ON(cond)                                                          \
	do {                                                                  \
		if (unlikely(cond))                                           \
			panic("BUG: %s (%s:%d)", #cond, __FILE__, __LINE__); \
	} while (0)
__printf(1, 2) void report_bug(const char *fmt, ...);
void dump_stack(void);

#endif
