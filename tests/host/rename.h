/* Force-included (-include) into every host-test compile, lib sources and
 * tests alike. It lets lib/ code that defines memcpy, strlen, snprintf...
 * run on the host next to the C library that defines the same names.
 *
 * How: the libc headers the tests use are included FIRST, under the real
 * names, and their include guards stop them from being read again. Only
 * then are the lib names #defined to fold_*. From here on, every lib
 * definition, lib declaration and test call of memcpy is really
 * fold_memcpy, a separate symbol, while libc keeps its own memcpy for
 * printf, ASan and the compiler's implicit calls. Nothing is linked twice
 * and nothing is interposed, so a bug in fold's memcpy cannot crash the
 * test framework that is trying to report it.
 *
 * Tests include only libc headers listed here (later ones are read with
 * the renames active). The host_* wrappers give tests libc's versions, as
 * references to compare against, under names the renames do not touch. */
#ifndef FOLD_TESTS_HOST_RENAME_H
#define FOLD_TESTS_HOST_RENAME_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glibc's <sys/cdefs.h> has its own __always_inline; lib/types.h's
 * definition wins from here on (the libc headers are already parsed). */
#undef __always_inline

static inline int host_strcmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

static inline int host_strncmp(const char *a, const char *b, size_t n)
{
	return strncmp(a, b, n);
}

static inline int host_memcmp(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n);
}

static inline void *host_memcpy(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n);
}

static inline void *host_memset(void *d, int c, size_t n)
{
	return memset(d, c, n);
}

static inline size_t host_strlen(const char *s)
{
	return strlen(s);
}

static inline int host_vsnprintf(char *buf, size_t size, const char *fmt,
				 va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

#define memset fold_memset
#define memcpy fold_memcpy
#define memmove fold_memmove
#define memcmp fold_memcmp
#define strlen fold_strlen
#define strnlen fold_strnlen
#define strcmp fold_strcmp
#define strncmp fold_strncmp
#define strchr fold_strchr
#define strrchr fold_strrchr
#define strstr fold_strstr
#define strlcpy fold_strlcpy
#define vsnprintf fold_vsnprintf
#define snprintf fold_snprintf

#endif
