/* Host tests for lib/sort.c, against libc's qsort on random inputs. */
#include "lib/sort.h"
#include "tests/host/check.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static bool sorted_u64(const u64 *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return false;
	return true;
}

static void t_sort_u64_small(void)
{
	u64 one[1] = { 5 };
	u64 two[2] = { 9, 3 };
	u64 dup[7] = { 4, 1, 4, 4, 0, 1, UINT64_MAX };
	u64 want[7] = { 0, 1, 1, 4, 4, 4, UINT64_MAX };

	sort_u64(NULL, 0);
	sort_u64(one, 1);
	CHECK_EQ_U64(5, one[0]);
	sort_u64(two, 2);
	CHECK(two[0] == 3 && two[1] == 9);
	sort_u64(dup, 7);
	CHECK(host_memcmp(dup, want, sizeof(want)) == 0);
}

static void fill(u64 *a, size_t n, int kind)
{
	for (size_t i = 0; i < n; i++) {
		switch (kind) {
		case 0: a[i] = check_rand(); break;		/* random */
		case 1: a[i] = check_rand() % 4; break;		/* dups */
		case 2: a[i] = i; break;			/* sorted */
		case 3: a[i] = n - i; break;			/* reversed */
		case 4: a[i] = 42; break;			/* all equal */
		default: a[i] = i % 2 ? UINT64_MAX : 0; break;	/* extremes */
		}
	}
}

static void t_sort_u64_random(void)
{
	enum { N = 1000 };
	static u64 a[N], ref[N];
	size_t bad = 0;

	for (int kind = 0; kind < 6; kind++) {
		for (size_t n = 0; n <= N; n += (n < 40 ? 1 : 97)) {
			fill(a, n, kind);
			for (size_t i = 0; i < n; i++)
				ref[i] = a[i];
			sort_u64(a, n);
			qsort(ref, n, sizeof(u64), cmp_u64);
			/* Same multiset, in order: equal to qsort's result. */
			bad += !sorted_u64(a, n);
			bad += n && host_memcmp(a, ref, n * sizeof(u64)) != 0;
		}
	}
	CHECK_EQ_U64(0, bad);
}

/* The generic sort on records, sorted by key; the tag proves that whole
 * records move together. */
struct rec {
	u32 key;
	u16 tag;
	char pad[3];	/* odd size, so the bytewise swap path is used */
} __attribute__((packed));

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static void t_sort_generic(void)
{
	enum { N = 500 };
	static struct rec r[N];
	static u64 w[N];
	size_t bad = 0;

	CHECK_EQ_U64(9, sizeof(struct rec));
	sort(NULL, 0, sizeof(struct rec), cmp_rec);
	for (int round = 0; round < 20; round++) {
		size_t n = check_rand() % N + 1;

		for (size_t i = 0; i < n; i++) {
			r[i].key = (u32)(check_rand() % 50);	/* many dups */
			r[i].tag = (u16)(r[i].key * 7 + 1);
			r[i].pad[0] = r[i].pad[2] = (char)r[i].key;
		}
		sort(r, n, sizeof(r[0]), cmp_rec);
		for (size_t i = 0; i < n; i++) {
			bad += i && r[i - 1].key > r[i].key;
			bad += r[i].tag != r[i].key * 7 + 1;
			bad += r[i].pad[2] != (char)r[i].key;
		}

		/* 8-byte elements take the word-swap path. */
		fill(w, n, round % 6);
		sort(w, n, sizeof(w[0]), cmp_u64);
		bad += !sorted_u64(w, n);
	}
	CHECK_EQ_U64(0, bad);
}

/* Descending by a reversed comparator; and a size-16 struct. */
static int cmp_u64_desc(const void *a, const void *b)
{
	return cmp_u64(b, a);
}

struct pair {
	u64 key, val;
};

static int cmp_pair(const void *a, const void *b)
{
	return cmp_u64(&((const struct pair *)a)->key,
		       &((const struct pair *)b)->key);
}

static void t_sort_generic_more(void)
{
	u64 a[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 };
	u64 want[] = { 9, 6, 5, 5, 5, 4, 3, 3, 2, 1, 1 };
	struct pair p[64];

	sort(a, ARRAY_SIZE(a), sizeof(a[0]), cmp_u64_desc);
	CHECK(host_memcmp(a, want, sizeof(a)) == 0);

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		p[i].key = (i * 37) % 64;	/* a permutation of 0..63 */
		p[i].val = p[i].key + 1000;
	}
	sort(p, ARRAY_SIZE(p), sizeof(p[0]), cmp_pair);
	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		CHECK_EQ_U64(i, p[i].key);
		CHECK_EQ_U64(i + 1000, p[i].val);
	}
}

int main(void)
{
	check_suite("sort");
	RUN(t_sort_u64_small);
	RUN(t_sort_u64_random);
	RUN(t_sort_generic);
	RUN(t_sort_generic_more);
	return check_done();
}
