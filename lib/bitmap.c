/* Bitmap searches, a word at a time. Non-atomic; see lib/bitmap.h. */
#include "lib/bitmap.h"
#include "lib/string.h"

_Static_assert(sizeof(unsigned long) == 8, "the constants below are 64-bit");

void bitmap_zero(unsigned long *map, size_t nbits)
{
	memset(map, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* Find the first bit >= start that differs from the bits of invert:
 * invert == 0 finds set bits, invert == ~0 finds clear ones. Each word is
 * XORed with invert so one loop serves both searches. */
static size_t find_next(const unsigned long *map, size_t nbits, size_t start,
			unsigned long invert)
{
	size_t i, bit;
	unsigned long w;

	if (start >= nbits)
		return nbits;
	i = BIT_WORD(start);
	/* Mask off the bits below start in the first word. */
	w = (map[i] ^ invert) & (~0UL << (start % BITS_PER_LONG));
	for (;;) {
		if (w) {
			/* ctz compiles to one bsf/tzcnt, no libgcc call. */
			bit = i * BITS_PER_LONG + (size_t)__builtin_ctzl(w);
			/* A hit in the tail past nbits is no hit. */
			return bit < nbits ? bit : nbits;
		}
		if (++i >= BITS_TO_LONGS(nbits))
			return nbits;
		w = map[i] ^ invert;
	}
}

size_t find_first_bit(const unsigned long *map, size_t nbits)
{
	return find_next(map, nbits, 0, 0);
}

size_t find_next_bit(const unsigned long *map, size_t nbits, size_t start)
{
	return find_next(map, nbits, start, 0);
}

size_t find_first_zero_bit(const unsigned long *map, size_t nbits)
{
	return find_next(map, nbits, 0, ~0UL);
}

size_t find_next_zero_bit(const unsigned long *map, size_t nbits,
			  size_t start)
{
	return find_next(map, nbits, start, ~0UL);
}

/* Population count by the classic SWAR reduction (sum bits in pairs, then
 * nibbles, then bytes, then add the bytes with one multiply). Written out
 * because __builtin_popcountl without -mpopcnt becomes a call into libgcc,
 * which the kernel does not link. */
static unsigned popcount(unsigned long w)
{
	w = w - ((w >> 1) & 0x5555555555555555UL);
	w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (unsigned)((w * 0x0101010101010101UL) >> 56);
}

size_t bitmap_weight(const unsigned long *map, size_t nbits)
{
	size_t i, n = 0, full = nbits / BITS_PER_LONG;

	for (i = 0; i < full; i++)
		n += popcount(map[i]);
	if (nbits % BITS_PER_LONG)
		n += popcount(map[i] & (BIT_MASK(nbits) - 1));
	return n;
}
