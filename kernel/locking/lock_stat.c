/* lock_stat's table (kernel/locking/lock_stat.h says what is counted). */
#include "kernel/locking/lock_stat.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/trace/trace.h"
#include "lib/string.h"

static struct lock_class_stat classes[LOCK_STAT_CLASSES];
volatile u64 lock_stat_overflow;

static bool same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

/* The slot of name, claimed if it has none; NULL if the table is full. */
static struct lock_class_stat *class_of(const char *name)
{
	for (u32 i = 0; i < LOCK_STAT_CLASSES; i++) {
		const char *n = __atomic_load_n(&classes[i].name, __ATOMIC_ACQUIRE);
		if (!n) {
			const char *expected = NULL;
			if (__atomic_compare_exchange_n(&classes[i].name, &expected, name, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				return &classes[i];
			n = expected; /* another CPU claimed it meanwhile */
		}
		if (same_name(n, name))
			return &classes[i];
	}
	return NULL;
}

void lock_contended(struct raw_spinlock *l)
{
	struct lock_class_stat *c = class_of(l->name ? l->name : "?");
	__atomic_fetch_add(c ? &c->contentions : &lock_stat_overflow, 1, __ATOMIC_RELAXED);
	trace_event(contention_begin, l, LCB_F_SPIN);
}

void lock_contended_end(struct raw_spinlock *l)
{
	trace_event(contention_end, l, 0);
}

u64 lock_stat_contentions(const char *name)
{
	u64 sum = 0;
	for (u32 i = 0; i < LOCK_STAT_CLASSES; i++) {
		const char *n = __atomic_load_n(&classes[i].name, __ATOMIC_ACQUIRE);
		if (n && same_name(n, name))
			sum += classes[i].contentions;
	}
	return sum;
}

u64 lock_stat_total(void)
{
	u64 sum = lock_stat_overflow;
	for (u32 i = 0; i < LOCK_STAT_CLASSES; i++)
		sum += classes[i].contentions;
	return sum;
}

u32 lock_stat_snapshot(struct lock_class_stat *out, u32 max)
{
	u32 n = 0;
	for (u32 i = 0; i < LOCK_STAT_CLASSES; i++) {
		const char *name = __atomic_load_n(&classes[i].name, __ATOMIC_ACQUIRE);
		if (!name || !classes[i].contentions)
			continue;
		u32 j = 0;
		while (j < n && !same_name(out[j].name, name))
			j++;
		if (j == n) {
			if (n == max)
				continue;
			out[n].name = name;
			out[n++].contentions = 0;
		}
		out[j].contentions += classes[i].contentions;
	}
	return n;
}
