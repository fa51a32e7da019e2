/* The instructions of a user access (mm/uaccess.h has the contract).
 *
 * STAC/CLAC set and clear EFLAGS.AC, which with CR4.SMAP decides whether
 * supervisor-mode data accesses to user pages are allowed (SDM Vol. 3A
 * 5.6.1 "Access Rights", 2.5 CR4.SMAP). They are invalid opcodes on a CPU
 * without SMAP, hence the test of smap_enabled (set once at boot).
 *
 * Each load or store is one instruction listed in the exception table
 * with a fixup that makes the result -EFAULT (arch/x86_64/mm/extable.h). */
#ifndef FOLD_ARCH_UACCESS_H
#define FOLD_ARCH_UACCESS_H
#include "lib/types.h"
#include "uapi/errno.h"
#include "arch/x86_64/mm/extable.h"

/* A pointer into user space (documentation only; Linux's sparse marker). */
#define __user

extern bool smap_enabled, smep_enabled;
/* CR4.SMEP and CR4.SMAP on this CPU where CPUID says it has them. */
void cpu_init_smap_smep(void);

static __always_inline void stac(void)
{
	if (smap_enabled)
		__asm__ __volatile__("stac" ::: "memory");
}
static __always_inline void clac(void)
{
	if (smap_enabled)
		__asm__ __volatile__("clac" ::: "memory");
}

/* Returns bytes not copied (arch/x86_64/mm/copy_user.asm). */
u64 __copy_user(void *dst, const void *src, u64 n);

#define __UACCESS_LOAD(insn, reg)                                           \
	__asm__ __volatile__("1:	" insn " %2, %" reg "1\n"                  \
			     "2:\n"                                           \
			     ".pushsection .text.fixup, \"ax\"\n"             \
			     "3:	movl %3, %0\n\t"                         \
			     "xorl %k1, %k1\n\t"                              \
			     "jmp 2b\n"                                       \
			     ".popsection\n\t" _ASM_EXTABLE(1b, 3b)           \
			     : "+r"(err), "=r"(v)                             \
			     : "m"(*p), "i"(-EFAULT))

static __always_inline int __get_user_size(u64 *out, const void __user *ptr, size_t size)
{
	int err = 0;
	u64 v;
	switch (size) {
	case 1: { const volatile u8 *p = ptr; __UACCESS_LOAD("movzbl", "k"); break; }
	case 2: { const volatile u16 *p = ptr; __UACCESS_LOAD("movzwl", "k"); break; }
	case 4: { const volatile u32 *p = ptr; __UACCESS_LOAD("movl", "k"); break; }
	default: { const volatile u64 *p = ptr; __UACCESS_LOAD("movq", ""); break; }
	}
	*out = v;
	return err;
}

#define __UACCESS_STORE(insn, reg, type)                                    \
	__asm__ __volatile__("1:	" insn " %" reg "1, %2\n"                  \
			     "2:\n"                                           \
			     ".pushsection .text.fixup, \"ax\"\n"             \
			     "3:	movl %3, %0\n\t"                         \
			     "jmp 2b\n"                                       \
			     ".popsection\n\t" _ASM_EXTABLE(1b, 3b)           \
			     : "+r"(err)                                      \
			     : "r"((type)v), "m"(*(volatile type *)ptr), "i"(-EFAULT) \
			     : "memory")

static __always_inline int __put_user_size(u64 v, void __user *ptr, size_t size)
{
	int err = 0;
	switch (size) {
	case 1: __UACCESS_STORE("movb", "b", u8); break;
	case 2: __UACCESS_STORE("movw", "w", u16); break;
	case 4: __UACCESS_STORE("movl", "k", u32); break;
	default: __UACCESS_STORE("movq", "q", u64); break;
	}
	return err;
}
#endif
