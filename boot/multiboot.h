/* What GRUB tells fold: the multiboot2 boot information, copied out of the
 * loader's memory early so that the frame allocator may reuse it. */
#ifndef FOLD_KERNEL_MULTIBOOT_H
#define FOLD_KERNEL_MULTIBOOT_H
#include "lib/types.h"

#define MB_MMAP_MAX 64
#define MB_MODS_MAX 32
#define MB_MOD_NAME_MAX 32 /* a module's name: the first word of its string */

/* Multiboot2 spec 3.6.8 memory map entry types. */
#define MB_MEM_AVAILABLE 1
#define MB_MEM_RESERVED 2
#define MB_MEM_ACPI 3
#define MB_MEM_NVS 4
#define MB_MEM_BAD 5

struct mb_mmap_entry {
	u64 base, len;
	u32 type;
};

/* A boot module (multiboot2 spec 3.6.6): [start, end) physical, and the
 * first word of the module's string (GRUB: `module2 FILE NAME ...`). */
struct mb_module {
	u64 start, end;
	char name[MB_MOD_NAME_MAX];
};

/* The framebuffer tag (multiboot2 spec 3.6.12); type 1 = direct RGB, with
 * the colour fields' positions and sizes in bits. present = 0: no tag. */
#define MB_FB_TYPE_INDEXED 0
#define MB_FB_TYPE_RGB 1
#define MB_FB_TYPE_EGA_TEXT 2
struct mb_framebuffer {
	u64 addr;
	u32 pitch, width, height;
	u8 bpp, type, present;
	u8 red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct boot_info {
	u64 info_phys, info_size;
	char cmdline[2048];
	char loader[64];
	struct mb_mmap_entry mmap[MB_MMAP_MAX];
	u32 mmap_count;
	struct mb_module mods[MB_MODS_MAX];
	u32 mods_count;
	u32 mods_dropped;  /* modules past MB_MODS_MAX, not recorded */
	u8 rsdp[36];       /* the RSDP as GRUB copied it */
	u32 rsdp_len;      /* 0 when GRUB gave none */
	int rsdp_version;  /* 1 (old, ACPI 1.0) or 2 (new) */
	struct mb_framebuffer fb;
};

extern struct boot_info boot_info;
void multiboot_parse(u64 info_phys);
const char *mb_mem_type_name(u32 type);
/* A 4 KiB page below 1 MiB (not page 0) for the AP start-up trampoline,
 * wholly inside a usable memory-map entry and clear of the boot modules
 * and the boot information: `prefer` if it qualifies, else the lowest
 * that does; 0 if none. Under a BIOS the low 640 KiB are conventional
 * memory; under UEFI nothing below 1 MiB is promised free, so the map
 * decides (the SIPI vector can only name a page below 1 MiB: SDM Vol. 3A,
 * 9.4.4.1, "STARTUP IPI", vector VV starts the AP at 000VV000H). */
u64 mb_low_page(u64 prefer);
#endif
