/* bench uaccess: experiment E7, the first half of the 2013 discussion as
 * instruction counts. copy_from_user() of 8, 64 and 4096 bytes, in every
 * preemption mode this build allows, with might_fault() on and off.
 * Andi Kleen measured might_fault() costing about 2.5 us a call in
 * voluntary kernels (its might_sleep debug check plus the voluntary
 * preemption point behind it); Linus proposed dropping the check. Here
 * the two variants differ by exactly that call, so their difference is
 * its price in this kernel, mode by mode.
 *
 * The copies read a user page of a borrowed address space
 * (kthread_use_mm), from a kernel thread with IRQs on and preemption
 * enabled, as a system call would. */
#include "bench/bench.h"
#include "mm/uaccess.h"
#include "mm/user_mm.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

#define UA_VA 0x10000000UL

static const u64 sizes[] = { 8, 64, 4096 };
static char kbuf[4096];

static u64 time_copies(u64 size, u64 iters)
{
	u64 t0 = rdtsc();
	for (u64 i = 0; i < iters; i++)
		if (copy_from_user(kbuf, (const void __user *)UA_VA, size))
			return 0;
	return rdtsc() - t0;
}

int bench_uaccess(int argc, char **argv)
{
	u64 iters = 20000;
	struct bench_opt opts[] = { BENCH_UACCESS_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("uaccess", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
#if !MIGHT_FAULT
	console_printf("bench uaccess: built with MIGHT_FAULT=0: only the variant without it\n");
#endif
	struct mm *mm = mm_create();
	if (!mm || mm_map_zero(mm, UA_VA, PAGE_SIZE, MM_WRITE)) {
		console_printf("bench uaccess: out of memory for the user page\n");
		mm_destroy(mm);
		return -1;
	}
	kthread_use_mm(mm);
	int old_mode = preempt_mode;
#if MIGHT_FAULT
	bool old_mf = might_fault_enabled;
#endif
	console_printf("bench uaccess: copy_from_user, %llu calls per figure (ns per call)\n",
		       (unsigned long long)iters);
	console_printf("  mode       might_fault      8 B     64 B   4096 B\n");
	for (int mode = 0; mode < NR_PREEMPT_MODES; mode++) {
		if (!preempt_mode_valid(mode) || preempt_mode_set(mode))
			continue;
		for (int mf = MIGHT_FAULT; mf >= 0; mf--) {
#if MIGHT_FAULT
			might_fault_enabled = mf;
#endif
			char ctx[128], cells[3][32];
			bench_context(ctx, sizeof(ctx));
			for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
				time_copies(sizes[i], 100); /* warm the caches and TLB */
				u64 t = time_copies(sizes[i], iters);
				fmt_centi(cells[i], sizeof(cells[i]), bench_ns_x100(t, iters));
				console_printf("BENCH uaccess %s might_fault=%s bytes=%llu iters=%llu ns_per_copy=%s\n",
					       ctx, mf ? "on" : "off", (unsigned long long)sizes[i],
					       (unsigned long long)iters, cells[i]);
			}
			console_printf("  %-10s %-11s %8s %8s %8s\n", preempt_mode_name(mode),
				       mf ? "on" : "off", cells[0], cells[1], cells[2]);
		}
	}
	preempt_mode_set(old_mode);
#if MIGHT_FAULT
	might_fault_enabled = old_mf;
#endif
	kthread_unuse_mm();
	mm_destroy(mm);
	return 0;
}
