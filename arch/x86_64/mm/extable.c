/* Searching the exception table (arch/x86_64/mm/extable.h). The table is a
 * few dozen entries, unsorted (the linker keeps them in link order): a
 * linear search, only on a fault. */
#include "arch/x86_64/mm/extable.h"
#include "arch/x86_64/regs.h"

extern const struct exception_table_entry _extable_start[], _extable_end[];

const struct exception_table_entry *search_exception_tables(u64 rip)
{
	for (const struct exception_table_entry *e = _extable_start; e < _extable_end; e++)
		if (e->insn == rip)
			return e;
	return NULL;
}

bool fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *e = search_exception_tables(regs->rip);
	if (!e)
		return false;
	regs->rip = e->fixup;
	return true;
}
