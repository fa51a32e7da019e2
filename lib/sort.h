/* In-place sorting: heapsort, so O(n log n) in the worst case, no
 * recursion (kernel stacks are small) and no allocation. Not stable:
 * equal elements may come out in any order. */
#ifndef FOLD_LIB_SORT_H
#define FOLD_LIB_SORT_H

#include "lib/types.h"

/* Ascending. For latency samples before exact percentiles. */
void sort_u64(u64 *a, size_t n);

/* Like qsort: cmp returns <0, 0, >0. Ascending in cmp's order. */
void sort(void *base, size_t n, size_t size,
	  int (*cmp)(const void *, const void *));

#endif
