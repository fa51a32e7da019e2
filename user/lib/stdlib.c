/* strtoul and friends, written for argument parsing: no locale, no errno. */
#include "user/lib/stdlib.h"
#include "user/lib/stdio.h"
#include "lib/string.h"

#define ULONG_MAX (~0UL)
#define LONG_MAX ((long)(ULONG_MAX >> 1))
#define LONG_MIN_MAGNITUDE (1UL << 63)

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* The digits after any sign: shared by strtoul and strtol. */
static unsigned long parse_digits(const char *s, const char **end, int base,
				  bool *overflow)
{
	unsigned long v = 0;
	const char *p = s;
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    digit_value(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	*overflow = false;
	const char *first = p;
	for (; digit_value(*p) < base; p++) {
		unsigned d = (unsigned)digit_value(*p);
		if (v > (ULONG_MAX - d) / (unsigned)base)
			*overflow = true;
		else
			v = v * (unsigned)base + d;
	}
	*end = p == first ? NULL : p;
	return *overflow ? ULONG_MAX : v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	const char *p = s, *stop;
	bool overflow, neg = false;
	if (base < 0 || base == 1 || base > 36) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	unsigned long v = parse_digits(p, &stop, base, &overflow);
	if (end)
		*end = (char *)(stop ? stop : s);
	if (!stop)
		return 0;
	return neg && !overflow ? -v : v;   /* C: a '-' negates in unsigned */
}

long strtol(const char *s, char **end, int base)
{
	const char *p = s, *stop;
	bool overflow;
	if (base < 0 || base == 1 || base > 36) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	bool neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	unsigned long v = parse_digits(p, &stop, base, &overflow);
	if (end)
		*end = (char *)(stop ? stop : s);
	if (!stop)
		return 0;
	if (neg)                           /* clamped to LONG_MIN, LONG_MAX */
		return v >= LONG_MIN_MAGNITUDE ? (long)LONG_MIN_MAGNITUDE : -(long)v;
	return v > LONG_MAX ? LONG_MAX : (long)v;
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

int parse_ulong(const char *s, unsigned long *out)
{
	const char *stop;
	bool overflow;
	if (!s || !*s || *s == ' ' || *s == '+' || *s == '-')
		return -1;
	unsigned long v = parse_digits(s, &stop, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10,
				       &overflow);
	if (!stop || *stop || overflow)
		return -1;
	*out = v;
	return 0;
}

int parse_option(const char *arg, const char *key, unsigned long *out)
{
	size_t n = strlen(key);
	if (strncmp(arg, key, n) || arg[n] != '=')
		return 0;
	if (parse_ulong(arg + n + 1, out)) {
		dprintf(STDERR_FILENO, "%s: expected a number, got '%s'\n", key, arg + n + 1);
		return -1;
	}
	return 1;
}
