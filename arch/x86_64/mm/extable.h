/* The exception table (Linux's __ex_table): pairs of (instruction,
 * fixup). A fault in kernel mode at a listed instruction does not oops;
 * the trap handler resumes at its fixup instead, which reports -EFAULT.
 * Only the user-access instructions (arch/x86_64/mm/uaccess.h,
 * copy_user.asm) are listed. linker.ld gathers the section. */
#ifndef FOLD_ARCH_EXTABLE_H
#define FOLD_ARCH_EXTABLE_H
#include "lib/types.h"

struct exception_table_entry {
	u64 insn, fixup;
};

/* An entry, from inline asm (C) or NASM (copy_user.asm writes its own). */
#define _ASM_EXTABLE(from, to)                                  \
	".pushsection .extable, \"a\"\n\t.balign 8\n\t.quad " #from ", " #to \
	"\n\t.popsection\n\t"

struct pt_regs;
/* If regs->rip is listed, move it to the fixup and say true. */
bool fixup_exception(struct pt_regs *regs);
const struct exception_table_entry *search_exception_tables(u64 rip);
#endif
