/* Fuzz target: the multiboot2 boot information (boot/multiboot.c),
 * then the command line it carries (kernel/cmdline.c), as kmain does. The
 * input is the information block itself, its u32 total size first; a
 * total larger than the input is cut to the input (GRUB's block is as
 * long as it says, so there is nothing to read past it), a smaller one
 * is kept. The block sits in a heap buffer of exactly that many bytes,
 * so a read past its end is an ASan report. After parsing, every count
 * must be within its array and every string terminated. */
#include "tests/fuzz/fuzz.h"
#include "boot/multiboot.h"
#include "kernel/cmdline.h"
#include "mm/mm.h"
#include "lib/string.h"
#include "lib/unaligned.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	if (size < 8 || size > (1u << 20))
		return -1; /* GRUB's block always has its two u32s */
	u8 *info = malloc(size);
	FUZZ_ASSERT(info && ((uintptr_t)info & 7) == 0); /* GRUB aligns it to 8 */
	memcpy(info, data, size);
	u32 total = get_unaligned_le32(info);
	if (total > size) {
		total = (u32)size;
		memcpy(info, &total, 4);
	}
	memset(&boot_info, 0, sizeof(boot_info));

	/* phys_to_virt() adds PAGE_OFFSET: hand over the address that lands
	 * on the buffer (unsigned arithmetic, so the wrap is defined). */
	multiboot_parse((u64)(uintptr_t)info - PAGE_OFFSET);
	/* The AP trampoline's page from whatever map was parsed: below 1 MiB,
	 * page-aligned, never page 0, inside a usable entry. */
	u64 low = mb_low_page(0x8000);
	FUZZ_ASSERT(!low || (low >= PAGE_SIZE && low < (1UL << 20) && !(low & (PAGE_SIZE - 1))));
	free(info);

	FUZZ_ASSERT(boot_info.info_size == total);
	FUZZ_ASSERT(boot_info.mmap_count <= MB_MMAP_MAX);
	FUZZ_ASSERT(boot_info.mods_count <= MB_MODS_MAX);
	FUZZ_ASSERT(boot_info.rsdp_len <= sizeof(boot_info.rsdp));
	FUZZ_ASSERT(memchr(boot_info.cmdline, 0, sizeof(boot_info.cmdline)));
	FUZZ_ASSERT(memchr(boot_info.loader, 0, sizeof(boot_info.loader)));
	for (u32 i = 0; i < boot_info.mods_count; i++) {
		const struct mb_module *m = &boot_info.mods[i];
		FUZZ_ASSERT(memchr(m->name, 0, sizeof(m->name)));
		FUZZ_ASSERT(!strchr(m->name, ' ') && !strchr(m->name, '\t'));
	}
	for (u32 i = 0; i < boot_info.mmap_count; i++)
		(void)mb_mem_type_name(boot_info.mmap[i].type);
	cmdline_parse(boot_info.cmdline);
	return 0;
}
