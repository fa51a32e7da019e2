/* Host tests for lib/string.c. Reference results come from libc through
 * the host_* wrappers of tests/host/rename.h. */
#include "lib/string.h"
#include "tests/host/check.h"

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void t_memset(void)
{
	unsigned char b[64];

	for (size_t off = 0; off < 8; off++) {
		for (size_t n = 0; n < 40; n++) {
			memset(b, 0xAA, sizeof(b));
			CHECK(memset(b + off, 0x1234, n) == b + off);
			for (size_t i = 0; i < sizeof(b); i++) {
				bool in = i >= off && i < off + n;
				/* c is converted to unsigned char: 0x34 */
				CHECK_EQ_U64(in ? 0x34 : 0xAA, b[i]);
			}
		}
	}
}

static void t_memcpy(void)
{
	unsigned char src[64], dst[80];

	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (size_t off = 0; off < 9; off++) {
		for (size_t n = 0; n <= sizeof(src); n += 3) {
			memset(dst, 0, sizeof(dst));
			CHECK(memcpy(dst + off, src, n) == dst + off);
			CHECK(host_memcmp(dst + off, src, n) == 0);
			for (size_t i = 0; i < off; i++)
				CHECK_EQ_U64(0, dst[i]);
			for (size_t i = off + n; i < sizeof(dst); i++)
				CHECK_EQ_U64(0, dst[i]);
		}
	}
	CHECK(memcpy(dst, src, 0) == dst);
}

/* Every overlap shape: compare against a copy made through a temporary. */
static void t_memmove(void)
{
	unsigned char buf[48], want[48], tmp[48];

	for (size_t d = 0; d < 16; d++) {
		for (size_t s = 0; s < 16; s++) {
			for (size_t n = 0; n <= 32; n++) {
				for (size_t i = 0; i < sizeof(buf); i++)
					buf[i] = want[i] = (unsigned char)i;
				for (size_t i = 0; i < n; i++)
					tmp[i] = want[s + i];
				for (size_t i = 0; i < n; i++)
					want[d + i] = tmp[i];
				CHECK(memmove(buf + d, buf + s, n) == buf + d);
				CHECK(host_memcmp(buf, want, sizeof(buf)) == 0);
			}
		}
	}
}

static void t_memcmp(void)
{
	unsigned char a[] = { 1, 2, 3, 0x80 }, b[] = { 1, 2, 3, 0x7f };

	CHECK(memcmp(a, b, 0) == 0);
	CHECK(memcmp(a, b, 3) == 0);
	/* Bytes compare as unsigned: 0x80 > 0x7f. */
	CHECK(memcmp(a, b, 4) > 0);
	CHECK(memcmp(b, a, 4) < 0);
	CHECK(memcmp("abc", "abd", 3) < 0);
	CHECK(sign(memcmp("\xff", "\x01", 1)) == sign(host_memcmp("\xff", "\x01", 1)));
}

static void t_strlen(void)
{
	char buf[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' }; /* no NUL */

	CHECK_EQ_U64(0, strlen(""));
	CHECK_EQ_U64(5, strlen("hello"));
	CHECK_EQ_U64(3, strlen("abc\0def"));
	/* strnlen must not read past maxlen: ASan would catch it. */
	CHECK_EQ_U64(8, strnlen(buf, 8));
	CHECK_EQ_U64(3, strnlen(buf, 3));
	CHECK_EQ_U64(0, strnlen(buf, 0));
	CHECK_EQ_U64(5, strnlen("hello", 100));
	CHECK_EQ_U64(0, strnlen("", 1));
}

static void t_strcmp(void)
{
	static const char *const s[] = {
		"", "a", "ab", "abc", "abd", "b", "\x80", "\x7f", "ABC", "ab\xff",
	};

	for (size_t i = 0; i < ARRAY_SIZE(s); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(s); j++) {
			CHECK_EQ_S64(sign(host_strcmp(s[i], s[j])),
				     sign(strcmp(s[i], s[j])));
			for (size_t n = 0; n < 5; n++)
				CHECK_EQ_S64(sign(host_strncmp(s[i], s[j], n)),
					     sign(strncmp(s[i], s[j], n)));
		}
	}
	CHECK(strncmp("abcX", "abcY", 3) == 0);
	CHECK(strncmp("abcX", "abcY", 4) < 0);
	CHECK(strncmp("ab", "abc", 2) == 0);
	CHECK(strncmp("ab", "abc", 3) < 0);
	CHECK(strncmp("abc", "abd", 0) == 0);
	CHECK(strncmp("a\0x", "a\0y", 3) == 0);	/* stops at the NUL */
	CHECK(strcmp("\x80", "\x7f") > 0);	/* unsigned char */
}

static void t_strchr(void)
{
	const char *s = "hello world";

	CHECK(strchr(s, 'h') == s);
	CHECK(strchr(s, 'o') == s + 4);
	CHECK(strchr(s, 'z') == NULL);
	CHECK(strchr(s, '\0') == s + 11);
	CHECK(strchr("", 'a') == NULL);
	CHECK(strchr("a\xe9", 0xe9) != NULL);	/* int converted to char */
	CHECK(strchr("a\xe9", (char)0xe9) != NULL);
	CHECK(strrchr(s, 'o') == s + 7);
	CHECK(strrchr(s, 'h') == s);
	CHECK(strrchr(s, 'z') == NULL);
	CHECK(strrchr(s, '\0') == s + 11);
	CHECK(strrchr("", '\0') != NULL);
}

static void t_strstr(void)
{
	const char *s = "preempt=full nosmp";

	CHECK(strstr(s, "") == s);
	CHECK(strstr("", "") != NULL);
	CHECK(strstr("", "a") == NULL);
	CHECK(strstr(s, "pre") == s);
	CHECK(strstr(s, "full") == s + 8);
	CHECK(strstr(s, "nosmp") == s + 13);
	CHECK(strstr(s, "nosmpX") == NULL);
	CHECK(strstr("aaab", "aab") != NULL);
	CHECK(strstr("aaab", "aab") == strstr("aaab", "ab") - 1);
	CHECK(strstr("ab", "abc") == NULL);
}

static void t_strlcpy(void)
{
	char b[8];

	memset(b, 'x', sizeof(b));
	CHECK_EQ_U64(5, strlcpy(b, "hello", sizeof(b)));
	CHECK_STREQ("hello", b);
	CHECK_EQ_U64('x', b[6]);	/* nothing written past the NUL */

	CHECK_EQ_U64(11, strlcpy(b, "hello world", sizeof(b)));
	CHECK_STREQ("hello w", b);	/* truncated, terminated */

	CHECK_EQ_U64(7, strlcpy(b, "1234567", sizeof(b)));	/* just fits */
	CHECK_STREQ("1234567", b);
	CHECK_EQ_U64(8, strlcpy(b, "12345678", sizeof(b)));	/* one over */
	CHECK_STREQ("1234567", b);

	memset(b, 'x', sizeof(b));
	CHECK_EQ_U64(3, strlcpy(b, "abc", 0));	/* size 0: no write */
	CHECK_EQ_U64('x', b[0]);
	CHECK_EQ_U64(3, strlcpy(b, "abc", 1));
	CHECK_EQ_U64(0, b[0]);
	CHECK_EQ_U64(0, strlcpy(b, "", sizeof(b)));
	CHECK_STREQ("", b);
}

int main(void)
{
	check_suite("string");
	RUN(t_memset);
	RUN(t_memcpy);
	RUN(t_memmove);
	RUN(t_memcmp);
	RUN(t_strlen);
	RUN(t_strcmp);
	RUN(t_strchr);
	RUN(t_strstr);
	RUN(t_strlcpy);
	return check_done();
}
