/* Reading little-endian fields that need not be aligned (firmware tables,
 * boot information): Linux's get_unaligned_le32/64 (include/linux/
 * unaligned.h). A memcpy of a constant size compiles to one load on x86,
 * which allows unaligned accesses, and is defined C where a cast of the
 * pointer would not be. x86 is little-endian, so no byte swap. */
#ifndef FOLD_LIB_UNALIGNED_H
#define FOLD_LIB_UNALIGNED_H
#include "lib/types.h"
#include "lib/string.h"

static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;
	memcpy(&v, p, sizeof(v));
	return v;
}
#endif
