/* copy_from_user() and friends: mm/uaccess.h. */
#include "mm/uaccess.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "sched/sched.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/parse.h"
#include "kernel/debug/checks.h"

#if MIGHT_FAULT
bool might_fault_enabled = true;

/* might_fault() in every user copy, or (off) none, so its cost can be
 * measured; MIGHT_FAULT=0 at build time removes it. */
static int set_might_fault(const char *v)
{
#if MIGHT_FAULT
	return parse_bool(v, &might_fault_enabled);
#else
	bool on;
	if (parse_bool(v, &on))
		return -1;
	if (on)
		pr_warn("cmdline: might_fault=on: this kernel was built with MIGHT_FAULT=0, so there is none\n");
	return 0;
#endif
}
early_param(might_fault, set_might_fault, might_fault_enabled,
	    "on or off (off: user copies without might_fault(), experiment E7)", "on");

/* Linux's __might_fault (mm/memory.c): a user access may fault and the
 * fault may sleep, so the caller must be able to sleep; and it is a
 * might_sleep(), a preemption point in voluntary mode. The report is a
 * debug check: a release build keeps the point alone
 * (kernel/debug/checks.h). */
void __might_fault(const char *file, int line)
{
	if (DEBUG_CHECKS && unlikely(preempt_count() != 0 || irqs_disabled())) {
		report_bug("might_fault in atomic context at %s:%d (preempt count 0x%x, IRQs %s)",
			   file, line, preempt_count(), irqs_disabled() ? "off" : "on");
		return;
	}
	might_resched();
}
#endif

u64 copy_from_user(void *to, const void __user *from, u64 n)
{
	might_fault();
	if (!access_ok(from, n))
		return n;
	stac();
	u64 left = __copy_user(to, (const void *)from, n);
	clac();
	return left;
}

u64 copy_to_user(void __user *to, const void *from, u64 n)
{
	might_fault();
	if (!access_ok(to, n))
		return n;
	stac();
	u64 left = __copy_user((void *)to, from, n);
	clac();
	return left;
}

long strncpy_from_user(char *dst, const char __user *src, long n)
{
	might_fault();
	if (n <= 0)
		return n < 0 ? -EINVAL : 0;
	long i;
	for (i = 0; i < n; i++) {
		u64 c;
		/* One byte at a time: the string may end just before an
		 * unmapped page, which a wider read would touch. */
		if (!access_ok(src + i, 1))
			return -EFAULT;
		stac();
		int err = __get_user_size(&c, src + i, 1);
		clac();
		if (err)
			return -EFAULT;
		dst[i] = (char)c;
		if (!c)
			return i;
	}
	return n;
}
