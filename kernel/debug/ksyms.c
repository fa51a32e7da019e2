#include "kernel/debug/ksyms.h"
#include "lib/format.h"
#include "lib/string.h"

const char *ksym_lookup(u64 addr, u64 *offset, u64 *size)
{
	/* Binary search for the last symbol at or below addr. */
	u32 lo = 0, hi = ksym_count;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		if (ksym_table[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct ksym *s = &ksym_table[lo - 1];
	u64 sz = s->size;
	/* Past the end of a sized symbol: not inside any function we know. */
	if (sz && addr >= s->addr + sz)
		return NULL;
	if (!sz && lo < ksym_count)
		sz = ksym_table[lo].addr - s->addr;
	if (offset)
		*offset = addr - s->addr;
	if (size)
		*size = sz;
	return &ksym_names[s->name];
}

int ksym_format(char *buf, size_t size, u64 addr)
{
	u64 off, sz;
	const char *name = ksym_lookup(addr, &off, &sz);
	if (!name)
		return snprintf(buf, size, "0x%llx", (unsigned long long)addr);
	return snprintf(buf, size, "%s+0x%llx/0x%llx", name,
			(unsigned long long)off, (unsigned long long)sz);
}
