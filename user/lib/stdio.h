/* Console output for user programs: printf-style formatting (lib/format.c,
 * the kernel's own formatter, compiled again for user space) written with
 * the write system call. Integers, strings, characters and pointers only:
 * user code has no floating point (-mgeneral-regs-only). snprintf and
 * vsnprintf are lib/format.h's. */
#ifndef FOLD_USER_STDIO_H
#define FOLD_USER_STDIO_H
#include "lib/types.h"
#include "lib/format.h"

#define STDOUT_FILENO 1
#define STDERR_FILENO 2

/* Each returns the number of characters written, or the first negative
 * value write returned (-errno). A call's output goes out in writes of up
 * to 256 bytes, so a line shorter than that is one write. */
__printf(1, 2) int printf(const char *fmt, ...);
__printf(2, 3) int dprintf(int fd, const char *fmt, ...);
int vdprintf(int fd, const char *fmt, va_list ap);
int puts(const char *s);           /* s and a newline, to stdout */
int putchar(int c);
#endif
