/* A minimal unit-test framework for the host tests of lib/.
 *
 *	static void t_something(void) { CHECK_EQ_U64(3, f()); }
 *	int main(void) {
 *		check_suite("name");
 *		RUN(t_something);
 *		return check_done();
 *	}
 *
 * Each RUN prints one line, "ok N suite.case" or "not ok N suite.case",
 * preceded by "# file:line: ..." diagnostics for every failed check. A
 * failed check does not stop the case, so one run shows all failures.
 * check_done() returns non-zero if any case failed: use it as main's exit
 * status. tests/host/host.mk counts the ok / not ok lines. */
#ifndef FOLD_TESTS_HOST_CHECK_H
#define FOLD_TESTS_HOST_CHECK_H

#include "tests/host/rename.h"	/* host_strcmp; normally force-included */

static struct {
	const char *suite;
	int ncases, nfailed;
	int case_failed;	/* checks failed in the current case */
} check_state;

static inline void check_suite(const char *name)
{
	/* Line-buffered, so output survives an ASan abort mid-run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_state.suite = name;
	printf("# suite %s\n", name);
}

static inline void check_run(const char *name, void (*fn)(void))
{
	check_state.case_failed = 0;
	fn();
	check_state.ncases++;
	if (check_state.case_failed)
		check_state.nfailed++;
	printf("%s %d %s.%s\n", check_state.case_failed ? "not ok" : "ok",
	       check_state.ncases, check_state.suite, name);
}

static inline int check_done(void)
{
	printf("# %s: %d passed, %d failed\n", check_state.suite,
	       check_state.ncases - check_state.nfailed, check_state.nfailed);
	return check_state.nfailed != 0;
}

static inline void check_fail(const char *file, int line, const char *what)
{
	check_state.case_failed++;
	printf("# %s:%d: CHECK failed: %s\n", file, line, what);
}

#define RUN(fn) check_run(#fn, fn)

#define CHECK(cond)                                             \
	do {                                                    \
		if (!(cond))                                    \
			check_fail(__FILE__, __LINE__, #cond);  \
	} while (0)

#define CHECK_EQ_U64(expected, actual)                                      \
	do {                                                                \
		unsigned long long e_ = (unsigned long long)(expected);     \
		unsigned long long a_ = (unsigned long long)(actual);       \
		if (e_ != a_) {                                             \
			check_fail(__FILE__, __LINE__,                      \
				   #actual " == " #expected);               \
			printf("#   expected %llu (0x%llx)\n"               \
			       "#   actual   %llu (0x%llx)\n",              \
			       e_, e_, a_, a_);                             \
		}                                                           \
	} while (0)

#define CHECK_EQ_S64(expected, actual)                                      \
	do {                                                                \
		long long e_ = (long long)(expected);                       \
		long long a_ = (long long)(actual);                         \
		if (e_ != a_) {                                             \
			check_fail(__FILE__, __LINE__,                      \
				   #actual " == " #expected);               \
			printf("#   expected %lld\n#   actual   %lld\n",    \
			       e_, a_);                                     \
		}                                                           \
	} while (0)

/* Compares with libc's strcmp (host_strcmp), not the one under test. */
#define CHECK_STREQ(expected, actual)                                       \
	do {                                                                \
		const char *e_ = (expected), *a_ = (actual);                \
		if (!e_ || !a_ ? e_ != a_ : host_strcmp(e_, a_) != 0) {     \
			check_fail(__FILE__, __LINE__,                      \
				   #actual " == " #expected);               \
			printf("#   expected \"%s\"\n#   actual   \"%s\"\n", \
			       e_ ? e_ : "(NULL)", a_ ? a_ : "(NULL)");     \
		}                                                           \
	} while (0)

/* A small deterministic PRNG (xorshift64*), so randomised tests are
 * reproducible from run to run. */
static inline unsigned long long check_rand(void)
{
	static unsigned long long x = 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return x * 2685821657736338717ULL;
}

#endif
