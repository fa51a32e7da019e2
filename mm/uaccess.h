/* Access to user memory from the kernel, by Linux's names and contracts
 * (include/linux/uaccess.h):
 *
 *   copy_from_user(to, from, n) / copy_to_user(to, from, n)
 *                  return the bytes NOT copied (0 = all of them)
 *   get_user(x, ptr) / put_user(x, ptr)
 *                  one 1/2/4/8-byte value; 0 or -EFAULT
 *   strncpy_from_user(dst, src, n)
 *                  the string's length, -EFAULT, or n if no NUL in n bytes
 *   access_ok(ptr, n)
 *                  the range lies in the user half: no kernel address, no
 *                  non-canonical one, no wrap-around, nothing straddling
 *                  USER_TOP. A mapped range is not required: an unmapped
 *                  byte faults, and the exception table turns the fault
 *                  into the -EFAULT (arch/x86_64/mm/extable.h).
 *
 * Each is a might_fault() point: a debug check that the caller could
 * sleep ("might_fault in atomic context"), and in voluntary mode a
 * preemption point (might_fault -> might_sleep -> might_resched), as in
 * Linux before 2013's discussion of its cost. `might_fault=off` on the
 * command line (or MIGHT_FAULT=0 at build time) removes it, so its price
 * can be measured (bench uaccess). With SMAP each access sits between STAC
 * and CLAC (arch/x86_64/mm/uaccess.h); outside them a kernel access to a
 * user page faults. */
#ifndef FOLD_KERNEL_UACCESS_H
#define FOLD_KERNEL_UACCESS_H
#include "lib/types.h"
#include "uapi/layout.h"
#include "uapi/errno.h"
#include "arch/x86_64/mm/uaccess.h"

static __always_inline bool access_ok(const void *ptr, u64 n)
{
	u64 a = (u64)ptr;
	return n <= USER_TOP && a <= USER_TOP - n;
}

#ifndef MIGHT_FAULT
#define MIGHT_FAULT 1
#endif
#if MIGHT_FAULT
extern bool might_fault_enabled;          /* might_fault=on|off */
void __might_fault(const char *file, int line);
#define might_fault()                                                   \
	do {                                                            \
		if (might_fault_enabled)                                \
			__might_fault(__FILE__, __LINE__);              \
	} while (0)
#else
#define might_fault() do { } while (0)
#endif

u64 copy_from_user(void *to, const void __user *from, u64 n);
u64 copy_to_user(void __user *to, const void *from, u64 n);
long strncpy_from_user(char *dst, const char __user *src, long n);

#define get_user(x, ptr)                                                 \
	({                                                               \
		const __typeof__(*(ptr)) __user *p__ = (ptr);            \
		u64 v__ = 0;                                             \
		int e__ = -EFAULT;                                       \
		might_fault();                                           \
		if (access_ok(p__, sizeof(*p__))) {                      \
			stac();                                          \
			e__ = __get_user_size(&v__, p__, sizeof(*p__));  \
			clac();                                          \
		}                                                        \
		(x) = (__typeof__(*(ptr)))v__;                           \
		e__;                                                     \
	})

#define put_user(x, ptr)                                                 \
	({                                                               \
		__typeof__(*(ptr)) __user *p__ = (ptr);                  \
		u64 v__ = (u64)(x);                                      \
		int e__ = -EFAULT;                                       \
		might_fault();                                           \
		if (access_ok(p__, sizeof(*p__))) {                      \
			stac();                                          \
			e__ = __put_user_size(v__, p__, sizeof(*p__));   \
			clac();                                          \
		}                                                        \
		e__;                                                     \
	})
#endif
