/* kmalloc: small objects from power-of-two size classes (32 B .. 2 KiB),
 * each class a free list refilled a page at a time; larger requests get
 * whole contiguous frames. Every object carries a 16-byte header naming
 * its class, so kfree needs no size, and a magic that catches double frees
 * and wild pointers loudly. Memory comes from the direct map (RW, NX). */
#include "mm/mm.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/debug/fault_inject.h"
#include "lib/string.h"

#define KM_MAGIC_USED 0x6B6D616C6C6F6375ULL /* "kmallocu" */
#define KM_MAGIC_FREE 0x6B6D616C6C6F6366ULL /* "kmallocf" */
#define NCLASSES 7 /* 32, 64, ... 2048 bytes including the header */
#define BIG_CLASS 0xFF

struct km_header {
	u64 magic;
	u32 cls;     /* size class, or BIG_CLASS */
	u32 npages;  /* for BIG_CLASS */
};

struct km_free {
	struct km_header h;
	struct km_free *next;
};

static struct km_free *free_lists[NCLASSES];
static DEFINE_RAW_SPINLOCK(km_lock); /* raw: allocators stay raw (docs/11-preempt-rt.md) */
/* What kmalloc holds, for leak checks (kmalloc_usage()). The size
 * classes' pages are counted under km_lock; the rest atomically. */
static u64 km_objects, km_bytes, km_big_pages;
static u64 km_class_pages;

static size_t class_size(int c)
{
	return 32UL << c;
}

void *kmalloc(size_t size)
{
	if (should_fail(&failslab, size))
		return NULL;
	size_t need = size + sizeof(struct km_header);
	int c = 0;
	while (c < NCLASSES && class_size(c) < need)
		c++;
	if (c == NCLASSES) {
		size_t n = ALIGN_UP(need, PAGE_SIZE) / PAGE_SIZE;
		u64 pa = frame_alloc_contig(n);
		if (!pa)
			return NULL;
		struct km_header *h = phys_to_virt(pa);
		h->magic = KM_MAGIC_USED;
		h->cls = BIG_CLASS;
		h->npages = (u32)n;
		__atomic_add_fetch(&km_objects, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&km_big_pages, n, __ATOMIC_RELAXED);
		__atomic_add_fetch(&km_bytes, n * PAGE_SIZE, __ATOMIC_RELAXED);
		return h + 1;
	}
	u64 f = raw_spin_lock_irqsave(&km_lock);
	if (!free_lists[c]) {
		u64 pa = frame_alloc();
		if (!pa) {
			raw_spin_unlock_irqrestore(&km_lock, f);
			return NULL;
		}
		km_class_pages++;
		char *page = phys_to_virt(pa);
		for (size_t off = 0; off + class_size(c) <= PAGE_SIZE; off += class_size(c)) {
			struct km_free *o = (struct km_free *)(page + off);
			o->h.magic = KM_MAGIC_FREE;
			o->h.cls = c;
			o->next = free_lists[c];
			free_lists[c] = o;
		}
	}
	struct km_free *o = free_lists[c];
	free_lists[c] = o->next;
	__atomic_add_fetch(&km_objects, 1, __ATOMIC_RELAXED);
	raw_spin_unlock_irqrestore(&km_lock, f);
	if (o->h.magic != KM_MAGIC_FREE)
		panic("kmalloc: free list of class %zu corrupted at %p", class_size(c), o);
	o->h.magic = KM_MAGIC_USED;
	__atomic_add_fetch(&km_bytes, class_size(c), __ATOMIC_RELAXED);
	return &o->h + 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct km_header *h = (struct km_header *)p - 1;
	if (h->magic == KM_MAGIC_FREE)
		panic("kfree: double free of %p", p);
	if (h->magic != KM_MAGIC_USED)
		panic("kfree: %p was not allocated by kmalloc", p);
	__atomic_sub_fetch(&km_objects, 1, __ATOMIC_RELAXED);
	if (h->cls == BIG_CLASS) {
		__atomic_sub_fetch(&km_big_pages, h->npages, __ATOMIC_RELAXED);
		h->magic = KM_MAGIC_FREE;
		__atomic_sub_fetch(&km_bytes, (u64)h->npages * PAGE_SIZE, __ATOMIC_RELAXED);
		frame_free_contig(virt_to_phys(h), h->npages);
		return;
	}
	BUG_ON(h->cls >= NCLASSES);
	__atomic_sub_fetch(&km_bytes, class_size((int)h->cls), __ATOMIC_RELAXED);
	struct km_free *o = (struct km_free *)h;
	o->h.magic = KM_MAGIC_FREE;
	u64 f = raw_spin_lock_irqsave(&km_lock);
	o->next = free_lists[h->cls];
	free_lists[h->cls] = o;
	raw_spin_unlock_irqrestore(&km_lock, f);
}

void kmalloc_usage(struct kmalloc_usage *u)
{
	u->objects = __atomic_load_n(&km_objects, __ATOMIC_RELAXED);
	u->bytes = __atomic_load_n(&km_bytes, __ATOMIC_RELAXED);
	u->big_pages = __atomic_load_n(&km_big_pages, __ATOMIC_RELAXED);
	u->class_pages = READ_ONCE(km_class_pages);
}
