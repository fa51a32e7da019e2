/* Heapsort (Williams 1964, with Floyd's bottom-up heap construction).
 *
 * The array is first arranged into a max-heap: element i's children are
 * 2i+1 and 2i+2, and no child is larger than its parent. Then the root
 * (the maximum) is repeatedly swapped to the end of the shrinking heap and
 * the new root sifted down. Iterative throughout, so stack use is constant
 * however large n is. */
#include "lib/sort.h"

/* Restore the heap property below root, for a heap of n elements. */
static void sift_down_u64(u64 *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		u64 t;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;	/* the larger child */
		if (a[root] >= a[child])
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void sort_u64(u64 *a, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)	/* leaves are heaps already */
		sift_down_u64(a, i, n);
	for (i = n - 1; i > 0; i--) {
		u64 t = a[0];

		a[0] = a[i];
		a[i] = t;
		sift_down_u64(a, 0, i);
	}
}

/* A u64 that may alias any other type, since the elements may be structs
 * of anything (the kernel is built without -fno-strict-aliasing). */
typedef u64 __attribute__((may_alias)) u64_alias;

/* Swap two elements of the generic array, a word at a time when size and
 * alignment allow (the usual case: structs of u64s), else bytewise. */
static void swap_elems(char *p, char *q, size_t size)
{
	if (size % 8 == 0 && ((uintptr_t)p | (uintptr_t)q) % 8 == 0) {
		u64_alias *x = (u64_alias *)p, *y = (u64_alias *)q;

		for (size /= 8; size--; x++, y++) {
			u64 t = *x;
			*x = *y;
			*y = t;
		}
		return;
	}
	for (; size--; p++, q++) {
		char t = *p;
		*p = *q;
		*q = t;
	}
}

static void sift_down(char *base, size_t root, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n &&
		    cmp(base + (child + 1) * size, base + child * size) > 0)
			child++;
		if (cmp(base + root * size, base + child * size) >= 0)
			return;
		swap_elems(base + root * size, base + child * size, size);
		root = child;
	}
}

void sort(void *base, size_t n, size_t size,
	  int (*cmp)(const void *, const void *))
{
	char *b = base;
	size_t i;

	if (n < 2 || size == 0)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(b, i, n, size, cmp);
	for (i = n - 1; i > 0; i--) {
		swap_elems(b, b + i * size, size);
		sift_down(b, 0, i, size, cmp);
	}
}
