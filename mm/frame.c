/* The physical frame allocator: one bit per 4 KiB frame up to the highest
 * usable address (1 = in use). The bitmap itself lives in the first usable
 * region above the kernel that can hold it. A bitmap is what a reader can
 * check by eye, and initialising it touches only itself, never the free
 * memory (which matters with -m 5G under emulation). */
#include "mm/mm.h"
#include "boot/multiboot.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/debug/fault_inject.h"
#include "lib/bitmap.h"
#include "lib/string.h"


u64 mem_max_phys;
u64 mem_usable_bytes;
u64 mem_above_4g_bytes;
static unsigned long *bitmap;
static u64 nframes, nfree, hint;
static DEFINE_RAW_SPINLOCK(frame_lock); /* raw: allocators stay raw (docs/11-preempt-rt.md) */

static void mark(u64 start, u64 end, bool used)
{
	for (u64 f = start >> PAGE_SHIFT; f < (end >> PAGE_SHIFT) && f < nframes; f++) {
		bool was = test_bit(f, bitmap);
		if (used && !was) {
			__set_bit(f, bitmap);
			nfree--;
		} else if (!used && was) {
			__clear_bit(f, bitmap);
			nfree++;
		}
	}
}

void frame_init(void)
{
	u64 kstart = (u64)_kernel_phys_start;
	u64 kend = virt_to_phys(_kernel_end);

	for (u32 i = 0; i < boot_info.mmap_count; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		if (m->type != MB_MEM_AVAILABLE)
			continue;
		u64 end = ALIGN_DOWN(m->base + m->len, PAGE_SIZE);
		if (end > mem_max_phys)
			mem_max_phys = end;
	}
	BUG_ON(mem_max_phys == 0);
	nframes = mem_max_phys >> PAGE_SHIFT;
	u64 bytes = ALIGN_UP(nframes, BITS_PER_LONG) / 8;

	/* Place the bitmap: the first usable spot above the kernel image and
	 * the boot information, below 1 GiB (what the boot page tables map). */
	u64 place = 0;
	u64 floor = MAX(kend, boot_info.info_phys + boot_info.info_size);
	for (u32 i = 0; i < boot_info.mmap_count && !place; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		if (m->type != MB_MEM_AVAILABLE)
			continue;
		u64 s = ALIGN_UP(MAX(m->base, floor), PAGE_SIZE);
		/* Past every module it would overlap; GRUB need not load them
		 * in address order, so look again after each move. */
		for (u32 j = 0; j < boot_info.mods_count; j++)
			if (s < boot_info.mods[j].end && s + bytes > boot_info.mods[j].start) {
				s = ALIGN_UP(boot_info.mods[j].end, PAGE_SIZE);
				j = (u32)-1;
			}
		if (s + bytes <= m->base + m->len && s + bytes <= (1UL << 30))
			place = s;
	}
	if (!place)
		panic("frame_init: no room for a %llu-byte frame bitmap below 1 GiB",
		      (unsigned long long)bytes);
	bitmap = phys_to_virt(place);
	memset(bitmap, 0xFF, bytes);
	nfree = 0;

	for (u32 i = 0; i < boot_info.mmap_count; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		if (m->type != MB_MEM_AVAILABLE)
			continue;
		u64 s = ALIGN_UP(m->base, PAGE_SIZE);
		u64 e = ALIGN_DOWN(m->base + m->len, PAGE_SIZE);
		if (e > s) {
			mark(s, e, false);
			mem_usable_bytes += e - s;
			if (e > (1UL << 32))
				mem_above_4g_bytes += e - MAX(s, 1UL << 32);
		}
	}
	/* Never hand out: the first 1 MiB (real-mode IVT, BIOS data, the AP
	 * trampoline), the kernel image, the boot information, boot modules,
	 * and the bitmap itself. */
	mark(0, 1UL << 20, true);
	mark(ALIGN_DOWN(kstart, PAGE_SIZE), ALIGN_UP(kend, PAGE_SIZE), true);
	mark(ALIGN_DOWN(boot_info.info_phys, PAGE_SIZE),
	     ALIGN_UP(boot_info.info_phys + boot_info.info_size, PAGE_SIZE), true);
	for (u32 j = 0; j < boot_info.mods_count; j++)
		mark(ALIGN_DOWN(boot_info.mods[j].start, PAGE_SIZE),
		     ALIGN_UP(boot_info.mods[j].end, PAGE_SIZE), true);
	mark(place, ALIGN_UP(place + bytes, PAGE_SIZE), true);
	hint = 0;
}

static u64 find_free_from(u64 start)
{
	u64 f = find_next_zero_bit(bitmap, nframes, start);
	return f < nframes ? f : 0;
}

u64 frame_alloc_above(u64 min_phys)
{
	if (should_fail(&fail_page_alloc, PAGE_SIZE))
		return 0;
	u64 flags = raw_spin_lock_irqsave(&frame_lock);
	u64 start = MAX(min_phys >> PAGE_SHIFT, 1);
	u64 f = find_free_from(start);
	if (f) {
		__set_bit(f, bitmap);
		nfree--;
	}
	raw_spin_unlock_irqrestore(&frame_lock, flags);
	return f << PAGE_SHIFT;
}

u64 frame_alloc(void)
{
	if (should_fail(&fail_page_alloc, PAGE_SIZE))
		return 0;
	u64 flags = raw_spin_lock_irqsave(&frame_lock);
	u64 f = find_free_from(hint ? hint : 1);
	if (!f)
		f = find_free_from(1);
	if (f) {
		__set_bit(f, bitmap);
		nfree--;
		hint = f + 1;
	}
	raw_spin_unlock_irqrestore(&frame_lock, flags);
	return f << PAGE_SHIFT;
}

u64 frame_alloc_contig(size_t n)
{
	if (should_fail(&fail_page_alloc, n * PAGE_SIZE))
		return 0;
	u64 flags = raw_spin_lock_irqsave(&frame_lock);
	u64 run = 0, start = 0;
	for (u64 f = 1; f < nframes; f++) {
		if (test_bit(f, bitmap)) {
			run = 0;
			continue;
		}
		if (run++ == 0)
			start = f;
		if (run == n) {
			for (u64 i = start; i < start + n; i++)
				__set_bit(i, bitmap);
			nfree -= n;
			raw_spin_unlock_irqrestore(&frame_lock, flags);
			return start << PAGE_SHIFT;
		}
	}
	raw_spin_unlock_irqrestore(&frame_lock, flags);
	return 0;
}

void frame_free(u64 pa)
{
	frame_free_contig(pa, 1);
}

void frame_free_contig(u64 pa, size_t n)
{
	u64 flags = raw_spin_lock_irqsave(&frame_lock);
	for (u64 f = pa >> PAGE_SHIFT; f < (pa >> PAGE_SHIFT) + n; f++) {
		if (f == 0 || f >= nframes || !test_bit(f, bitmap))
			panic("frame_free: frame %llx was not allocated",
			      (unsigned long long)(f << PAGE_SHIFT));
		__clear_bit(f, bitmap);
		nfree++;
	}
	raw_spin_unlock_irqrestore(&frame_lock, flags);
}

u64 frames_free(void)
{
	return nfree;
}