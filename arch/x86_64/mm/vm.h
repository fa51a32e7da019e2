/* The kernel page tables: x86-64 4-level paging (arch/x86_64/mm/vm.c). */
#ifndef FOLD_ARCH_VM_H
#define FOLD_ARCH_VM_H
#include "lib/types.h"

/* Page-table entry bits (SDM Vol. 3A 5.5, Table 5-20 and friends). */
#define PTE_P (1UL << 0)
#define PTE_W (1UL << 1)
#define PTE_U (1UL << 2)
#define PTE_PWT (1UL << 3)
#define PTE_PCD (1UL << 4)
#define PTE_PS (1UL << 7)
#define PTE_G (1UL << 8)
#define PTE_NX (1UL << 63)
#define PTE_ADDR 0x000FFFFFFFFFF000UL

/* A kernel stack or data page: RW, NX, global. */
#define PAGE_KERNEL (PTE_W | PTE_NX | PTE_G)

void vm_init(void);
void vm_load(void);                    /* load them on this CPU */
void map_page(u64 va, u64 pa, u64 flags);
void unmap_page(u64 va);
bool virt_is_mapped(u64 va);
u64 virt_pte_flags(u64 va);            /* 0 if not mapped */
void *ioremap(u64 pa, size_t size);    /* uncached, RW, NX */
void *memremap(u64 pa, size_t size);   /* cached, read-only, NX (firmware tables) */
/* The kernel page tables' physical address, set once by vm_init(). */
extern u64 pml4_phys;
/* What CR3 holds for a kernel thread: inline, read on every context switch
 * (switch_mm_irqs_off). */
static inline u64 kernel_cr3(void)
{
	return pml4_phys;
}
/* User address spaces (mm/user_mm.c builds on these): a PML4 with the
 * kernel half shared, and the leaf entry of a user address in it (the
 * tables created with P|W|U if `create`; NULL if out of memory or, without
 * `create`, not mapped). */
u64 *pgd_alloc(void);
u64 *pgtable_walk_user(u64 *root, u64 va, bool create);
const char *mm_describe_address(u64 va);

#endif
