/* A user address space (Linux's struct mm_struct, much reduced): the
 * lower half of a PML4 of its own, the upper half shared with the kernel
 * (arch/x86_64/mm/vm.c, pgd_alloc()). All of a process's memory is mapped
 * when it is loaded (process/exec.c): there is no demand paging, so a user
 * page fault is always a bad access. */
#ifndef FOLD_KERNEL_USER_MM_H
#define FOLD_KERNEL_USER_MM_H
#include "lib/types.h"
#include "sched/thread.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/mm/vm.h"

struct mm {
	u64 *pgd;           /* the PML4, through the direct map */
	u64 cr3;            /* its physical address, what CR3 holds */
	u64 pages;          /* user pages mapped */
	u8 *io_bitmap;      /* ioperm()'s I/O permission bit map, or NULL */
	u64 io_bitmap_seq;  /* its version (arch/x86_64/kernel/gdt.h), 0 while NULL */
};

/* User mappings: read is implied; these add write and execute. */
#define MM_WRITE 1
#define MM_EXEC 2

struct mm *mm_create(void);                 /* NULL when out of memory */
/* Zeroed pages over [va, va + len), page-rounded: 0, -ENOMEM, -EINVAL
 * (outside the user half, or already mapped). */
int mm_map_zero(struct mm *mm, u64 va, u64 len, int prot);
/* Copy into the address space through the direct map (it need not be
 * loaded): 0, or -EFAULT for an unmapped byte. */
int mm_write(struct mm *mm, u64 va, const void *src, size_t n);
bool mm_is_mapped(struct mm *mm, u64 va);
void mm_destroy(struct mm *mm);             /* must not be loaded anywhere */

/* CR3 at a context switch: the next thread's address space, or the
 * kernel's for a kernel thread, and the I/O bit map that goes with it
 * (IRQs off; sched/core.c). Inline: every switch runs it. */
static __always_inline void switch_mm_irqs_off(struct thread *next)
{
	struct mm *mm = next->mm;
	u64 cr3 = mm ? mm->cr3 : kernel_cr3();
	if (read_cr3() != cr3)
		write_cr3(cr3);
	tss_load_io_bitmap(mm ? mm->io_bitmap : NULL,
			   mm ? __atomic_load_n(&mm->io_bitmap_seq, __ATOMIC_ACQUIRE) : 0);
}
/* A kernel thread borrowing an address space (Linux's kthread_use_mm),
 * for benchmarks and tests of user access from the kernel. */
void kthread_use_mm(struct mm *mm);
void kthread_unuse_mm(void);
#endif
