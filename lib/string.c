/* Memory and string primitives.
 *
 * memset, memcpy and the forward half of memmove use the x86 string
 * instructions rather than C loops. Two reasons:
 *  - GCC's loop-idiom recognition (-ftree-loop-distribute-patterns, on at
 *    -O2) turns a byte-copy loop into a call to memcpy. Inside memcpy itself
 *    that call is infinite recursion; -fno-builtin does not stop it.
 *  - On CPUs with ERMS ("enhanced rep movsb/stosb") one rep instruction is
 *    as fast as a hand-unrolled loop, and it is one line to step over in GDB.
 * The ABI guarantees the direction flag is clear on function entry, so the
 * instructions run forwards. The backward copy never sets DF (an interrupt
 * taken with DF=1 would break any handler that does not clear it); it is a
 * C loop with a compiler barrier that keeps GCC from recognising it as a
 * memmove idiom. The str* functions are plain C: they are not hot here. */
#include "lib/string.h"

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

	__asm__ __volatile__("rep stosb"
			     : "+D"(d), "+c"(n)
			     : "a"(c)
			     : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ __volatile__("rep movsb"
			     : "+D"(d), "+S"(src), "+c"(n)
			     :
			     : "memory");
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* A forward copy is correct whenever dst is below src (each byte is
	 * read before it can be overwritten) or the ranges do not overlap;
	 * rep movsb is architecturally byte-by-byte, so overlap is fine. */
	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);

	/* dst overlaps the tail of src: copy from the end. */
	while (n--) {
		d[n] = s[n];
		barrier();	/* not a memmove idiom: see the top of the file */
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	/* Test the bound first: s may be a buffer without a terminator,
	 * exactly maxlen bytes long (printf's "%.*s"). */
	while (n < maxlen && s[n])
		n++;
	return n;
}

/* C says the comparison functions compare bytes as unsigned char. */
int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q)
		p++, q++;
	return (*p > *q) - (*p < *q);
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
		if (!*p)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	/* Quadratic in the worst case; fine for command lines and test names. */
	for (; *haystack; haystack++)
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
