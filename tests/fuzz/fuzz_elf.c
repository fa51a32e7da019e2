/* Fuzz target: the ELF64 executable validator (lib/elf.c), which a
 * boot module goes through before process/exec.c maps it. The input is the
 * image, in a heap buffer of exactly its size. An image the validator
 * takes must keep every promise elf.h makes, because the loader relies on
 * them: this target checks each one and then does the loader's copies
 * (filesz bytes from the file, into a page-rounded buffer per segment),
 * so a promise broken is an assertion or an ASan report. A refusal must
 * be -ENOEXEC with a reason. */
#include "tests/fuzz/fuzz.h"
#include "lib/elf.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define PAGE_DOWN(x) ((x) & ~(ELF_PAGE_SIZE - 1))
#define PAGE_UP(x)   PAGE_DOWN((x) + ELF_PAGE_SIZE - 1)

static void check_image(const struct elf_image *img, const u8 *file, size_t size)
{
	u64 total = 0;
	bool entry_ok = false;
	FUZZ_ASSERT(img->nseg >= 1 && img->nseg <= ELF_MAX_SEGMENTS);
	for (u32 i = 0; i < img->nseg; i++) {
		const struct elf_segment *s = &img->seg[i];
		FUZZ_ASSERT(s->memsz > 0 && s->filesz <= s->memsz);
		FUZZ_ASSERT(s->offset <= size && s->filesz <= size - s->offset);
		FUZZ_ASSERT(s->vaddr >= USER_LOAD_MIN);
		FUZZ_ASSERT(s->memsz <= USER_TOP && s->vaddr <= USER_TOP - s->memsz);
		FUZZ_ASSERT(!((s->flags & PF_W) && (s->flags & PF_X)));
		FUZZ_ASSERT(!(s->flags & ~(u32)(PF_R | PF_W | PF_X)));
		u64 lo = PAGE_DOWN(s->vaddr), hi = PAGE_UP(s->vaddr + s->memsz);
		for (u32 j = 0; j < i; j++) {
			const struct elf_segment *t = &img->seg[j];
			FUZZ_ASSERT(hi <= PAGE_DOWN(t->vaddr) ||
				    PAGE_UP(t->vaddr + t->memsz) <= lo);
		}
		total += hi - lo;
		if ((s->flags & PF_X) && img->entry >= s->vaddr && img->entry - s->vaddr < s->memsz)
			entry_ok = true;
	}
	FUZZ_ASSERT(total <= USER_IMAGE_MAX);
	FUZZ_ASSERT(entry_ok);

	/* The loader's copies: each segment's file bytes, at vaddr's offset
	 * in its first page (the zeroed rest of memsz needs no file bytes,
	 * and is not allocated here: it may be 16 MiB). */
	for (u32 i = 0; i < img->nseg; i++) {
		const struct elf_segment *s = &img->seg[i];
		u64 n = s->vaddr - PAGE_DOWN(s->vaddr) + s->filesz;
		u8 *pages = calloc(1, n);
		FUZZ_ASSERT(pages);
		memcpy(pages + (s->vaddr - PAGE_DOWN(s->vaddr)), file + s->offset, s->filesz);
		free(pages);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *file = malloc(size ? size : 1);
	FUZZ_ASSERT(file);
	memcpy(file, data, size);
	struct elf_image img;
	const char *why = "unset";
	int rc = elf_parse(file, size, &img, &why);
	pr_info("elf: %s\n", rc ? why : "accepted");
	if (rc == 0) {
		FUZZ_ASSERT(why == NULL);
		check_image(&img, file, size);
	} else {
		FUZZ_ASSERT(rc == -ENOEXEC);
		FUZZ_ASSERT(why && *why);
	}
	/* why may be NULL. */
	FUZZ_ASSERT(elf_parse(file, size, &img, NULL) == rc);
	free(file);
	return 0;
}
