/* Parse the multiboot2 boot information (Multiboot2 spec 3.6): a u32 total
 * size, a reserved u32, then 8-byte-aligned tags {u32 type, u32 size, ...}
 * ending with a type-0 tag. */
#include "kernel/multiboot.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "lib/string.h"

struct boot_info boot_info;

struct mb_tag {
	u32 type, size;
};

/* One module tag's body: two u32 addresses, then the string, which may be
 * empty; it is read only inside the tag's size. The name is its first
 * word (spaces and tabs separate words), cut to MB_MOD_NAME_MAX - 1. */
static void module_record(struct mb_module *mod, const u8 *body, u32 len)
{
	const char *str = (const char *)body + 8;
	u32 n = len - 8, i = 0, k = 0;
	mod->start = ((const u32 *)body)[0];
	mod->end = ((const u32 *)body)[1];
	while (i < n && (str[i] == ' ' || str[i] == '\t'))
		i++;
	while (i < n && str[i] && str[i] != ' ' && str[i] != '\t' &&
	       k < MB_MOD_NAME_MAX - 1)
		mod->name[k++] = str[i++];
	mod->name[k] = 0;
}

void multiboot_parse(u64 info_phys)
{
	const u8 *info = phys_to_virt(info_phys);
	u32 total = *(const u32 *)info;
	boot_info.info_phys = info_phys;
	boot_info.info_size = total;

	for (u32 off = 8; off + 8 <= total;) {
		const struct mb_tag *tag = (const void *)(info + off);
		const u8 *body = (const u8 *)(tag + 1);
		if (tag->type == 0 || tag->size < 8)
			break;
		switch (tag->type) {
		case 1: /* boot command line */
			strlcpy(boot_info.cmdline, (const char *)body, sizeof(boot_info.cmdline));
			break;
		case 2: /* boot loader name */
			strlcpy(boot_info.loader, (const char *)body, sizeof(boot_info.loader));
			break;
		case 3: /* module (3.6.6): mod_start, mod_end, a NUL-terminated string */
			if (tag->size < 16)
				break;
			if (boot_info.mods_count == MB_MODS_MAX) {
				boot_info.mods_dropped++;
				break;
			}
			module_record(&boot_info.mods[boot_info.mods_count++], body,
				      tag->size - 8);
			break;
		case 6: { /* memory map: entry_size, entry_version, entries */
			u32 esize = ((const u32 *)body)[0];
			for (u32 e = 16; e + esize <= tag->size && esize >= 20; e += esize) {
				const u8 *ent = (const u8 *)tag + e;
				if (boot_info.mmap_count == MB_MMAP_MAX)
					break;
				struct mb_mmap_entry *m = &boot_info.mmap[boot_info.mmap_count++];
				memcpy(&m->base, ent, 8);
				memcpy(&m->len, ent + 8, 8);
				memcpy(&m->type, ent + 16, 4);
			}
			break;
		}
		case 14: /* ACPI old RSDP (20 bytes) */
		case 15: /* ACPI new RSDP (36 bytes) */
			if (!boot_info.rsdp_len || tag->type == 15) {
				u32 n = tag->size - 8;
				if (n > sizeof(boot_info.rsdp))
					n = sizeof(boot_info.rsdp);
				memcpy(boot_info.rsdp, body, n);
				boot_info.rsdp_len = n;
				boot_info.rsdp_version = tag->type == 15 ? 2 : 1;
			}
			break;
		}
		off += (tag->size + 7) & ~7u;
	}
}

const char *mb_mem_type_name(u32 type)
{
	switch (type) {
	case MB_MEM_AVAILABLE: return "usable";
	case MB_MEM_RESERVED: return "reserved";
	case MB_MEM_ACPI: return "ACPI reclaimable";
	case MB_MEM_NVS: return "ACPI NVS";
	case MB_MEM_BAD: return "bad";
	default: return "unknown";
	}
}
