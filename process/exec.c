/* Loading a program: lib/elf.c has checked every field of the image
 * (nothing here trusts it further), then each PT_LOAD segment gets zeroed
 * pages with its permissions (never writable and executable at once) and
 * its file bytes, and the stack gets argc and argv as the SysV AMD64 ABI
 * describes the initial process stack (psABI 3.4.1, Figure 3.9):
 *
 *   user_sp ->  argc
 *               argv[0] ... argv[argc - 1]   pointers into the strings
 *               NULL                          end of argv
 *               NULL                          end of envp (none)
 *               0, 0                          auxv: AT_NULL only
 *               ...                           the strings themselves
 *   USER_STACK_TOP
 */
#include "process/exec.h"
#include "lib/elf.h"
#include "boot/module.h"
#include "process/process.h"
#include "mm/user_mm.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "lib/string.h"

static int load_segments(struct mm *mm, const struct boot_module *m, const struct elf_image *img)
{
	for (u32 i = 0; i < img->nseg; i++) {
		const struct elf_segment *s = &img->seg[i];
		int prot = (s->flags & PF_W ? MM_WRITE : 0) | (s->flags & PF_X ? MM_EXEC : 0);
		int err = mm_map_zero(mm, s->vaddr, s->memsz, prot);
		if (err)
			return err;
		if (s->filesz) {
			err = mm_write(mm, s->vaddr, (const char *)m->data + s->offset, s->filesz);
			if (err)
				return err;
		}
	}
	return 0;
}

static int build_stack(struct mm *mm, int argc, const char *const argv[], u64 *sp_out)
{
	if (argc < 0 || argc > USER_ARGC_MAX)
		return -E2BIG;
	int err = mm_map_zero(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_SIZE, MM_WRITE);
	if (err)
		return err;
	/* The strings at the top, then the vector below them. */
	u64 str = USER_STACK_TOP, ptrs[USER_ARGC_MAX];
	size_t total = 0;
	for (int i = argc - 1; i >= 0; i--) {
		size_t n = strlen(argv[i]) + 1;
		total += n;
		if (total > USER_ARGS_MAX)
			return -E2BIG;
		str -= n;
		mm_write(mm, str, argv[i], n);
		ptrs[i] = str;
	}
	u64 words = 1 + (u64)argc + 1 + 1 + 2;
	u64 sp = ALIGN_DOWN(str - words * 8, 16); /* rsp 16-aligned at entry */
	u64 w = sp, v = (u64)argc, zero = 0;
	mm_write(mm, w, &v, 8);
	w += 8;
	for (int i = 0; i < argc; i++, w += 8)
		mm_write(mm, w, &ptrs[i], 8);
	for (int i = 0; i < 4; i++, w += 8)
		mm_write(mm, w, &zero, 8);
	*sp_out = sp;
	return 0;
}

int exec_load(struct process *p, const struct boot_module *m, int argc,
	      const char *const argv[])
{
	struct elf_image img;
	const char *why = "?";
	if (elf_parse(m->data, m->size, &img, &why) != 0) {
		pr_err("exec: %s: not a program fold can run: %s\n", m->name, why);
		return -ENOEXEC;
	}
	struct mm *mm = mm_create();
	if (!mm)
		return -ENOMEM;
	int err = load_segments(mm, m, &img);
	if (!err)
		err = build_stack(mm, argc, argv, &p->user_sp);
	if (err) {
		if (err == -EINVAL) /* mm_map_zero found the page taken */
			pr_err("exec: %s: a segment overlaps the stack at 0x%llx-0x%llx\n",
			       m->name, (unsigned long long)(USER_STACK_TOP - USER_STACK_SIZE),
			       (unsigned long long)USER_STACK_TOP);
		mm_destroy(mm);
		return err == -EINVAL ? -ENOEXEC : err;
	}
	p->mm = mm;
	p->entry = img.entry;
	return 0;
}
