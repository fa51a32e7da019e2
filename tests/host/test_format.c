/* Host tests for lib/format.c: hand-picked edge cases with their expected
 * text, plus a differential sweep comparing thousands of flag / width /
 * precision / length / value combinations against the C library's
 * vsnprintf, which implements the same C99 rules. */
#include "lib/format.h"
#include "lib/string.h"
#include "tests/host/check.h"

/* Formats through fold's vsnprintf without -Wformat looking at the
 * format, for cases the compiler would (rightly) warn about. */
static int fmt_raw(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* The same through libc, as the reference. */
static int libc_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = host_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Checks both the text and the C99 return value (its length). */
#define CHECK_FMT(expected, ...)                                        \
	do {                                                            \
		char b_[256];                                           \
		int n_ = snprintf(b_, sizeof(b_), __VA_ARGS__);         \
		CHECK_STREQ(expected, b_);                              \
		CHECK_EQ_S64((long long)host_strlen(expected), n_);     \
	} while (0)

#define CHECK_FMT_RAW(expected, ...)                                    \
	do {                                                            \
		char b_[256];                                           \
		int n_ = fmt_raw(b_, sizeof(b_), __VA_ARGS__);          \
		CHECK_STREQ(expected, b_);                              \
		CHECK_EQ_S64((long long)host_strlen(expected), n_);     \
	} while (0)

static void t_plain(void)
{
	CHECK_FMT("", "%s", "");
	CHECK_FMT("hello", "hello");
	CHECK_FMT("100%", "100%%");
	CHECK_FMT("a1b", "a%db", 1);
	CHECK_FMT("x=42 y=-7 s=str c=Z", "x=%d y=%i s=%s c=%c", 42, -7,
		  "str", 'Z');
}

static void t_integers(void)
{
	CHECK_FMT("0", "%d", 0);
	CHECK_FMT("-1", "%d", -1);
	CHECK_FMT("2147483647", "%d", INT_MAX);
	CHECK_FMT("-2147483648", "%d", INT_MIN);
	CHECK_FMT("4294967295", "%u", UINT_MAX);
	CHECK_FMT("9223372036854775807", "%lld", LLONG_MAX);
	CHECK_FMT("-9223372036854775808", "%lld", LLONG_MIN);
	CHECK_FMT("-9223372036854775808", "%ld", LONG_MIN);
	CHECK_FMT("-9223372036854775808", "%jd", INTMAX_MIN);
	CHECK_FMT("18446744073709551615", "%llu", ULLONG_MAX);
	CHECK_FMT("ffffffffffffffff", "%llx", -1LL);
	CHECK_FMT("FFFFFFFFFFFFFFFF", "%llX", ULLONG_MAX);
	CHECK_FMT("1777777777777777777777", "%llo", ULLONG_MAX);
	CHECK_FMT("deadbeef DEADBEEF", "%x %X", 0xdeadbeefu, 0xdeadbeefu);
	CHECK_FMT("17", "%o", 15);
	CHECK_FMT("8000000000000000", "%llx", 0x8000000000000000ULL);
}

static void t_length_modifiers(void)
{
	/* Out-of-range ints for hh and h on purpose: RAW keeps clang's
	 * -Wformat from objecting. */
	CHECK_FMT_RAW("3", "%hhu", 259);		/* cut to unsigned char */
	CHECK_FMT_RAW("-1", "%hhd", 255);		/* cut to signed char */
	CHECK_FMT_RAW("-128", "%hhd", 128);
	CHECK_FMT_RAW("ff", "%hhx", -1);
	CHECK_FMT_RAW("-1", "%hd", 65535);
	CHECK_FMT_RAW("65535", "%hu", -1);
	CHECK_FMT_RAW("-32768", "%hi", 32768);
	CHECK_FMT("18446744073709551615", "%zu", SIZE_MAX);
	CHECK_FMT("-5", "%zd", (long)-5);
	CHECK_FMT("-1", "%td", (ptrdiff_t)-1);
	CHECK_FMT("ffffffffffffffff", "%tx", (ptrdiff_t)-1);
	CHECK_FMT("18446744073709551615", "%ju", UINTMAX_MAX);
	CHECK_FMT("4294967296", "%lu", 1UL << 32);
	/* Without l, only the low 32 bits of a 64-bit value are read. */
	CHECK_FMT_RAW("0 1", "%u %d", 1ULL << 32, 1);
}

static void t_flags(void)
{
	CHECK_FMT("0xff", "%#x", 255);
	CHECK_FMT("0XFF", "%#X", 255);
	CHECK_FMT("0", "%#x", 0);		/* no prefix on zero */
	CHECK_FMT("017", "%#o", 15);
	CHECK_FMT("0", "%#o", 0);
	CHECK_FMT("0", "%#.0o", 0);		/* '#' forces the digit */
	CHECK_FMT("00017", "%#.5o", 15);	/* already starts with 0 */
	CHECK_FMT("+5", "%+d", 5);
	CHECK_FMT("-5", "%+d", -5);
	CHECK_FMT("+0", "%+d", 0);
	CHECK_FMT(" 5", "% d", 5);
	CHECK_FMT("-5", "% d", -5);
	CHECK_FMT_RAW("+5", "%+ d", 5);		/* '+' beats ' ' */
	CHECK_FMT_RAW("5", "%+u", 5u);		/* no sign on unsigned */
	CHECK_FMT("-0042", "%05d", -42);	/* zeros after the sign */
	CHECK_FMT("+0042", "%+05d", 42);
	CHECK_FMT("0x00ff", "%#06x", 255);	/* zeros after the prefix */
	CHECK_FMT_RAW("5    |", "%-05d|", 5);	/* '-' beats '0' */
	CHECK_FMT_RAW("     005", "%08.3d", 5);	/* precision beats '0' */
	CHECK_FMT("ab   |", "%-5s|", "ab");
	CHECK_FMT("   ab|", "%5s|", "ab");
	CHECK_FMT("x    |", "%-5c|", 'x');
	CHECK_FMT("    x|", "%5c|", 'x');
}

static void t_width_precision(void)
{
	CHECK_FMT("   42", "%5d", 42);
	CHECK_FMT("42   ", "%-5d", 42);
	CHECK_FMT("123456", "%3d", 123456);	/* width is a minimum */
	CHECK_FMT("00042", "%.5d", 42);
	CHECK_FMT("-00042", "%.5d", -42);
	CHECK_FMT("", "%.0d", 0);		/* zero, precision 0: nothing */
	CHECK_FMT("     ", "%5.0d", 0);
	CHECK_FMT("", "%.d", 0);		/* "." alone is precision 0 */
	CHECK_FMT("0x", "0x%.0x", 0);
	CHECK_FMT("+", "%+.0d", 0);
	CHECK_FMT("abc", "%.3s", "abcdef");
	CHECK_FMT("  abc", "%5.3s", "abcdef");
	CHECK_FMT("", "%.0s", "abc");
	CHECK_FMT("abcdef", "%.10s", "abcdef");
	CHECK_FMT("   42", "%*d", 5, 42);
	CHECK_FMT("42   |", "%*d|", -5, 42);	/* negative '*' width: '-' */
	CHECK_FMT("00042", "%.*d", 5, 42);
	CHECK_FMT("42", "%.*d", -1, 42);	/* negative '*' precision: none */
	CHECK_FMT("  abc", "%*.*s", 5, 3, "abcdef");
	CHECK_FMT("000000000000000000000000000001",
		  "%.30d", 1);			/* more zeros than digits */
}

static void t_width_saturates(void)
{
	char *big = malloc(FORMAT_MAX_WIDTH + 16);

	CHECK_EQ_S64(FORMAT_MAX_WIDTH,
		     fmt_raw(big, FORMAT_MAX_WIDTH + 16, "%99999999999d", 1));
	CHECK_EQ_U64(FORMAT_MAX_WIDTH, host_strlen(big));
	CHECK_EQ_S64(FORMAT_MAX_WIDTH, fmt_raw(NULL, 0, "%*d", INT_MIN, 1));
	CHECK_EQ_S64(FORMAT_MAX_WIDTH, fmt_raw(NULL, 0, "%.*d", INT_MAX, 1));
	free(big);
}

static void t_strings_and_chars(void)
{
	char *raw = malloc(3);	/* not NUL-terminated; ASan guards the end */

	CHECK_FMT_RAW("(null)", "%s", (char *)NULL);
	CHECK_FMT_RAW("[    (null)]", "[%10s]", (char *)NULL);
	raw[0] = 'a';
	raw[1] = 'b';
	raw[2] = 'c';
	CHECK_FMT("abc", "%.3s", raw);		/* must not read raw[3] */
	CHECK_FMT("ab", "%.*s", 2, raw);
	free(raw);
	CHECK_FMT("A", "%c", 'A');
	CHECK_FMT("\xe9", "%c", 0xe9);
	{
		char b[8];
		/* %c of NUL emits a NUL and counts it. */
		CHECK_EQ_S64(3, snprintf(b, sizeof(b), "a%cb", 0));
		CHECK(b[0] == 'a' && b[1] == 0 && b[2] == 'b' && b[3] == 0);
	}
}

static void t_pointer(void)
{
	CHECK_FMT("0x0000000000000000", "%p", (void *)0);
	CHECK_FMT("0xffff800000001000", "%p", (void *)0xffff800000001000ULL);
	CHECK_FMT("0x00000000deadbeef", "%p", (void *)0xdeadbeefULL);
	CHECK_FMT("  0x0000000000000001", "%20p", (void *)1);
	CHECK_FMT("0x0000000000000001  |", "%-20p|", (void *)1);
	CHECK_FMT("0x0000000000000001", "%5p", (void *)1);
	/* '0', '+', ' ' and '#' do not change the fixed shape. */
	CHECK_FMT_RAW("0x0000000000000001", "%+#0p", (void *)1);
	CHECK_FMT_RAW("  0x0000000000000001", "%020p", (void *)1);
}

static void t_bad_specs(void)
{
	/* Unknown, unsupported (%n) and unfinished conversions are copied
	 * out verbatim, and consume no argument. */
	CHECK_FMT_RAW("%q", "%q");
	CHECK_FMT_RAW("a%-5qb", "a%-5qb");
	CHECK_FMT_RAW("%n 7", "%n %d", 7);
	CHECK_FMT_RAW("abc%", "abc%");
	CHECK_FMT_RAW("x%-5", "x%-5");
	CHECK_FMT_RAW("%ll", "%ll");
	CHECK_FMT_RAW("%.", "%.");
}

/* C99 return values and termination when the buffer is too small; the
 * bytes past the buffer must never be touched. */
static void t_truncation(void)
{
	char b[16];

	CHECK_EQ_S64(5, snprintf(NULL, 0, "%d", 12345));
	memset(b, 'x', sizeof(b));
	CHECK_EQ_S64(5, snprintf(b, 0, "%d", 12345));
	CHECK_EQ_U64('x', b[0]);			/* size 0: no write */
	CHECK_EQ_S64(5, snprintf(b, 1, "%d", 12345));
	CHECK_EQ_U64(0, b[0]);
	CHECK_EQ_U64('x', b[1]);
	memset(b, 'x', sizeof(b));
	CHECK_EQ_S64(5, snprintf(b, 3, "%d", 12345));
	CHECK_STREQ("12", b);
	CHECK_EQ_U64('x', b[3]);
	CHECK_EQ_S64(5, snprintf(b, 5, "%d", 12345));	/* one short */
	CHECK_STREQ("1234", b);
	CHECK_EQ_S64(5, snprintf(b, 6, "%d", 12345));	/* exact fit */
	CHECK_STREQ("12345", b);
	memset(b, 'x', sizeof(b));
	CHECK_EQ_S64(10, snprintf(b, 4, "%10d", 1));
	CHECK_STREQ("   ", b);
	CHECK_EQ_U64('x', b[4]);
	CHECK_EQ_S64(11, snprintf(b, 6, "%s %s", "hello", "world"));
	CHECK_STREQ("hello", b);
	CHECK_EQ_S64(0, snprintf(b, sizeof(b), "%s", ""));
	CHECK_STREQ("", b);

	/* Every size from 0 to past the end, against libc. */
	for (size_t size = 0; size < 40; size++) {
		char mine[48], ref[48];
		const char *f = "%-8s|%+06d|%#x|%c";

		memset(mine, '?', sizeof(mine));
		memset(ref, '?', sizeof(ref));
		int a = fmt_raw(mine, size, f, "ab", -12, 255, 'z');
		int r = libc_fmt(ref, size, f, "ab", -12, 255, 'z');

		CHECK_EQ_S64(r, a);
		CHECK(host_memcmp(mine, ref, sizeof(mine)) == 0);
	}
}

/* vcbprintf: the callback sees every character, in order, and the
 * return value counts them. */
struct sink {
	char buf[64];
	int n;
};

static void sink_emit(char c, void *ctx)
{
	struct sink *s = ctx;

	if (s->n < (int)sizeof(s->buf))
		s->buf[s->n] = c;
	s->n++;
}

static int cb(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vcbprintf(sink_emit, s, fmt, ap);
	va_end(ap);
	return n;
}

static void t_vcbprintf(void)
{
	struct sink s = { .n = 0 };

	CHECK_EQ_S64(12, cb(&s, "cpu%u: %s %c", 3u, "idle", '!'));
	CHECK_EQ_S64(12, s.n);
	CHECK(host_memcmp(s.buf, "cpu3: idle !", 12) == 0);
	s.n = 0;
	CHECK_EQ_S64(0, cb(&s, ""));
	CHECK_EQ_S64(0, s.n);
}

/* The differential sweep. */
static int sweep_failures;

static void compare(const char *f, ...)
{
	char mine[160], ref[160];
	va_list ap, aq;
	int a, r;

	va_start(ap, f);
	va_copy(aq, ap);
	a = vsnprintf(mine, sizeof(mine), f, ap);
	r = host_vsnprintf(ref, sizeof(ref), f, aq);
	va_end(aq);
	va_end(ap);
	if (a != r || host_strcmp(mine, ref) != 0) {
		if (sweep_failures++ < 10) {
			check_fail(__FILE__, __LINE__, "matches libc");
			printf("#   format \"%s\": libc \"%s\" (%d), fold \"%s\" (%d)\n",
			       f, ref, r, mine, a);
		} else {
			check_state.case_failed++;
		}
	}
}

static const long long sweep_values[] = {
	0, 1, -1, 7, -7, 42, 127, -128, 128, 255, 256, 32767, -32768, 65535,
	65536, 0x7fffffff, -0x7fffffff - 1, 0xffffffffLL, 0x123456789LL,
	LLONG_MAX, LLONG_MIN,
};

static const char *const sweep_lens[] = { "hh", "h", "", "l", "ll", "z", "t", "j" };

static void sweep_one(const char *f, char conv, const char *len, long long v)
{
	bool is_signed = conv == 'd' || conv == 'i';

	if (!strcmp(len, "") || !strcmp(len, "h") || !strcmp(len, "hh"))
		/* int-sized and narrower are passed as int */
		is_signed ? compare(f, (int)v) : compare(f, (unsigned)v);
	else if (!strcmp(len, "l"))
		is_signed ? compare(f, (long)v) : compare(f, (unsigned long)v);
	else if (!strcmp(len, "ll"))
		is_signed ? compare(f, v) : compare(f, (unsigned long long)v);
	else if (!strcmp(len, "z"))
		is_signed ? compare(f, (long)v) : compare(f, (size_t)v);
	else if (!strcmp(len, "t"))
		compare(f, (ptrdiff_t)v);
	else
		is_signed ? compare(f, (intmax_t)v) : compare(f, (uintmax_t)v);
}

static void t_sweep_integers(void)
{
	static const char convs[] = "diuxXo";
	static const char *const widths[] = { "", "1", "6", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".4", ".22" };
	static const char flagchars[] = "-0+ #";

	sweep_failures = 0;
	for (unsigned fl = 0; fl < 32; fl++) {
		char flags[8];
		int nf = 0;

		for (int k = 0; k < 5; k++)
			if (fl & (1u << k))
				flags[nf++] = flagchars[k];
		flags[nf] = 0;
		for (size_t c = 0; convs[c]; c++) {
			/* '#' is undefined for d, i and u. */
			if ((fl & 16) && strchr("diu", convs[c]))
				continue;
			for (size_t w = 0; w < ARRAY_SIZE(widths); w++)
			for (size_t p = 0; p < ARRAY_SIZE(precs); p++)
			for (size_t l = 0; l < ARRAY_SIZE(sweep_lens); l++) {
				char f[32];

				fmt_raw(f, sizeof(f), "[%%%s%s%s%s%c]", flags,
					widths[w], precs[p], sweep_lens[l],
					convs[c]);
				for (size_t v = 0; v < ARRAY_SIZE(sweep_values); v++)
					sweep_one(f, convs[c], sweep_lens[l],
						  sweep_values[v]);
			}
		}
	}
	if (sweep_failures)
		printf("# %d sweep mismatches\n", sweep_failures);
}

static void t_sweep_strings(void)
{
	static const char *const strs[] = { "", "a", "hello", "hello, world" };
	static const char *const widths[] = { "", "0", "1", "5", "20", "*" };
	static const char *const precs[] = { "", ".", ".0", ".3", ".12", ".*" };
	static const char *const flags[] = { "", "-" };
	static const int stars[] = { -9, -1, 0, 2, 7 };

	sweep_failures = 0;
	for (size_t fl = 0; fl < ARRAY_SIZE(flags); fl++)
	for (size_t w = 0; w < ARRAY_SIZE(widths); w++)
	for (size_t p = 0; p < ARRAY_SIZE(precs); p++) {
		char f[32];
		bool sw = !host_strcmp(widths[w], "*");
		bool sp = !host_strcmp(precs[p], ".*");

		fmt_raw(f, sizeof(f), "<%%%s%s%ss>", flags[fl], widths[w],
			precs[p]);
		for (size_t s = 0; s < ARRAY_SIZE(strs); s++)
		for (size_t i = 0; i < ARRAY_SIZE(stars); i++)
		for (size_t j = 0; j < ARRAY_SIZE(stars); j++) {
			if (sw && sp)
				compare(f, stars[i], stars[j], strs[s]);
			else if (sw)
				compare(f, stars[i], strs[s]);
			else if (sp)
				compare(f, stars[j], strs[s]);
			else
				compare(f, strs[s]);
		}
		fmt_raw(f, sizeof(f), "<%%%s%sc>", flags[fl], widths[w]);
		if (!sw)
			compare(f, 'q');
		else
			for (size_t i = 0; i < ARRAY_SIZE(stars); i++)
				compare(f, stars[i], 'q');
	}
	if (sweep_failures)
		printf("# %d sweep mismatches\n", sweep_failures);
}

int main(void)
{
	check_suite("format");
	RUN(t_plain);
	RUN(t_integers);
	RUN(t_length_modifiers);
	RUN(t_flags);
	RUN(t_width_precision);
	RUN(t_width_saturates);
	RUN(t_strings_and_chars);
	RUN(t_pointer);
	RUN(t_bad_specs);
	RUN(t_truncation);
	RUN(t_vcbprintf);
	RUN(t_sweep_integers);
	RUN(t_sweep_strings);
	return check_done();
}
