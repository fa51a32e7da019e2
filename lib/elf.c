/* The ELF64 executable parser: everything it reads is checked before it
 * is used, because a boot module is input like any other. Section
 * references are to the gABI ("System V Application Binary Interface",
 * chapters 4 and 5) and the ELF-64 Object File Format 1.5; the x86-64
 * values are the SysV AMD64 ABI's (4.1.1 "Machine Information").
 *
 * What is refused, in the order it is checked:
 *   the file is shorter than its header; no ELF magic; not ELFCLASS64;
 *   not little-endian; not EV_CURRENT; not ET_EXEC; not EM_X86_64;
 *   e_phentsize is not sizeof(struct elf64_phdr); no program headers, or
 *   a table outside the file; PT_INTERP or PT_DYNAMIC (dynamically
 *   linked); per PT_LOAD: file bytes outside the file, filesz > memsz,
 *   below USER_LOAD_MIN, past USER_TOP or wrapping, writable and
 *   executable, more than ELF_MAX_SEGMENTS; then across them: two sharing
 *   a page (the loader maps whole pages, one set of permissions each),
 *   more than USER_IMAGE_MAX bytes of pages, none at all, and an entry
 *   point outside every executable segment.
 * Not required: p_offset == p_vaddr modulo the page size (the loader
 * copies bytes rather than mapping file pages), p_align, the section
 * headers. A PT_LOAD with p_memsz 0 maps nothing and is left out. */
#include "lib/elf.h"
#include "uapi/errno.h"
#include "uapi/layout.h"

#define PAGE_DOWN(x) ((x) & ~(ELF_PAGE_SIZE - 1))
#define PAGE_UP(x)   PAGE_DOWN((x) + ELF_PAGE_SIZE - 1)

/* The file need not be aligned: read its structures by bytes. */
static void read_bytes(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;
	while (n--)
		*d++ = *s++;
}

static int refuse(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -ENOEXEC;
}

/* gABI 4 "ELF Header" and "ELF Identification". */
static const char *check_header(const struct elf64_hdr *eh, size_t size)
{
	static const u8 magic[SELFMAG] = { 0x7f, 'E', 'L', 'F' };
	for (int i = 0; i < SELFMAG; i++)
		if (eh->e_ident[EI_MAG0 + i] != magic[i])
			return "no ELF magic (not an ELF file)";
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return "not a 64-bit ELF file (EI_CLASS is not ELFCLASS64)";
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return "not little-endian (EI_DATA is not ELFDATA2LSB)";
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return "unknown ELF version (not EV_CURRENT)";
	if (eh->e_type != ET_EXEC)
		return "not an executable (e_type is not ET_EXEC; no shared objects or PIE)";
	if (eh->e_machine != EM_X86_64)
		return "not an x86-64 program (e_machine is not EM_X86_64)";
	if (eh->e_phentsize != sizeof(struct elf64_phdr))
		return "bad program header size (e_phentsize is not 56)";
	if (eh->e_phnum == 0)
		return "no program headers (e_phnum is 0)";
	/* e_phnum is 16 bits, so the table's length cannot overflow; its
	 * offset can, so compare against what is left after it. */
	u64 table = (u64)eh->e_phnum * sizeof(struct elf64_phdr);
	if (eh->e_phoff > size || table > size - eh->e_phoff)
		return "the program header table lies outside the file";
	return NULL;
}

/* gABI 5 "Program Header": one PT_LOAD on its own. */
static const char *check_load(const struct elf64_phdr *ph, size_t size)
{
	if (ph->p_offset > size || ph->p_filesz > size - ph->p_offset)
		return "a segment's file bytes lie outside the file";
	if (ph->p_filesz > ph->p_memsz)
		return "a segment's file size exceeds its memory size (p_filesz > p_memsz)";
	if (ph->p_vaddr < USER_LOAD_MIN)
		return "a segment starts below USER_LOAD_MIN (0x400000)";
	if (ph->p_memsz > USER_TOP || ph->p_vaddr > USER_TOP - ph->p_memsz)
		return "a segment ends above USER_TOP (outside the user half)";
	if ((ph->p_flags & PF_W) && (ph->p_flags & PF_X))
		return "a segment is both writable and executable (W^X)";
	return NULL;
}

static bool pages_overlap(const struct elf_segment *a, const struct elf_segment *b)
{
	u64 a0 = PAGE_DOWN(a->vaddr), a1 = PAGE_UP(a->vaddr + a->memsz);
	u64 b0 = PAGE_DOWN(b->vaddr), b1 = PAGE_UP(b->vaddr + b->memsz);
	return a0 < b1 && b0 < a1;
}

/* Across the segments: pages, total size, the entry point. */
static const char *check_image(const struct elf_image *img)
{
	u64 total = 0;
	bool entry_ok = false;
	if (img->nseg == 0)
		return "no loadable segment (no PT_LOAD with p_memsz > 0)";
	for (u32 i = 0; i < img->nseg; i++) {
		const struct elf_segment *s = &img->seg[i];
		for (u32 j = 0; j < i; j++)
			if (pages_overlap(&img->seg[j], s))
				return "two segments share a page (each page gets one set of permissions)";
		/* Below USER_TOP each span is under 2^47, so the sum of
		 * ELF_MAX_SEGMENTS of them cannot overflow. */
		total += PAGE_UP(s->vaddr + s->memsz) - PAGE_DOWN(s->vaddr);
		if ((s->flags & PF_X) && img->entry >= s->vaddr &&
		    img->entry < s->vaddr + s->memsz)
			entry_ok = true;
	}
	if (total > USER_IMAGE_MAX)
		return "the segments map more than USER_IMAGE_MAX bytes (16 MiB)";
	if (!entry_ok)
		return "the entry point is not inside an executable segment";
	return NULL;
}

int elf_parse(const void *data, size_t size, struct elf_image *out, const char **why)
{
	struct elf64_hdr eh;
	const char *bad;

	if (!data || size < sizeof(eh))
		return refuse(why, "the file is shorter than an ELF header (64 bytes)");
	read_bytes(&eh, data, sizeof(eh));
	if ((bad = check_header(&eh, size)))
		return refuse(why, bad);

	out->entry = eh.e_entry;
	out->nseg = 0;
	for (u32 i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;
		read_bytes(&ph, (const u8 *)data + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_INTERP || ph.p_type == PT_DYNAMIC)
			return refuse(why, "dynamically linked (PT_INTERP or PT_DYNAMIC): "
				      "only static executables run here");
		if (ph.p_type != PT_LOAD)
			continue;      /* PT_NOTE, PT_GNU_STACK, ...: nothing to map */
		if ((bad = check_load(&ph, size)))
			return refuse(why, bad);
		if (ph.p_memsz == 0)
			continue;
		if (out->nseg == ELF_MAX_SEGMENTS)
			return refuse(why, "more than ELF_MAX_SEGMENTS (8) loadable segments");
		out->seg[out->nseg++] = (struct elf_segment){
			.vaddr = ph.p_vaddr, .memsz = ph.p_memsz,
			.offset = ph.p_offset, .filesz = ph.p_filesz,
			.flags = ph.p_flags & (PF_R | PF_W | PF_X),
		};
	}
	if ((bad = check_image(out)))
		return refuse(why, bad);
	if (why)
		*why = NULL;
	return 0;
}
