/* Parsing helpers; contracts in lib/parse.h. */
#include "lib/parse.h"
#include "lib/string.h"

/* Value of a digit in base 16 or lower, or 16 for "not a digit". */
static unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A' + 10);
	return 16;
}

int parse_u64(const char *s, u64 *out)
{
	unsigned base = 10, d;
	const char *digits;
	u64 v = 0, mult = 1;

	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (digits = s; (d = digit_value(*s)) < base; s++) {
		/* v * base + d must not exceed UINT64_MAX. */
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	if (s == digits)
		return -1;	/* "", "0x", "K" */

	if (base == 10) {
		switch (*s) {
		case 'K': case 'k': mult = 1000; s++; break;
		case 'M': case 'm': mult = 1000000; s++; break;
		case 'G': case 'g': mult = 1000000000; s++; break;
		default: break;
		}
	}
	if (*s)
		return -1;	/* trailing junk, or a multiple after hex */
	if (v > UINT64_MAX / mult)
		return -1;	/* the multiple would overflow */
	*out = v * mult;
	return 0;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool equal_nocase(const char *a, const char *b)
{
	for (; *a && lower(*a) == lower(*b); a++, b++)
		;
	return lower(*a) == lower(*b);
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };

	if (!s)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (equal_nocase(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (equal_nocase(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int match_word(const char *s, const char *const *words, size_t n)
{
	if (!s)
		return -1;
	for (size_t i = 0; i < n && i <= INT32_MAX; i++)
		if (words[i] && !strcmp(s, words[i]))
			return (int)i;
	return -1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

size_t split_words(char *line, char **argv, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			return n;
		if (n == max)
			return max + 1;	/* one word too many: stop here */
		argv[n++] = p;
		while (*p && !is_blank(*p))
			p++;
		if (!*p)
			return n;
		*p++ = '\0';
	}
}
