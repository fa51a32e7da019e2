/* text_poke(): the one writer of kernel text.
 *
 * The kernel image's text is mapped read-only and executable, and stays
 * so (W^X, arch/x86_64/mm/vm.c). To change bytes in it, text_poke() maps the
 * text page's frame a second time, writable and no-execute, at
 * TEXT_POKE_VA (mm/mm.h), writes through that alias, and removes the
 * alias (invlpg) before it returns: no address is ever writable and
 * executable at once. The CPU's self-modifying-code detection works on
 * physical addresses, and the serializing instruction after the write
 * covers this CPU either way (SDM Vol. 3A, "Handling Self- and
 * Cross-Modifying Code").
 *
 * Why a plain 5-byte write is safe here: the callers run it with every
 * other CPU parked in stop_machine() with interrupts off, so no CPU is
 * fetching the site while its bytes change, and each parked CPU executes
 * a serializing instruction before it returns to kernel code (park(),
 * kernel/stop_machine.c), the protocol of the SDM's cross-modifying-code
 * section. Linux patches without stopping the machine: text_poke_bp()
 * writes an int3 over the first byte, syncs every CPU, writes the tail,
 * syncs, then writes the first byte, so a CPU that races into the site
 * traps on the int3 and is sent on (arch/x86/kernel/alternative.c). fold
 * does not need that: its mode switch already stops the machine. A
 * parked CPU can still take an NMI, but the NMI path runs no site: it
 * leaves without exit work (no IRQ-exit site), and its count is never 0,
 * so no preempt_enable() in it reaches the thunk.
 *
 * The alias's TLB entry: this CPU's goes with the invlpg of unmap_page().
 * Another CPU could at most have cached one by a speculative walk while
 * it spun in park(); nothing but text_poke() uses TEXT_POKE_VA, and
 * map_page() invalidates the address on the CPU that maps it before the
 * write, so a stale entry elsewhere is never used. */
#include "arch/x86_64/kernel/text_poke.h"
#include "arch/x86_64/mm/vm.h"
#include "arch/x86_64/cpu.h"
#include "mm/mm.h"
#include "kernel/panic.h"
#include "lib/string.h"

void sync_core(void)
{
	u32 a, b, c, d;
	cpuid(0, &a, &b, &c, &d);
	barrier();
}

static bool in_text(u64 va, size_t len)
{
	return va >= (u64)_text_start && va + len <= (u64)_text_end && va + len >= va;
}

void text_poke(void *addr, const void *bytes, size_t len)
{
	u64 va = (u64)addr;
	if (!irqs_disabled())
		BUG("text_poke with IRQs on: another thread could run the alias's page");
	if (!in_text(va, len))
		BUG("text_poke: %lx+%lu is not kernel text", (unsigned long)va,
		    (unsigned long)len);
	const u8 *src = bytes;
	while (len) {
		u64 off = va & (PAGE_SIZE - 1);
		size_t n = PAGE_SIZE - off < len ? PAGE_SIZE - off : len;
		/* Not global (no PTE_G): nothing keeps it past a CR3 load. */
		map_page(TEXT_POKE_VA, virt_to_phys((void *)(va - off)), PTE_W | PTE_NX);
		memcpy((void *)(TEXT_POKE_VA + off), src, n);
		unmap_page(TEXT_POKE_VA); /* and invlpg */
		va += n;
		src += n;
		len -= n;
	}
	sync_core();
}
