/* Parse the multiboot2 boot information (Multiboot2 spec 3.6): a u32 total
 * size, a reserved u32, then 8-byte-aligned tags {u32 type, u32 size, ...}
 * ending with a type-0 tag. */
#include "boot/multiboot.h"
#include "mm/mm.h"
#include "kernel/panic.h"
#include "lib/string.h"
#include "lib/unaligned.h"

struct boot_info boot_info;

struct mb_tag {
	u32 type, size;
};

/* A string tag's body: at most len bytes, up to its NUL if it has one
 * (GRUB writes one, but nothing past the tag is read to find it). */
static void copy_string(char *dst, size_t size, const u8 *body, u32 len)
{
	size_t k = 0;
	while (k < len && k < size - 1 && body[k])
		k++;
	memcpy(dst, body, k);
	dst[k] = 0;
}

/* One module tag's body: two u32 addresses, then the string, which may be
 * empty; it is read only inside the tag's size. The name is its first
 * word (spaces and tabs separate words), cut to MB_MOD_NAME_MAX - 1. */
static void module_record(struct mb_module *mod, const u8 *body, u32 len)
{
	const char *str = (const char *)body + 8;
	u32 n = len - 8, i = 0, k = 0;
	mod->start = get_unaligned_le32(body);
	mod->end = get_unaligned_le32(body + 4);
	while (i < n && (str[i] == ' ' || str[i] == '\t'))
		i++;
	while (i < n && str[i] && str[i] != ' ' && str[i] != '\t' &&
	       k < MB_MOD_NAME_MAX - 1)
		mod->name[k++] = str[i++];
	mod->name[k] = 0;
}

static void fb_record(struct mb_framebuffer *fb, const u8 *body, u32 len)
{
	fb->addr = get_unaligned_le64(body);
	fb->pitch = get_unaligned_le32(body + 8);
	fb->width = get_unaligned_le32(body + 12);
	fb->height = get_unaligned_le32(body + 16);
	fb->bpp = body[20];
	fb->type = body[21];
	fb->present = 1;
	if (fb->type == MB_FB_TYPE_RGB && len >= 30) {
		fb->red_pos = body[24];
		fb->red_size = body[25];
		fb->green_pos = body[26];
		fb->green_size = body[27];
		fb->blue_pos = body[28];
		fb->blue_size = body[29];
	}
}

void multiboot_parse(u64 info_phys)
{
	const u8 *info = phys_to_virt(info_phys);
	u32 total = *(const u32 *)info;
	boot_info.info_phys = info_phys;
	boot_info.info_size = total;

	/* A tag is read only if it lies inside the block: one that runs past
	 * the total size (or says it is shorter than its own header) ends
	 * the list, as the end tag does. off is 64-bit: a tag size near
	 * 2^32 must not wrap it back to an earlier tag. */
	for (u64 off = 8; off + 8 <= total;) {
		const struct mb_tag *tag = (const void *)(info + off);
		const u8 *body = (const u8 *)(tag + 1);
		if (tag->type == 0 || tag->size < 8 || tag->size > total - off)
			break;
		u32 len = tag->size - 8; /* the body's bytes */
		switch (tag->type) {
		case 1: /* boot command line */
			copy_string(boot_info.cmdline, sizeof(boot_info.cmdline), body, len);
			break;
		case 2: /* boot loader name */
			copy_string(boot_info.loader, sizeof(boot_info.loader), body, len);
			break;
		case 3: /* module (3.6.6): mod_start, mod_end, a NUL-terminated string */
			if (tag->size < 16)
				break;
			if (boot_info.mods_count == MB_MODS_MAX) {
				boot_info.mods_dropped++;
				break;
			}
			module_record(&boot_info.mods[boot_info.mods_count++], body, len);
			break;
		case 6: { /* memory map: entry_size, entry_version, entries */
			if (len < 8)
				break;
			u32 esize = get_unaligned_le32(body);
			for (u64 e = 16; e + esize <= tag->size && esize >= 20; e += esize) {
				const u8 *ent = (const u8 *)tag + e;
				if (boot_info.mmap_count == MB_MMAP_MAX)
					break;
				struct mb_mmap_entry *m = &boot_info.mmap[boot_info.mmap_count++];
				m->base = get_unaligned_le64(ent);
				m->len = get_unaligned_le64(ent + 8);
				m->type = get_unaligned_le32(ent + 16);
			}
			break;
		}
		case 8: /* framebuffer (3.6.12): addr u64, pitch, width, height u32,
			 * bpp u8, type u8, reserved u16; for type 1 the six colour
			 * bytes follow (position, mask size for red, green, blue) */
			if (len < 22)
				break;
			fb_record(&boot_info.fb, body, len);
			break;
		case 14: /* ACPI old RSDP (20 bytes) */
		case 15: /* ACPI new RSDP (36 bytes) */
			if (!boot_info.rsdp_len || tag->type == 15) {
				u32 n = len;
				if (n > sizeof(boot_info.rsdp))
					n = sizeof(boot_info.rsdp);
				memcpy(boot_info.rsdp, body, n);
				boot_info.rsdp_len = n;
				boot_info.rsdp_version = tag->type == 15 ? 2 : 1;
			}
			break;
		}
		off += ((u64)tag->size + 7) & ~7ull;
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

static bool low_page_ok(u64 p)
{
	if (p < PAGE_SIZE || p + PAGE_SIZE > (1UL << 20) || (p & (PAGE_SIZE - 1)))
		return false;
	bool usable = false;
	for (u32 i = 0; i < boot_info.mmap_count && i < MB_MMAP_MAX; i++) {
		const struct mb_mmap_entry *e = &boot_info.mmap[i];
		bool inside = e->base <= p && e->len >= PAGE_SIZE && p - e->base <= e->len - PAGE_SIZE;
		bool touches = e->base < p + PAGE_SIZE && (e->len == 0 || e->base + e->len - 1 >= p);
		if (e->type == MB_MEM_AVAILABLE && inside)
			usable = true;
		else if (e->type != MB_MEM_AVAILABLE && touches && e->len)
			return false; /* an overlapping entry says it is not RAM to use */
	}
	if (!usable)
		return false;
	for (u32 j = 0; j < boot_info.mods_count && j < MB_MODS_MAX; j++)
		if (boot_info.mods[j].start < p + PAGE_SIZE && boot_info.mods[j].end > p)
			return false;
	return !(boot_info.info_phys < p + PAGE_SIZE &&
		 boot_info.info_phys + boot_info.info_size > p);
}

u64 mb_low_page(u64 prefer)
{
	if (low_page_ok(prefer))
		return prefer;
	for (u64 p = PAGE_SIZE; p < (1UL << 20); p += PAGE_SIZE)
		if (low_page_ok(p))
			return p;
	return 0;
}
