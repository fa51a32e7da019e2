/* The memory suite: frames, the direct map (RAM above 4 GiB too), the
 * kernel's page permissions, guard pages and kmalloc. */
#include "tests/kernel/ktest.h"
#include "mm/mm.h"
#include "lib/string.h"
#include "arch/x86_64/cpu.h"
#include "boot/multiboot.h"

static void frame_alloc_free(struct ktest *t)
{
	u64 before = frames_free();
	u64 a = frame_alloc(), b = frame_alloc();
	KT_ASSERT(t, a && b);
	KT_EXPECT(t, a != b);
	KT_EXPECT_EQ(t, a % PAGE_SIZE, 0);
	KT_EXPECT_OP(t, a, >=, 1UL << 20); /* low memory is never handed out */
	KT_EXPECT_EQ(t, frames_free(), before - 2);
	frame_free(a);
	frame_free(b);
	KT_EXPECT_EQ(t, frames_free(), before);
	u64 c = frame_alloc_contig(4);
	KT_ASSERT(t, c);
	KT_EXPECT_EQ(t, frames_free(), before - 4);
	frame_free_contig(c, 4);
	KT_EXPECT_EQ(t, frames_free(), before);
}

static bool pattern_roundtrip(u64 pa)
{
	volatile u64 *p = phys_to_virt(pa);
	for (u64 i = 0; i < PAGE_SIZE / 8; i++)
		p[i] = pa ^ (i * 0x9E3779B97F4A7C15ULL);
	for (u64 i = 0; i < PAGE_SIZE / 8; i++)
		if (p[i] != (pa ^ (i * 0x9E3779B97F4A7C15ULL)))
			return false;
	return true;
}

static void direct_map_rw(struct ktest *t)
{
	u64 pa = frame_alloc();
	KT_ASSERT(t, pa);
	KT_EXPECT(t, pattern_roundtrip(pa));
	frame_free(pa);
}

/* With -m 5G QEMU puts 2-3 GiB of the RAM above 4 GiB (the PCI hole sits
 * below): the allocator and the direct map must reach it. */
static void ram_above_4g(struct ktest *t)
{
	if (!mem_above_4g_bytes)
		KT_SKIP(t, "no RAM above 4 GiB (boot with -m 5G)");
	ktest_diag(t, "RAM above 4 GiB: %llu MiB of %llu MiB usable, highest %#llx",
		   (unsigned long long)(mem_above_4g_bytes >> 20),
		   (unsigned long long)(mem_usable_bytes >> 20),
		   (unsigned long long)mem_max_phys);
	u64 pa = frame_alloc_above(1UL << 32);
	KT_ASSERT(t, pa);
	KT_EXPECT_OP(t, pa, >=, 1UL << 32);
	KT_EXPECT(t, virt_is_mapped((u64)phys_to_virt(pa)));
	KT_EXPECT(t, pattern_roundtrip(pa));
	/* And the very last usable frame. */
	u64 last = frame_alloc_above(mem_max_phys - PAGE_SIZE);
	KT_EXPECT_EQ(t, last, mem_max_phys - PAGE_SIZE);
	if (last) {
		KT_EXPECT(t, pattern_roundtrip(last));
		frame_free(last);
	}
	ktest_diag(t, "used frame %#llx through the direct map", (unsigned long long)pa);
	frame_free(pa);
}

static void kernel_permissions(struct ktest *t)
{
	u64 text = virt_pte_flags((u64)_text_start);
	u64 ro = virt_pte_flags((u64)_rodata_start);
	u64 data = virt_pte_flags((u64)_data_start);
	u64 heap = virt_pte_flags((u64)phys_to_virt(1UL << 20));
	KT_EXPECT(t, text & PTE_P);
	KT_EXPECT(t, !(text & PTE_W));  /* text: read-only */
	KT_EXPECT(t, !(text & PTE_NX)); /* ... and executable */
	KT_EXPECT(t, !(ro & PTE_W));
	KT_EXPECT(t, ro & PTE_NX);
	KT_EXPECT(t, data & PTE_W);
	KT_EXPECT(t, data & PTE_NX);
	KT_EXPECT(t, heap & PTE_W);
	KT_EXPECT(t, heap & PTE_NX);
	KT_EXPECT(t, read_cr0() & (1UL << 16));     /* CR0.WP: binds the kernel too */
	KT_EXPECT(t, rdmsr(MSR_EFER) & EFER_NXE);  /* NX bits are honoured */
}

static void null_page_unmapped(struct ktest *t)
{
	KT_EXPECT(t, !virt_is_mapped(0));
	KT_EXPECT(t, !virt_is_mapped(PAGE_SIZE - 1));
}

static void stack_guard_page(struct ktest *t)
{
	u64 top = stack_alloc();
	KT_ASSERT(t, top); /* 0: no slot or frame left */
	u64 base = top - STACK_SIZE;
	int slot;
	KT_EXPECT(t, virt_is_mapped(base));
	KT_EXPECT(t, virt_is_mapped(top - 8));
	KT_EXPECT(t, !virt_is_mapped(base - 8));
	KT_EXPECT(t, stack_guard_contains(base - 8, &slot));
	KT_EXPECT(t, !stack_guard_contains(base, &slot));
	stack_free(top);
}

static void kmalloc_sizes(struct ktest *t)
{
	static const size_t sizes[] = { 1, 16, 17, 100, 1000, 2000, 5000, 70000 };
	void *p[ARRAY_SIZE(sizes)];
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i]);
		KT_ASSERT(t, p[i]);
		KT_EXPECT_EQ(t, (u64)p[i] % 16, 0);
		memset(p[i], (int)i + 1, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const u8 *b = p[i];
		KT_EXPECT(t, b[0] == i + 1 && b[sizes[i] - 1] == i + 1);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
	/* A freed small object is reused first. */
	void *a = kmalloc(40);
	kfree(a);
	void *b = kmalloc(40);
	KT_EXPECT(t, a == b);
	kfree(b);
	u64 *z = kzalloc(256);
	KT_ASSERT(t, z);
	KT_EXPECT_EQ(t, z[0] | z[31], 0);
	kfree(z);
}


/* The AP trampoline's page below 1 MiB comes from the memory map
 * (mb_low_page): 0x8000 when it is free RAM, else the lowest free page
 * clear of reserved entries, modules and the boot information; none when
 * the map offers none. Runs on a borrowed boot_info, restored after. */
static struct mb_mmap_entry saved_map[MB_MMAP_MAX];
static struct mb_module saved_mods[MB_MODS_MAX];

static void set_map(const struct mb_mmap_entry *e, u32 n)
{
	memcpy(boot_info.mmap, e, sizeof(*e) * n);
	boot_info.mmap_count = n;
}

static void trampoline_page_from_map(struct ktest *t)
{
	KT_EXPECT_OP(t, mb_low_page(0x8000), !=, 0); /* this boot's own map */
	memcpy(saved_map, boot_info.mmap, sizeof(saved_map));
	memcpy(saved_mods, boot_info.mods, sizeof(saved_mods));
	u32 nmap = boot_info.mmap_count, nmods = boot_info.mods_count;
	u64 info = boot_info.info_phys, info_size = boot_info.info_size;
	boot_info.mods_count = 0;
	boot_info.info_phys = 0x200000;
	boot_info.info_size = 0x1000;

	const struct mb_mmap_entry bios[] = { { 0, 0x9FC00, MB_MEM_AVAILABLE },
					      { 0x100000, 0x1000000, MB_MEM_AVAILABLE } };
	set_map(bios, 2);
	KT_EXPECT_EQ(t, mb_low_page(0x8000), 0x8000);
	KT_EXPECT_EQ(t, mb_low_page(0x9F000), 0x1000); /* crosses 0x9FC00: not whole */

	const struct mb_mmap_entry efi[] = { { 0, 0xA0000, MB_MEM_AVAILABLE },
					     { 0x1000, 0x8000, MB_MEM_RESERVED } };
	set_map(efi, 2);
	KT_EXPECT_EQ(t, mb_low_page(0x8000), 0x9000);

	boot_info.mods[0] = (struct mb_module){ 0x9000, 0xB800, "m" };
	boot_info.mods_count = 1;
	boot_info.info_phys = 0xC100;
	boot_info.info_size = 0x10;
	KT_EXPECT_EQ(t, mb_low_page(0x8000), 0xD000);
	boot_info.mods_count = 0;

	const struct mb_mmap_entry high_only[] = { { 0x100000, 0x1000000, MB_MEM_AVAILABLE } };
	set_map(high_only, 1);
	KT_EXPECT_EQ(t, mb_low_page(0x8000), 0);
	set_map(high_only, 0);
	KT_EXPECT_EQ(t, mb_low_page(0x8000), 0);

	memcpy(boot_info.mmap, saved_map, sizeof(saved_map));
	memcpy(boot_info.mods, saved_mods, sizeof(saved_mods));
	boot_info.mmap_count = nmap;
	boot_info.mods_count = nmods;
	boot_info.info_phys = info;
	boot_info.info_size = info_size;
}

KTEST_SUITE(memory,
	KTEST_CASE(frame_alloc_free),
	KTEST_CASE(direct_map_rw),
	KTEST_CASE(ram_above_4g),
	KTEST_CASE(kernel_permissions),
	KTEST_CASE(null_page_unmapped),
	KTEST_CASE(stack_guard_page),
	KTEST_CASE(kmalloc_sizes),
	KTEST_CASE(trampoline_page_from_map));
