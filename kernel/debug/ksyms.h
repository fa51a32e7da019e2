/* The kernel's own symbol table, embedded at build time (scripts/mksyms.sh
 * writes it from `nm` of the first link; the second link places it in
 * .ksyms, after everything else, so no address moves). */
#ifndef FOLD_KERNEL_KSYMS_H
#define FOLD_KERNEL_KSYMS_H
#include "lib/types.h"

struct ksym {
	u64 addr;
	u32 size;
	u32 name; /* offset into ksym_names */
};
extern const struct ksym ksym_table[];
extern const u32 ksym_count;
extern const char ksym_names[];

/* Name of the function containing addr and the offset into it; NULL if
 * none. */
const char *ksym_lookup(u64 addr, u64 *offset, u64 *size);
/* "name+0x12/0x40" or "0x..." into buf. */
int ksym_format(char *buf, size_t size, u64 addr);
#endif
