/* The kernel page tables, built once by the boot CPU and shared by all
 * CPUs. 4-level paging: PML4 -> PDPT -> PD -> PT (SDM Vol. 3A 5.5). */
#include "mm/mm.h"
#include "boot/multiboot.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "lib/format.h"

static u64 *pml4;
u64 pml4_phys;
static DEFINE_RAW_SPINLOCK(vm_lock); /* raw: allocators stay raw (docs/11-preempt-rt.md) */
static u64 mmio_next = MMIO_BASE;

static u64 *table_alloc(void)
{
	u64 pa = frame_alloc();
	if (!pa)
		panic("vm: out of memory for page tables");
	u64 *t = phys_to_virt(pa);
	memset(t, 0, PAGE_SIZE);
	return t;
}

#define IDX(va, level) (((va) >> (12 + 9 * (level))) & 511)

/* The entry for va at a level (3 = PML4 ... 0 = PT) under `root`,
 * creating the tables above it with `table_flags` (P|W for the kernel,
 * P|W|U for user space: the leaf decides the rest, SDM Vol. 3A 5.6.1:
 * access rights combine over every level). With alloc NULL, a missing
 * table means NULL. */
static u64 *walk_create_in(u64 *root, u64 va, int leaf_level, u64 table_flags,
			   u64 (*alloc)(void))
{
	u64 *t = root;
	for (int level = 3; level > leaf_level; level--) {
		u64 *e = &t[IDX(va, level)];
		if (!(*e & PTE_P)) {
			if (!alloc)
				return NULL;
			u64 pa = alloc();
			if (!pa)
				return NULL;
			memset(phys_to_virt(pa), 0, PAGE_SIZE);
			*e = pa | table_flags;
		}
		BUG_ON(*e & PTE_PS);
		t = phys_to_virt(*e & PTE_ADDR);
	}
	return &t[IDX(va, leaf_level)];
}

static u64 table_frame(void)
{
	u64 pa = frame_alloc();
	if (!pa)
		panic("vm: out of memory for page tables");
	return pa;
}

static u64 *walk_create(u64 va, int leaf_level)
{
	return walk_create_in(pml4, va, leaf_level, PTE_P | PTE_W, table_frame);
}

u64 *pgtable_walk_user(u64 *root, u64 va, bool create)
{
	return walk_create_in(root, va, 0, PTE_P | PTE_W | PTE_U,
			      create ? frame_alloc : NULL);
}

/* A new address space: an empty user half and the kernel half shared, by
 * copying the kernel's 256 upper PML4 entries. vm_init() made every one
 * of them present, so a kernel mapping added later (a stack, ioremap) is
 * in a table they all share and is seen by every address space. */
u64 *pgd_alloc(void)
{
	u64 pa = frame_alloc();
	if (!pa)
		return NULL;
	u64 *pgd = phys_to_virt(pa);
	memset(pgd, 0, PAGE_SIZE / 2);
	memcpy(pgd + 256, pml4 + 256, PAGE_SIZE / 2);
	return pgd;
}

void map_page(u64 va, u64 pa, u64 flags)
{
	u64 f = raw_spin_lock_irqsave(&vm_lock);
	*walk_create(va, 0) = (pa & PTE_ADDR) | flags | PTE_P;
	invlpg(va);
	raw_spin_unlock_irqrestore(&vm_lock, f);
}

static void map_2m(u64 va, u64 pa, u64 flags)
{
	*walk_create(va, 1) = (pa & PTE_ADDR) | flags | PTE_P | PTE_PS;
}

/* The leaf entry for va, or NULL; *level says which (0 = 4K, 1 = 2M). */
static u64 *walk(u64 va, int *level)
{
	if (!pml4)
		return NULL;
	u64 *t = pml4;
	for (int l = 3; l >= 0; l--) {
		u64 *e = &t[IDX(va, l)];
		if (!(*e & PTE_P))
			return NULL;
		if (l == 0 || (*e & PTE_PS)) {
			*level = l;
			return e;
		}
		t = phys_to_virt(*e & PTE_ADDR);
	}
	return NULL;
}

void unmap_page(u64 va)
{
	int level;
	u64 f = raw_spin_lock_irqsave(&vm_lock);
	u64 *e = walk(va, &level);
	if (e && level == 0) {
		*e = 0;
		invlpg(va);
	}
	raw_spin_unlock_irqrestore(&vm_lock, f);
}

/* Canonical check first: a walk of a non-canonical address means nothing. */
static bool canonical(u64 va)
{
	return (u64)((s64)(va << 16) >> 16) == va;
}

bool virt_is_mapped(u64 va)
{
	if (!pml4) /* before vm_init: the boot map covers the kernel */
		return va >= KERNEL_VMA;
	int level;
	return canonical(va) && walk(va, &level) != NULL;
}

u64 virt_pte_flags(u64 va)
{
	int level;
	u64 *e = canonical(va) ? walk(va, &level) : NULL;
	return e ? (*e & ~PTE_ADDR) : 0;
}

void *ioremap(u64 pa, size_t size)
{
	u64 off = pa & (PAGE_SIZE - 1);
	u64 n = ALIGN_UP(size + off, PAGE_SIZE);
	u64 f = raw_spin_lock_irqsave(&vm_lock);
	u64 va = mmio_next;
	mmio_next += n + PAGE_SIZE; /* a hole between mappings */
	raw_spin_unlock_irqrestore(&vm_lock, f);
	for (u64 i = 0; i < n; i += PAGE_SIZE)
		map_page(va + i, (pa & PTE_ADDR) + i, PTE_W | PTE_PCD | PTE_PWT | PTE_NX);
	return (void *)(va + off);
}

void *memremap(u64 pa, size_t size)
{
	u64 off = pa & (PAGE_SIZE - 1);
	u64 n = ALIGN_UP(size + off, PAGE_SIZE);
	u64 f = raw_spin_lock_irqsave(&vm_lock);
	u64 va = mmio_next;
	mmio_next += n + PAGE_SIZE;
	raw_spin_unlock_irqrestore(&vm_lock, f);
	for (u64 i = 0; i < n; i += PAGE_SIZE)
		map_page(va + i, (pa & PTE_ADDR) + i, PTE_NX);
	return (void *)(va + off);
}

/* One 2 MiB piece of the direct map at physical pa. The pieces that hold
 * kernel text get 4 KiB pages instead, the text frames read-only (NX like
 * all of the direct map): otherwise the direct map would be a permanent
 * writable alias of the text, and W^X would hold for one address of it
 * only. text_poke() (arch/x86_64/kernel/text_poke.c) makes the one writable alias
 * there ever is, for as long as it writes. */
static void map_direct_2m(u64 pa)
{
	u64 ts = virt_to_phys(_text_start), te = virt_to_phys(_text_end);
	if (pa + (1UL << 21) <= ts || pa >= te) {
		map_2m(PAGE_OFFSET + pa, pa, PTE_W | PTE_NX | PTE_G);
		return;
	}
	for (u64 p = pa; p < pa + (1UL << 21); p += PAGE_SIZE) {
		u64 w = p >= ts && p < te ? 0 : PTE_W;
		*walk_create(PAGE_OFFSET + p, 0) = p | w | PTE_NX | PTE_G | PTE_P;
	}
}

static void map_kernel_range(char *start, char *end, u64 flags)
{
	for (u64 va = (u64)start; va < (u64)end; va += PAGE_SIZE)
		*walk_create(va, 0) = virt_to_phys((void *)va) | flags | PTE_P | PTE_G;
}

void vm_init(void)
{
	pml4 = table_alloc();
	pml4_phys = virt_to_phys(pml4);
	/* Every kernel-half PML4 entry present from the start (1 MiB of
	 * PDPTs), so the address spaces made by pgd_alloc() share them. */
	for (int i = 256; i < 512; i++)
		pml4[i] = virt_to_phys(table_alloc()) | PTE_P | PTE_W;

	/* The direct map: every RAM range (usable and ACPI, so the tables are
	 * readable), rounded out to 2 MiB. MMIO holes stay unmapped: devices
	 * are mapped uncached through ioremap() instead. */
	for (u32 i = 0; i < boot_info.mmap_count; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		if (m->type != MB_MEM_AVAILABLE && m->type != MB_MEM_ACPI &&
		    m->type != MB_MEM_NVS)
			continue;
		u64 s = ALIGN_DOWN(m->base, 1UL << 21);
		u64 e = ALIGN_UP(m->base + m->len, 1UL << 21);
		for (u64 pa = s; pa < e; pa += 1UL << 21)
			map_direct_2m(pa);
	}
	/* The first 2 MiB always (BIOS areas, the AP trampoline, the RSDP). */
	map_direct_2m(0);

	/* The kernel image, by permission class. */
	map_kernel_range(_text_start, _text_end, 0);
	map_kernel_range(_rodata_start, _rodata_end, PTE_NX);
	map_kernel_range(_data_start, _data_end, PTE_W | PTE_NX);

	/* The kernel stacks' page tables, for every slot now (one table per
	 * 2 MiB: 64 frames for 4096 slots), so stack_alloc() never needs a
	 * frame for a table and can fail cleanly (mm/stack.c). */
	for (u64 va = STACK_BASE; va < STACK_BASE + (u64)STACK_SLOTS * STACK_SLOT; va += 1UL << 21)
		walk_create(va, 0);
	vm_load();
}

void vm_load(void)
{
	/* CR4.PGE (bit 7) makes the global kernel mappings survive CR3
	 * writes; CR0.WP (bit 16) makes read-only pages read-only for the
	 * kernel too. */
	write_cr4(read_cr4() | X86_CR4_PGE);
	write_cr0(read_cr0() | (1UL << 16));
	write_cr3(pml4_phys);
}

const char *mm_describe_address(u64 va)
{
	static char buf[MAX_CPUS][64];
	static u32 rot;
	char *b = buf[__atomic_fetch_add(&rot, 1, __ATOMIC_RELAXED) % MAX_CPUS];
	int slot;
	if (va < PAGE_SIZE)
		return "the NULL page (never mapped)";
	if (stack_guard_contains(va, &slot)) {
		snprintf(b, 64, "the guard page of kernel stack %d", slot);
		return b;
	}
	if (va >= (u64)_text_start && va < (u64)_text_end)
		return "kernel text (read-only)";
	if (va >= (u64)_rodata_start && va < (u64)_rodata_end)
		return "kernel rodata (read-only, no-execute)";
	if (va >= (u64)_data_start && va < (u64)_data_end)
		return "kernel data (no-execute)";
	if (va >= PAGE_OFFSET && va < PAGE_OFFSET + (1UL << 46))
		return "the direct map (heap, no-execute)";
	if (va >= MMIO_BASE && va < MMIO_BASE + (1UL << 40))
		return "device memory";
	if (va >= TEXT_POKE_VA && va < TEXT_POKE_VA + PAGE_SIZE)
		return "the text_poke() alias (mapped only while it writes)";
	return NULL;
}
