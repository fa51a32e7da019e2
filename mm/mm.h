/* Memory: physical frames, the kernel page tables, stacks and kmalloc.
 *
 * Virtual layout (48-bit canonical addresses):
 *   0x0000000000000000  nothing (NULL dereferences fault)
 *   0xFFFF800000000000  PAGE_OFFSET: direct map of all RAM, RW, NX, 2 MiB pages
 *                       (4 KiB around the kernel text, whose frames are RO)
 *   0xFFFFC00000000000  STACK_BASE: kernel stacks, each 16 KiB, THREAD_SIZE
 *                       aligned, with an unmapped 16 KiB guard below
 *   0xFFFFD00000000000  MMIO_BASE: device registers (LAPIC, IOAPIC), uncached
 *   0xFFFFE00000000000  TEXT_POKE_VA: one page, a writable alias of a text
 *                       page only while text_poke() writes through it
 *   0xFFFFFFFF80000000  KERNEL_VMA: the kernel image, 4 KiB pages, text R+X,
 *                       rodata R+NX, data/bss RW+NX
 */
#ifndef FOLD_KERNEL_MM_H
#define FOLD_KERNEL_MM_H
#include "lib/types.h"

#define PAGE_SIZE 4096UL
#define PAGE_SHIFT 12
#define PAGE_OFFSET 0xFFFF800000000000UL
#define STACK_BASE 0xFFFFC00000000000UL
#define MMIO_BASE 0xFFFFD00000000000UL
#define TEXT_POKE_VA 0xFFFFE00000000000UL
#define KERNEL_VMA 0xFFFFFFFF80000000UL

#define STACK_SIZE 16384UL   /* == THREAD_SIZE of the ti model */
#define STACK_SLOT (2 * STACK_SIZE)
#define STACK_SLOTS 4096

static inline void *phys_to_virt(u64 pa)
{
	return (void *)(pa + PAGE_OFFSET);
}
static inline u64 virt_to_phys(const void *va)
{
	u64 v = (u64)va;
	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - PAGE_OFFSET;
}

/* frame.c: the physical frame allocator (a bitmap, one bit per 4 KiB). */
void frame_init(void);
u64 frame_alloc(void);                 /* physical address, 0 if none */
u64 frame_alloc_contig(size_t n);      /* n contiguous frames */
u64 frame_alloc_above(u64 min_phys);   /* a frame at or above min_phys */
void frame_free(u64 pa);
void frame_free_contig(u64 pa, size_t n);
u64 frames_free(void);
extern u64 mem_max_phys;               /* end of the highest usable RAM */
extern u64 mem_usable_bytes;
extern u64 mem_above_4g_bytes;

/* stack.c: the stack top, or 0 when all STACK_SLOTS slots are in use or
 * no frame is free (a system call can ask: spawn). Boot-time callers,
 * which no user input reaches, use stack_alloc_boot(), which panics with
 * a message naming what the stack was for. */
u64 stack_alloc(void);
u64 stack_alloc_boot(const char *what);
void stack_free(u64 top);
u32 stack_slots_in_use(void);          /* stacks allocated and not freed */
u64 stack_frames_mapped(void);         /* frames the slots ever used hold (kept for reuse) */
bool stack_guard_contains(u64 va, int *slot);

/* kmalloc.c */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);
/* What kmalloc holds, for leak checks (tests/fault/leak_check.h). */
struct kmalloc_usage {
	u64 objects;     /* handed out and not freed */
	u64 bytes;       /* of those, each at its class size (header included),
			  * a large one in whole pages */
	u64 class_pages; /* frames the size classes took: kept on their free
			  * lists for reuse, never given back */
	u64 big_pages;   /* frames of the large objects alive */
};
void kmalloc_usage(struct kmalloc_usage *u);

/* fault_attrs.c: the allocators' fault injection (kernel/debug/fault_inject.h). */
struct fault_attr;
extern struct fault_attr failslab, fail_page_alloc, fail_stack_alloc;

extern char _kernel_phys_start[], _text_start[], _text_end[], _rodata_start[],
	_rodata_end[], _data_start[], _data_end[], _bss_start[], _bss_end[],
	_kernel_end[];
/* The page tables themselves are the arch's (map_page(), ioremap(), the
 * PTE bits and PAGE_KERNEL): arch/x86_64/mm/vm.h. */
#include "arch/x86_64/mm/vm.h"
#endif
