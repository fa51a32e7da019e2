/* Kernel stacks with guard pages. Each stack gets a STACK_SLOT-sized slot
 * in the STACK_BASE region: the lower half stays unmapped (the guard), the
 * upper half, STACK_SIZE-aligned, is the stack. Overflowing the stack
 * writes into the guard and faults at once instead of corrupting memory.
 * Freed stacks are kept for reuse with their frames: never unmapping them
 * means no other CPU can hold a stale TLB entry for a reused slot.
 *
 * Running out is an error, not a panic: a system call can get here
 * (spawn), so stack_alloc() returns 0 when every slot is taken or no
 * frame is free, and its caller undoes what it had done. The page tables
 * of the whole region are made at boot (vm_init), so mapping a stack
 * never needs a frame for a table: the stack's own frames are taken
 * before the slot, and given back if one is missing. */
#include "mm/mm.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/debug/fault_inject.h"
#include "lib/string.h"

#define STACK_FRAMES (STACK_SIZE / PAGE_SIZE)

static DEFINE_RAW_SPINLOCK(stack_lock); /* raw: allocators stay raw (docs/11-preempt-rt.md) */
static u32 slots_used;
static u64 free_tops[STACK_SLOTS];
static u32 nfree_tops;

static u64 reuse(void)
{
	u64 top = 0;
	u64 f = raw_spin_lock_irqsave(&stack_lock);
	if (nfree_tops)
		top = free_tops[--nfree_tops];
	raw_spin_unlock_irqrestore(&stack_lock, f);
	if (top)
		memset((void *)(top - STACK_SIZE), 0, STACK_SIZE);
	return top;
}

u64 stack_alloc(void)
{
	if (should_fail(&fail_stack_alloc, STACK_SIZE))
		return 0;
	u64 top = reuse();
	if (top)
		return top;
	u64 pa[STACK_FRAMES];
	for (u64 i = 0; i < STACK_FRAMES; i++) {
		pa[i] = frame_alloc();
		if (!pa[i]) {
			while (i--)
				frame_free(pa[i]);
			return 0;
		}
	}
	u64 f = raw_spin_lock_irqsave(&stack_lock);
	u64 slot = 0;
	if (slots_used < STACK_SLOTS)
		slot = STACK_BASE + (u64)slots_used++ * STACK_SLOT;
	raw_spin_unlock_irqrestore(&stack_lock, f);
	if (!slot) {
		for (u64 i = 0; i < STACK_FRAMES; i++)
			frame_free(pa[i]);
		return reuse(); /* one may have been freed meanwhile */
	}
	u64 base = slot + STACK_SLOT - STACK_SIZE;
	for (u64 i = 0; i < STACK_FRAMES; i++)
		map_page(base + i * PAGE_SIZE, pa[i], PAGE_KERNEL);
	memset((void *)base, 0, STACK_SIZE);
	return slot + STACK_SLOT;
}

u64 stack_alloc_boot(const char *what)
{
	u64 top = stack_alloc();
	if (!top)
		panic("stack_alloc: no kernel stack for %s at boot (%u of %d slots in use, "
		      "%llu frames free)", what, stack_slots_in_use(), STACK_SLOTS,
		      (unsigned long long)frames_free());
	return top;
}

void stack_free(u64 top)
{
	BUG_ON(top < STACK_BASE || (top - STACK_BASE) % STACK_SLOT);
	u64 f = raw_spin_lock_irqsave(&stack_lock);
	free_tops[nfree_tops++] = top;
	raw_spin_unlock_irqrestore(&stack_lock, f);
}

u32 stack_slots_in_use(void)
{
	u64 f = raw_spin_lock_irqsave(&stack_lock);
	u32 n = slots_used - nfree_tops;
	raw_spin_unlock_irqrestore(&stack_lock, f);
	return n;
}

u64 stack_frames_mapped(void)
{
	return READ_ONCE(slots_used) * STACK_FRAMES;
}

bool stack_guard_contains(u64 va, int *slot)
{
	if (va < STACK_BASE || va >= STACK_BASE + (u64)STACK_SLOTS * STACK_SLOT)
		return false;
	u64 off = (va - STACK_BASE) % STACK_SLOT;
	*slot = (int)((va - STACK_BASE) / STACK_SLOT);
	return off < STACK_SLOT - STACK_SIZE;
}
