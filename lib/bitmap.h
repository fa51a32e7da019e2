/* Bitmaps: arrays of unsigned long, bit nr in word nr / BITS_PER_LONG.
 *
 * Everything here is NON-ATOMIC: a plain read-modify-write that two CPUs
 * can interleave and lose an update. Use it for bitmaps owned by one CPU
 * or protected by a lock. The atomic variants (lock bts/btr) live in arch
 * code, because they are instructions, not algorithms; the double
 * underscore on __set_bit/__clear_bit follows Linux, where the plain names
 * are the atomic ones.
 *
 * The find functions return nbits when there is no such bit, and ignore
 * any bits past nbits in the last word. */
#ifndef FOLD_LIB_BITMAP_H
#define FOLD_LIB_BITMAP_H

#include "lib/types.h"

#define BITS_PER_LONG (8 * sizeof(unsigned long))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, nbits) unsigned long name[BITS_TO_LONGS(nbits)]

#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))

static inline void __set_bit(size_t nr, unsigned long *map)
{
	map[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(size_t nr, unsigned long *map)
{
	map[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(size_t nr, const unsigned long *map)
{
	return (map[BIT_WORD(nr)] & BIT_MASK(nr)) != 0;
}

void bitmap_zero(unsigned long *map, size_t nbits);
size_t find_first_bit(const unsigned long *map, size_t nbits);
size_t find_next_bit(const unsigned long *map, size_t nbits, size_t start);
size_t find_first_zero_bit(const unsigned long *map, size_t nbits);
size_t find_next_zero_bit(const unsigned long *map, size_t nbits,
			  size_t start);
size_t bitmap_weight(const unsigned long *map, size_t nbits);	/* set bits */

/* Loop over the set bits of a bitmap. */
#define for_each_set_bit(bit, map, nbits)                       \
	for ((bit) = find_first_bit(map, nbits); (bit) < (nbits); \
	     (bit) = find_next_bit(map, nbits, (bit) + 1))

#endif
