/* Host tests for lib/list.h. */
#include "lib/list.h"
#include "tests/host/check.h"

struct item {
	int v;
	struct list_head link;
};

/* The values along the list, front to back, checked both ways round so
 * that a broken prev pointer cannot hide. */
static bool list_is(struct list_head *h, const int *want, size_t n)
{
	struct list_head *p;
	size_t i = 0;

	list_for_each(p, h) {
		if (i >= n || list_entry(p, struct item, link)->v != want[i])
			return false;
		i++;
	}
	if (i != n)
		return false;
	for (p = h->prev; p != h; p = p->prev)
		if (list_entry(p, struct item, link)->v != want[--i])
			return false;
	return i == 0;
}

static void t_empty(void)
{
	LIST_HEAD(h);
	struct list_head h2;

	INIT_LIST_HEAD(&h2);
	CHECK(list_empty(&h));
	CHECK(list_empty(&h2));
	CHECK(!list_is_singular(&h));
	CHECK(list_is(&h, NULL, 0));
}

static void t_add(void)
{
	LIST_HEAD(h);
	struct item a = { .v = 1 }, b = { .v = 2 }, c = { .v = 3 };

	list_add(&a.link, &h);
	CHECK(!list_empty(&h));
	CHECK(list_is_singular(&h));
	list_add(&b.link, &h);		/* at the front: a stack */
	CHECK(!list_is_singular(&h));
	list_add_tail(&c.link, &h);	/* at the back: a queue */
	CHECK(list_is(&h, (int[]){ 2, 1, 3 }, 3));
	CHECK(list_first_entry(&h, struct item, link) == &b);
}

static void t_del(void)
{
	LIST_HEAD(h);
	struct item it[4];

	for (int i = 0; i < 4; i++) {
		it[i].v = i;
		list_add_tail(&it[i].link, &h);
	}
	list_del(&it[0].link);		/* the first */
	CHECK(it[0].link.next == NULL && it[0].link.prev == NULL);
	CHECK(list_is(&h, (int[]){ 1, 2, 3 }, 3));
	list_del(&it[2].link);		/* a middle one */
	CHECK(list_is(&h, (int[]){ 1, 3 }, 2));
	list_del_init(&it[3].link);	/* the last, reusable */
	CHECK(list_empty(&it[3].link));
	CHECK(list_is(&h, (int[]){ 1 }, 1));
	CHECK(list_is_singular(&h));
	list_del_init(&it[1].link);
	CHECK(list_empty(&h));
	list_add(&it[3].link, &h);	/* re-add after del_init */
	CHECK(list_is(&h, (int[]){ 3 }, 1));
}

static void t_move_tail(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item it[3] = { { .v = 0 }, { .v = 1 }, { .v = 2 } };

	for (int i = 0; i < 3; i++)
		list_add_tail(&it[i].link, &a);
	list_move_tail(&it[0].link, &a);	/* rotate within a list */
	CHECK(list_is(&a, (int[]){ 1, 2, 0 }, 3));
	list_move_tail(&it[2].link, &b);	/* to another list */
	CHECK(list_is(&a, (int[]){ 1, 0 }, 2));
	CHECK(list_is(&b, (int[]){ 2 }, 1));
	list_move_tail(&it[1].link, &b);
	list_move_tail(&it[0].link, &b);
	CHECK(list_empty(&a));
	CHECK(list_is(&b, (int[]){ 2, 1, 0 }, 3));
}

static void t_for_each_entry(void)
{
	LIST_HEAD(h);
	struct item it[5], *pos, *n;
	int sum = 0, count = 0;

	list_for_each_entry(pos, &h, link)
		count++;			/* empty: no iterations */
	CHECK_EQ_S64(0, count);
	for (int i = 0; i < 5; i++) {
		it[i].v = i + 1;
		list_add_tail(&it[i].link, &h);
	}
	list_for_each_entry(pos, &h, link) {
		sum = sum * 10 + pos->v;	/* order-sensitive */
		count++;
	}
	CHECK_EQ_S64(12345, sum);
	CHECK_EQ_S64(5, count);

	/* Delete the odd ones while iterating: needs the _safe form. */
	list_for_each_entry_safe(pos, n, &h, link)
		if (pos->v % 2)
			list_del(&pos->link);
	CHECK(list_is(&h, (int[]){ 2, 4 }, 2));
	list_for_each_entry_safe(pos, n, &h, link)
		list_del_init(&pos->link);
	CHECK(list_empty(&h));
}

int main(void)
{
	check_suite("list");
	RUN(t_empty);
	RUN(t_add);
	RUN(t_del);
	RUN(t_move_tail);
	RUN(t_for_each_entry);
	return check_done();
}
