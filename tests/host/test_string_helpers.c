/* Host tests for lib/string_helpers.c. */
#include "lib/string_helpers.h"
#include "tests/host/check.h"

static const char *esc(const char *s, size_t size)
{
	static char buf[64];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = 'Z';
	return string_escape_str(s, buf, size);
}

static void t_escape_control(void)
{
	CHECK_STREQ("plain text", esc("plain text", 64));
	CHECK_STREQ("", esc("", 64));
	CHECK_STREQ("hz=1\\x01", esc("hz=1\x01", 64));
	CHECK_STREQ("\\x1b[2J", esc("\x1b[2J", 64));
	CHECK_STREQ("a\\x7fb", esc("a\x7f" "b", 64));
	CHECK_STREQ("\\xc3\\xa9", esc("\xc3\xa9", 64));	/* non-ASCII too */
	CHECK_STREQ("\\x09\\x0d\\x0a", esc("\t\r\n", 64));
	CHECK_STREQ("a\\b", esc("a\\b", 64));		/* a backslash stays */
	CHECK_STREQ("~ !", esc("~ !", 64));
}

static void t_escape_fits_exactly(void)
{
	CHECK_STREQ("abc", esc("abc", 4));
	CHECK_STREQ("\\x01", esc("\x01", ESCAPE_SIZE(1)));
	CHECK_STREQ("a\\x01b", esc("a\x01" "b", ESCAPE_SIZE(3)));
}

static void t_escape_truncates(void)
{
	CHECK_STREQ("ab...", esc("abcdefgh", 6));
	CHECK_STREQ("...", esc("abcd", 4));
	/* An escape is never cut in half. */
	CHECK_STREQ("a...", esc("a\x01" "bcdef", 8));
	CHECK_STREQ("a\\x01...", esc("a\x01" "bcdef", 9));
	CHECK_STREQ("ab", esc("abc", 3));		/* no room for "..." */
	CHECK_STREQ("", esc("abc", 1));
	char one = 'Z';
	CHECK(string_escape_str("abc", &one, 0) == &one);
	CHECK_EQ_U64('Z', one);				/* size 0: untouched */
}

int main(void)
{
	check_suite("string_helpers");
	RUN(t_escape_control);
	RUN(t_escape_fits_exactly);
	RUN(t_escape_truncates);
	return check_done();
}
