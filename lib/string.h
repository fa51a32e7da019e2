/* Memory and string primitives with their standard C names and signatures.
 * The kernel has no libc, and GCC is free to emit calls to memcpy, memmove,
 * memset and memcmp on its own (struct copies, large initialisers) even with
 * -ffreestanding, so these names must exist exactly as declared here. */
#ifndef FOLD_LIB_STRING_H
#define FOLD_LIB_STRING_H

#include "lib/types.h"

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);	/* no overlap */
void *memmove(void *dst, const void *src, size_t n);	/* overlap ok */
int memcmp(const void *a, const void *b, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);	/* reads at most maxlen */
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);	/* c == 0 finds the terminator */
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);	/* "" matches at once */

/* BSD strlcpy: copies at most size-1 bytes, always NUL-terminates when
 * size > 0, and returns strlen(src) so that truncation is detectable as
 * "return value >= size". */
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
