/* Intrusive circular doubly-linked lists, Linux style.
 *
 * The links live inside the object (struct list_head member), so putting an
 * object on a list never allocates, and list_entry() gets the object back
 * from its member with container_of. A list is a head node whose next and
 * prev point at itself when empty. Not thread-safe: callers lock. */
#ifndef FOLD_LIB_LIST_H
#define FOLD_LIB_LIST_H

#include "lib/types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

/* Insert n between two known-consecutive entries. */
static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Add n right after head: a stack. */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

/* Add n right before head, i.e. at the end: a queue. */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

/* Unlink e. Its pointers are set to NULL so a use after removal faults
 * at once instead of silently walking a list e no longer belongs to. */
static inline void list_del(struct list_head *e)
{
	__list_del(e->prev, e->next);
	e->next = NULL;
	e->prev = NULL;
}

/* Unlink e and leave it as an empty list, so list_empty(e) is true and it
 * may be deleted or re-added again. */
static inline void list_del_init(struct list_head *e)
{
	__list_del(e->prev, e->next);
	INIT_LIST_HEAD(e);
}

/* Move e from whatever list it is on to the end of head. */
static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	__list_del(e->prev, e->next);
	list_add_tail(e, head);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Exactly one entry. */
static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)

/* The list must not be empty. */
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)

#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_entry(pos, head, member)                          \
	for (pos = list_first_entry(head, __typeof__(*pos), member);   \
	     &pos->member != (head);                                    \
	     pos = list_next_entry(pos, member))

/* Safe against removal of pos: n holds the next entry in advance. */
#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_first_entry(head, __typeof__(*pos), member),   \
	     n = list_next_entry(pos, member);                          \
	     &pos->member != (head);                                    \
	     pos = n, n = list_next_entry(n, member))

#endif
