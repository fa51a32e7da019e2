/* User address spaces: see mm/user_mm.h.
 *
 * CR3 is written at every switch to a thread of another address space,
 * and a kernel thread runs on the kernel's own PML4 (no lazy TLB, Linux's
 * active_mm): then the only CPU that can have an address space loaded is
 * the one running its thread, and exit can free it at once. fold does not
 * use PCIDs: the kernel half is mapped global (PTE_G, CR4.PGE), so a CR3
 * write flushes only user entries, which a small process refills quickly,
 * and PCIDs would bring per-CPU ASID bookkeeping and remote invalidation
 * that teach nothing about preemption. */
#include "mm/user_mm.h"
#include "arch/x86_64/kernel/gdt.h"
#include "mm/mm.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "sched/sched.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "lib/string.h"

struct mm *mm_create(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));
	if (!mm)
		return NULL;
	mm->pgd = pgd_alloc();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	mm->cr3 = virt_to_phys(mm->pgd);
	return mm;
}

int mm_map_zero(struct mm *mm, u64 va, u64 len, int prot)
{
	u64 start = ALIGN_DOWN(va, PAGE_SIZE), end = ALIGN_UP(va + len, PAGE_SIZE);
	if (len == 0 || va + len < va || end > USER_TOP || start < PAGE_SIZE)
		return -EINVAL;
	u64 flags = PTE_P | PTE_U | (prot & MM_WRITE ? PTE_W : 0) |
		    (prot & MM_EXEC ? 0 : PTE_NX);
	for (u64 p = start; p < end; p += PAGE_SIZE) {
		u64 *pte = pgtable_walk_user(mm->pgd, p, true);
		if (!pte)
			return -ENOMEM;
		if (*pte & PTE_P)
			return -EINVAL;
		u64 pa = frame_alloc();
		if (!pa)
			return -ENOMEM;
		memset(phys_to_virt(pa), 0, PAGE_SIZE);
		*pte = pa | flags;
		mm->pages++;
	}
	return 0;
}

static void *user_page(struct mm *mm, u64 va)
{
	if (va >= USER_TOP)
		return NULL;
	u64 *pte = pgtable_walk_user(mm->pgd, va, false);
	if (!pte || !(*pte & PTE_P))
		return NULL;
	return (char *)phys_to_virt(*pte & PTE_ADDR) + (va & (PAGE_SIZE - 1));
}

int mm_write(struct mm *mm, u64 va, const void *src, size_t n)
{
	const char *s = src;
	while (n) {
		char *d = user_page(mm, va);
		if (!d)
			return -EFAULT;
		size_t chunk = MIN(n, PAGE_SIZE - (va & (PAGE_SIZE - 1)));
		memcpy(d, s, chunk);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

bool mm_is_mapped(struct mm *mm, u64 va)
{
	return user_page(mm, va) != NULL;
}

/* Free the user half: leaf pages, then the tables under each of the 256
 * lower PML4 entries (4-level paging, SDM Vol. 3A 5.5). */
static void free_level(u64 *table, int level)
{
	for (int i = 0; i < 512; i++) {
		u64 e = table[i];
		if (!(e & PTE_P))
			continue;
		if (level > 0)
			free_level(phys_to_virt(e & PTE_ADDR), level - 1);
		frame_free(e & PTE_ADDR);
	}
}

void mm_destroy(struct mm *mm)
{
	if (!mm)
		return;
	BUG_ON(read_cr3() == mm->cr3);
	for (int i = 0; i < 256; i++) {
		u64 e = mm->pgd[i];
		if (e & PTE_P) {
			free_level(phys_to_virt(e & PTE_ADDR), 2);
			frame_free(e & PTE_ADDR);
		}
	}
	frame_free(mm->cr3);
	kfree(mm->io_bitmap);
	kfree(mm);
}

void kthread_use_mm(struct mm *mm)
{
	u64 f = local_irq_save();
	current_thread()->mm = mm;
	switch_mm_irqs_off(current_thread());
	local_irq_restore(f);
}

void kthread_unuse_mm(void)
{
	kthread_use_mm(NULL);
}
