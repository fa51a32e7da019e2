/* Host tests for lib/prandom.h: a seed and stream give one sequence, a
 * different seed or stream another, and prandom_below() stays below its
 * bound and reaches every value of a small range. */
#include "lib/prandom.h"
#include "tests/host/check.h"

static void t_repeatable(void)
{
	struct prandom_state a, b;
	prandom_seed(&a, 42, 3);
	prandom_seed(&b, 42, 3);
	for (int i = 0; i < 1000; i++)
		CHECK_EQ_U64(prandom_u64(&a), prandom_u64(&b));
}

static void t_streams_differ(void)
{
	struct prandom_state a, b, c;
	prandom_seed(&a, 42, 3);
	prandom_seed(&b, 42, 4);
	prandom_seed(&c, 43, 3);
	int same_ab = 0, same_ac = 0;
	for (int i = 0; i < 1000; i++) {
		u64 x = prandom_u64(&a);
		same_ab += x == prandom_u64(&b);
		same_ac += x == prandom_u64(&c);
	}
	CHECK(same_ab == 0 && same_ac == 0);
}

static void t_seed_zero(void)
{
	struct prandom_state z;
	prandom_seed(&z, 0, 0);
	CHECK(z.s != 0);
	u64 x = prandom_u64(&z), y = prandom_u64(&z);
	CHECK(x != 0 && x != y);
}

static void t_below(void)
{
	struct prandom_state s;
	prandom_seed(&s, 7, 1);
	u32 seen[6] = { 0 };
	for (int i = 0; i < 6000; i++) {
		u32 v = prandom_below(&s, 6);
		CHECK(v < 6);
		if (v < 6)
			seen[v]++;
	}
	for (int v = 0; v < 6; v++)
		CHECK(seen[v] > 800 && seen[v] < 1200); /* about 1000 each */
	CHECK_EQ_U64(0, prandom_below(&s, 0));
	CHECK_EQ_U64(0, prandom_below(&s, 1));
}

int main(void)
{
	check_suite("prandom");
	RUN(t_repeatable);
	RUN(t_streams_differ);
	RUN(t_seed_zero);
	RUN(t_below);
	return check_done();
}
