/* A small pseudo-random generator for tests and the torture (Linux's
 * prandom, in spirit): xorshift64* (Marsaglia, "Xorshift RNGs", JSS 2003;
 * the * multiplier from Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators, scrambled", 2016), seeded through
 * splitmix64 so that nearby seeds and stream numbers give unrelated
 * sequences. Not for anything secret. One state per user: no locking. */
#ifndef FOLD_LIB_PRANDOM_H
#define FOLD_LIB_PRANDOM_H
#include "lib/types.h"

struct prandom_state {
	u64 s;
};

static inline u64 prandom_splitmix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Stream `stream` of seed `seed`: the same pair, the same sequence. */
static inline void prandom_seed(struct prandom_state *st, u64 seed, u64 stream)
{
	st->s = prandom_splitmix64(seed ^ prandom_splitmix64(stream));
	if (!st->s)
		st->s = 1; /* xorshift's one fixed point */
}

static inline u64 prandom_u64(struct prandom_state *st)
{
	u64 x = st->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	st->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* 0 .. n-1 (0 when n is 0), from the high bits (Lemire's multiply, without
 * the rejection step: a bias of n/2^32 at most, nothing a test notices). */
static inline u32 prandom_below(struct prandom_state *st, u32 n)
{
	return (u32)(((prandom_u64(st) >> 32) * (u64)n) >> 32);
}
#endif
