/* ELF64 executables: the file format (System V ABI, "ELF-64 Object File
 * Format" version 1.5, and the gABI chapters 4 "Object Files" and 5
 * "Program Loading"), and a parser that validates a user program and
 * lists what to map. It maps nothing; the process code does. elf.c uses
 * only lib/types.h and uapi/, so the same file compiles on the host. */
#ifndef FOLD_KERNEL_ELF_H
#define FOLD_KERNEL_ELF_H
#include "lib/types.h"

/* e_ident[] (gABI 4, "ELF Identification") */
#define EI_MAG0       0
#define EI_CLASS      4
#define EI_DATA       5
#define EI_VERSION    6
#define EI_NIDENT     16
#define ELFMAG        "\177ELF"
#define SELFMAG       4
#define ELFCLASS64    2
#define ELFDATA2LSB   1
#define EV_CURRENT    1

#define ET_EXEC       2      /* e_type: an executable (not ET_DYN: no PIE) */
#define EM_X86_64     62     /* e_machine (SysV AMD64 ABI 4.1.1) */

/* p_type and p_flags (gABI 5, "Program Header") */
#define PT_NULL       0
#define PT_LOAD       1
#define PT_DYNAMIC    2
#define PT_INTERP     3
#define PF_X          0x1
#define PF_W          0x2
#define PF_R          0x4

/* The ELF-64 file header and program header, as laid out in the file. */
struct elf64_hdr {
	u8  e_ident[EI_NIDENT];
	u16 e_type;
	u16 e_machine;
	u32 e_version;
	u64 e_entry;
	u64 e_phoff;
	u64 e_shoff;
	u32 e_flags;
	u16 e_ehsize;
	u16 e_phentsize;
	u16 e_phnum;
	u16 e_shentsize;
	u16 e_shnum;
	u16 e_shstrndx;
};

struct elf64_phdr {
	u32 p_type;
	u32 p_flags;
	u64 p_offset;
	u64 p_vaddr;
	u64 p_paddr;
	u64 p_filesz;
	u64 p_memsz;
	u64 p_align;
};

#define ELF_MAX_SEGMENTS 8
#define ELF_PAGE_SIZE    4096UL  /* the granule the loader maps with */

/* One PT_LOAD: copy filesz bytes from the file at offset to vaddr, zero
 * the rest up to memsz. */
struct elf_segment {
	u64 vaddr, memsz, offset, filesz;
	u32 flags;                     /* PF_R / PF_W / PF_X */
};

struct elf_image {
	u64 entry;
	u32 nseg;                      /* in file order */
	struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/* Validates the executable in data[0, size) and fills *out. Returns 0, or
 * -ENOEXEC with *why set to a static sentence saying what is wrong (and
 * *out unspecified). Every field it relies on is checked; see elf.c for
 * the list. why may be NULL. */
int elf_parse(const void *data, size_t size, struct elf_image *out, const char **why);

#endif
