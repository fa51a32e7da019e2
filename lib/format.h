/* printf-style formatting without libc.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %%
 * Flags:       '-' left-justify, '0' zero-pad (numbers only; ignored with
 *              '-' or a precision), '+' and ' ' sign for %d/%i,
 *              '#' 0x/0X prefix for nonzero %x/%X, leading 0 for %o.
 * Width and precision as in C99, either may be '*' (a negative '*' width
 * means '-' plus its magnitude; a negative '*' precision means none).
 * Width and precision saturate at FORMAT_MAX_WIDTH.
 * Length modifiers: hh h l ll z t j.
 * %s of NULL prints "(null)"; %p prints "0x" and exactly 16 hex digits.
 * An unknown or unfinished conversion (including %n, which is deliberately
 * unsupported) is copied to the output verbatim so the mistake is visible.
 * No %pS here: the kernel's symbolizer adds that on top. */
#ifndef FOLD_LIB_FORMAT_H
#define FOLD_LIB_FORMAT_H

#include "lib/types.h"

#define FORMAT_MAX_WIDTH 4096

/* The core: formats through emit(), one character at a time, and returns
 * the number of characters emitted (clamped to INT_MAX). A console printk
 * passes a function that writes to the UART; vsnprintf passes one that
 * fills a buffer. */
int vcbprintf(void (*emit)(char c, void *ctx), void *ctx, const char *fmt,
	      va_list ap);

/* C99 semantics: returns the length the full output would have had (not
 * counting the NUL), so truncation shows as "return value >= size"; always
 * NUL-terminates when size > 0; buf may be NULL when size is 0. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
