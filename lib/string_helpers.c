/* Escaping user input; contract in lib/string_helpers.h. */
#include "lib/string_helpers.h"

static size_t escaped_len(unsigned char c)
{
	return c >= 0x20 && c < 0x7f ? 1 : 4;
}

const char *string_escape_str(const char *src, char *dst, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t total = 0, limit, n = 0;

	if (size == 0)
		return dst;
	for (const char *p = src; *p; p++)
		total += escaped_len((unsigned char)*p);
	/* All of it, or as much as leaves room for "..." and the NUL. */
	limit = total < size ? total : size >= 4 ? size - 4 : size - 1;
	for (; *src && n + escaped_len((unsigned char)*src) <= limit; src++) {
		unsigned char c = (unsigned char)*src;
		if (escaped_len(c) == 1) {
			dst[n++] = (char)c;
		} else {
			dst[n++] = '\\';
			dst[n++] = 'x';
			dst[n++] = hex[c >> 4];
			dst[n++] = hex[c & 15];
		}
	}
	if (*src && size >= 4)
		for (int i = 0; i < 3; i++)
			dst[n++] = '.';
	dst[n] = 0;
	return dst;
}
