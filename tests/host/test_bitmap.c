/* Host tests for lib/bitmap.c, checked against a bool-per-bit model. */
#include "lib/bitmap.h"
#include "tests/host/check.h"

#define NB 200	/* not a multiple of 64: exercises the partial last word */

static size_t model_next(const bool *m, size_t nbits, size_t start, bool val)
{
	for (size_t i = start; i < nbits; i++)
		if (m[i] == val)
			return i;
	return nbits;
}

static void t_set_clear_test(void)
{
	DECLARE_BITMAP(map, NB);

	CHECK_EQ_U64(4, ARRAY_SIZE(map));
	CHECK_EQ_U64(0, BITS_TO_LONGS(0));
	CHECK_EQ_U64(1, BITS_TO_LONGS(1));
	CHECK_EQ_U64(1, BITS_TO_LONGS(64));
	CHECK_EQ_U64(2, BITS_TO_LONGS(65));
	bitmap_zero(map, NB);
	CHECK(!test_bit(0, map));
	__set_bit(0, map);
	__set_bit(63, map);
	__set_bit(64, map);
	__set_bit(199, map);
	CHECK(test_bit(0, map) && test_bit(63, map) && test_bit(64, map));
	CHECK(test_bit(199, map) && !test_bit(1, map) && !test_bit(198, map));
	CHECK_EQ_U64(0x8000000000000001UL, map[0]);
	CHECK_EQ_U64(1, map[1]);
	CHECK_EQ_U64(1UL << (199 - 192), map[3]);
	__set_bit(63, map);	/* idempotent */
	CHECK_EQ_U64(4, bitmap_weight(map, NB));
	__clear_bit(63, map);
	__clear_bit(63, map);
	CHECK(!test_bit(63, map));
	CHECK_EQ_U64(3, bitmap_weight(map, NB));
}

static void t_find_edges(void)
{
	DECLARE_BITMAP(map, NB);

	bitmap_zero(map, NB);
	CHECK_EQ_U64(NB, find_first_bit(map, NB));
	CHECK_EQ_U64(0, find_first_zero_bit(map, NB));
	CHECK_EQ_U64(0, find_first_bit(map, 0));	/* empty: returns 0 */
	CHECK_EQ_U64(NB, find_next_bit(map, NB, NB));	/* start past end */
	CHECK_EQ_U64(NB, find_next_bit(map, NB, NB + 100));

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		map[i] = ~0UL;
	CHECK_EQ_U64(NB, find_first_zero_bit(map, NB));	/* tail bits set */
	CHECK_EQ_U64(NB, find_next_zero_bit(map, NB, 5));
	CHECK_EQ_U64(0, find_first_bit(map, NB));
	CHECK_EQ_U64(NB, bitmap_weight(map, NB));	/* tail ignored */
	CHECK_EQ_U64(64, bitmap_weight(map, 64));
	CHECK_EQ_U64(1, bitmap_weight(map, 1));
	CHECK_EQ_U64(0, bitmap_weight(map, 0));

	/* A set bit beyond nbits in the last word is not found. */
	bitmap_zero(map, NB);
	__set_bit(NB + 3, map);
	CHECK_EQ_U64(NB, find_first_bit(map, NB));
	CHECK_EQ_U64(0, bitmap_weight(map, NB));
	__set_bit(NB - 1, map);
	CHECK_EQ_U64(NB - 1, find_first_bit(map, NB));
	CHECK_EQ_U64(NB - 1, find_next_bit(map, NB, NB - 1));
	CHECK_EQ_U64(NB, find_next_bit(map, NB, NB - 1 + 1));
}

/* Random bitmaps of every density, every start offset, against the model. */
static void t_find_random(void)
{
	DECLARE_BITMAP(map, NB);
	bool model[NB];
	size_t bad = 0;

	for (int round = 0; round < 200; round++) {
		unsigned density = round % 10;	/* 0..9 tenths set */
		size_t weight = 0;

		bitmap_zero(map, NB);
		for (size_t i = 0; i < NB; i++) {
			model[i] = check_rand() % 10 < density;
			if (model[i]) {
				__set_bit(i, map);
				weight++;
			}
		}
		for (size_t nbits = NB - 70; nbits <= NB; nbits += 7) {
			for (size_t s = 0; s <= nbits + 1; s++) {
				bad += find_next_bit(map, nbits, s) !=
				       model_next(model, nbits, s, true);
				bad += find_next_zero_bit(map, nbits, s) !=
				       model_next(model, nbits, s, false);
			}
			bad += find_first_bit(map, nbits) !=
			       model_next(model, nbits, 0, true);
			bad += find_first_zero_bit(map, nbits) !=
			       model_next(model, nbits, 0, false);
		}
		CHECK_EQ_U64(weight, bitmap_weight(map, NB));
	}
	CHECK_EQ_U64(0, bad);
}

static void t_for_each_set_bit(void)
{
	DECLARE_BITMAP(map, NB);
	size_t bit, n = 0, sum = 0;

	bitmap_zero(map, NB);
	for_each_set_bit(bit, map, NB)
		n++;
	CHECK_EQ_U64(0, n);
	__set_bit(3, map);
	__set_bit(64, map);
	__set_bit(150, map);
	for_each_set_bit(bit, map, NB) {
		n++;
		sum += bit;
	}
	CHECK_EQ_U64(3, n);
	CHECK_EQ_U64(3 + 64 + 150, sum);
}

int main(void)
{
	check_suite("bitmap");
	RUN(t_set_clear_test);
	RUN(t_find_edges);
	RUN(t_find_random);
	RUN(t_for_each_set_bit);
	return check_done();
}
