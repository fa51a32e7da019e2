/* Kernel stacks with guard pages. Each stack gets a STACK_SLOT-sized slot
 * in the STACK_BASE region: the lower half stays unmapped (the guard), the
 * upper half, STACK_SIZE-aligned, is the stack. Overflowing the stack
 * writes into the guard and faults at once instead of corrupting memory.
 * Freed stacks are kept for reuse with their frames: never unmapping them
 * means no other CPU can hold a stale TLB entry for a reused slot. */
#include "mm/mm.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(stack_lock);
static u32 slots_used;
static u64 free_tops[STACK_SLOTS];
static u32 nfree_tops;

u64 stack_alloc(void)
{
	u64 f = spin_lock_irqsave(&stack_lock);
	if (nfree_tops) {
		u64 top = free_tops[--nfree_tops];
		spin_unlock_irqrestore(&stack_lock, f);
		memset((void *)(top - STACK_SIZE), 0, STACK_SIZE);
		return top;
	}
	if (slots_used == STACK_SLOTS)
		panic("stack_alloc: all %d kernel stack slots in use", STACK_SLOTS);
	u64 slot = STACK_BASE + (u64)slots_used++ * STACK_SLOT;
	spin_unlock_irqrestore(&stack_lock, f);
	u64 base = slot + STACK_SLOT - STACK_SIZE;
	for (u64 va = base; va < slot + STACK_SLOT; va += PAGE_SIZE) {
		u64 pa = frame_alloc();
		if (!pa)
			panic("stack_alloc: out of memory");
		map_page(va, pa, PAGE_KERNEL);
	}
	memset((void *)base, 0, STACK_SIZE);
	return slot + STACK_SLOT;
}

void stack_free(u64 top)
{
	BUG_ON(top < STACK_BASE || (top - STACK_BASE) % STACK_SLOT);
	u64 f = spin_lock_irqsave(&stack_lock);
	free_tops[nfree_tops++] = top;
	spin_unlock_irqrestore(&stack_lock, f);
}

bool stack_guard_contains(u64 va, int *slot)
{
	if (va < STACK_BASE || va >= STACK_BASE + (u64)STACK_SLOTS * STACK_SLOT)
		return false;
	u64 off = (va - STACK_BASE) % STACK_SLOT;
	*slot = (int)((va - STACK_BASE) / STACK_SLOT);
	return off < STACK_SLOT - STACK_SIZE;
}
