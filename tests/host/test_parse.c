/* Host tests for lib/parse.c. */
#include "lib/parse.h"
#include "lib/string.h"
#include "tests/host/check.h"

/* parse_u64 that must succeed with the given value. */
#define OK_U64(want, str)                                       \
	do {                                                    \
		u64 v_ = 12345;                                 \
		CHECK_EQ_S64(0, parse_u64(str, &v_));           \
		CHECK_EQ_U64(want, v_);                         \
	} while (0)

/* parse_u64 that must fail and leave *out alone. */
#define BAD_U64(str)                                            \
	do {                                                    \
		u64 v_ = 12345;                                 \
		CHECK_EQ_S64(-1, parse_u64(str, &v_));          \
		CHECK_EQ_U64(12345, v_);                        \
	} while (0)

static void t_u64_valid(void)
{
	OK_U64(0, "0");
	OK_U64(7, "7");
	OK_U64(10, "010");			/* decimal, not octal */
	OK_U64(1000000, "1000000");
	OK_U64(0, "0x0");
	OK_U64(255, "0xff");
	OK_U64(255, "0XFF");
	OK_U64(0xdeadbeef, "0xDeadBeef");
	/* Decimal multiples: counts and rates, never sizes (hz=1k is 1000). */
	OK_U64(1000, "1k");
	OK_U64(1000, "1K");
	OK_U64(4000000, "4M");
	OK_U64(4000000, "4m");
	OK_U64(2000000000, "2g");
	OK_U64(2000000000, "2G");
	OK_U64(0, "0K");
	OK_U64(UINT64_MAX, "18446744073709551615");
	OK_U64(UINT64_MAX, "0xffffffffffffffff");
	OK_U64(UINT64_MAX, "0x0000ffffffffffffffff");	/* leading zeros */
	OK_U64(18446744073709551000ULL, "18446744073709551k");
	OK_U64(18446744073000000000ULL, "18446744073G");
}

static void t_u64_invalid(void)
{
	BAD_U64("");
	BAD_U64(NULL);
	BAD_U64("0x");
	BAD_U64("K");
	BAD_U64("-1");
	BAD_U64("+1");
	BAD_U64(" 1");
	BAD_U64("1 ");
	BAD_U64("12a");
	BAD_U64("0x1g2");
	BAD_U64("1KB");
	BAD_U64("1KK");
	BAD_U64("1T");
	BAD_U64("0x10K");			/* a hex value is exact: no multiple */
	BAD_U64("18446744073709552k");		/* the multiple would overflow */
	BAD_U64("18446744074G");
	BAD_U64("0xg");
	BAD_U64("1.5");
	BAD_U64("18446744073709551616");	/* 2^64 */
	BAD_U64("99999999999999999999");
	BAD_U64("0x10000000000000000");
	BAD_U64("16777216T");
}

static void t_bool(void)
{
	static const char *const yes[] = { "1", "on", "yes", "true", "ON",
					   "Yes", "TRUE" };
	static const char *const no[] = { "0", "off", "no", "false", "OFF",
					  "No", "False" };
	static const char *const bad[] = { "", "2", "y", "n", "onn", "o",
					   "yes ", "truefalse", "-1", "01" };
	bool b;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		CHECK_EQ_S64(0, parse_bool(yes[i], &b));
		CHECK(b == true);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		b = true;
		CHECK_EQ_S64(0, parse_bool(no[i], &b));
		CHECK(b == false);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		b = true;
		CHECK_EQ_S64(-1, parse_bool(bad[i], &b));
		CHECK(b == true);			/* untouched */
	}
	CHECK_EQ_S64(-1, parse_bool(NULL, &b));
}

static void t_match_word(void)
{
	static const char *const modes[] = { "none", "voluntary", "full",
					     NULL, "lazy" };

	CHECK_EQ_S64(0, match_word("none", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(2, match_word("full", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(4, match_word("lazy", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word("lazy", modes, 4));	/* n respected */
	CHECK_EQ_S64(-1, match_word("ful", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word("fully", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word("Full", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word("", modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word(NULL, modes, ARRAY_SIZE(modes)));
	CHECK_EQ_S64(-1, match_word("none", modes, 0));
}

static void t_split_words(void)
{
	char line[64], *argv[4];

	strlcpy(line, "  run   bench\tipi \r\n", sizeof(line));
	CHECK_EQ_U64(3, split_words(line, argv, 4));
	CHECK_STREQ("run", argv[0]);
	CHECK_STREQ("bench", argv[1]);
	CHECK_STREQ("ipi", argv[2]);

	strlcpy(line, "one", sizeof(line));
	CHECK_EQ_U64(1, split_words(line, argv, 4));
	CHECK_STREQ("one", argv[0]);

	strlcpy(line, "", sizeof(line));
	CHECK_EQ_U64(0, split_words(line, argv, 4));
	strlcpy(line, " \t \n", sizeof(line));
	CHECK_EQ_U64(0, split_words(line, argv, 4));

	/* Exactly max words is fine ... */
	strlcpy(line, "a b c d  ", sizeof(line));
	CHECK_EQ_U64(4, split_words(line, argv, 4));
	CHECK_STREQ("d", argv[3]);

	/* ... one more is reported as max + 1, first max kept. */
	strlcpy(line, "a b c d e f", sizeof(line));
	CHECK_EQ_U64(5, split_words(line, argv, 4));
	CHECK_STREQ("a", argv[0]);
	CHECK_STREQ("d", argv[3]);
	CHECK_STREQ("e f", line + 8);		/* rest left untouched */

	/* max 0: counts whether there is any word at all. */
	strlcpy(line, "  ", sizeof(line));
	CHECK_EQ_U64(0, split_words(line, NULL, 0));
	strlcpy(line, " x", sizeof(line));
	CHECK_EQ_U64(1, split_words(line, NULL, 0));
}

int main(void)
{
	check_suite("parse");
	RUN(t_u64_valid);
	RUN(t_u64_invalid);
	RUN(t_bool);
	RUN(t_match_word);
	RUN(t_split_words);
	return check_done();
}
