/* The uaccess suite: copy_from_user() and friends from a kernel thread
 * that borrows an address space (kthread_use_mm) with one user page at
 * PAGE_VA and nothing after it. Every edge access_ok() and the exception
 * table must catch gives its error code: NULL, the kernel half,
 * non-canonical, unmapped, straddling into an unmapped page, straddling
 * USER_TOP, a length that wraps. With SMAP (-cpu max) a plain kernel load
 * from the page faults; with SMEP a call into it does. might_fault()
 * reports an atomic caller and is a preemption point in voluntary mode. */
#include "tests/kernel/ktest.h"
#include "mm/uaccess.h"
#include "mm/user_mm.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "mm/mm.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/mm/fault_catch.h"
#include "arch/x86_64/cpu.h"
#include "tests/kernel/user_run.h"
#include "lib/string.h"
#include "kernel/debug/checks.h"

#define PAGE_VA 0x10000000UL
#define PAGE_END (PAGE_VA + PAGE_SIZE)

static struct mm *borrow(struct ktest *t, int prot)
{
	struct mm *mm = mm_create();
	if (!KT_EXPECT(t, mm != NULL))
		return NULL;
	if (!KT_EXPECT_EQ(t, mm_map_zero(mm, PAGE_VA, PAGE_SIZE, prot), 0)) {
		mm_destroy(mm);
		return NULL;
	}
	kthread_use_mm(mm);
	return mm;
}

static void give_back(struct mm *mm)
{
	kthread_unuse_mm();
	mm_destroy(mm);
}

static void copy_edges(struct ktest *t)
{
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	char buf[64];
	char *u = (char *)PAGE_VA;
	memset(buf, 'a', sizeof(buf));
	KT_EXPECT_EQ(t, copy_to_user(u, buf, sizeof(buf)), 0);
	memset(buf, 0, sizeof(buf));
	KT_EXPECT_EQ(t, copy_from_user(buf, u, sizeof(buf)), 0);
	KT_EXPECT_EQ(t, buf[63], 'a');
	/* Refused by access_ok: nothing copied. */
	KT_EXPECT_EQ(t, copy_from_user(buf, NULL, 8), 8 * 0 + 8);
	KT_EXPECT_EQ(t, copy_from_user(buf, (void *)0xffffffff80000000UL, 8), 8);
	KT_EXPECT_EQ(t, copy_from_user(buf, (void *)0x8000000000000000UL, 8), 8);
	KT_EXPECT_EQ(t, copy_from_user(buf, (void *)(USER_TOP - 4), 8), 8);
	KT_EXPECT_EQ(t, copy_from_user(buf, u, ~0UL), ~0UL);
	KT_EXPECT_EQ(t, copy_to_user((void *)0xffff800000000000UL, buf, 8), 8);
	/* Faulted and fixed up: the bytes before the hole are copied. */
	KT_EXPECT_EQ(t, copy_from_user(buf, (void *)(PAGE_END - 4), 8), 4);
	KT_EXPECT_EQ(t, copy_to_user((void *)(PAGE_END - 4), buf, 8), 4);
	KT_EXPECT_EQ(t, copy_from_user(buf, (void *)(PAGE_END + PAGE_SIZE), 8), 8);
	give_back(mm);
}

static void get_put_user(struct ktest *t)
{
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	u64 v = 0;
	u32 w = 0;
	u8 b = 0;
	KT_EXPECT_EQ(t, put_user(0x1122334455667788UL, (u64 *)PAGE_VA), 0);
	KT_EXPECT_EQ(t, get_user(v, (u64 *)PAGE_VA), 0);
	KT_EXPECT_EQ(t, v, 0x1122334455667788UL);
	KT_EXPECT_EQ(t, get_user(w, (u32 *)PAGE_VA), 0);
	KT_EXPECT_EQ(t, w, 0x55667788);
	KT_EXPECT_EQ(t, get_user(b, (u8 *)(PAGE_END - 1)), 0);
	KT_EXPECT_EQ(t, b, 0);
	v = 1;
	KT_EXPECT_EQ(t, get_user(v, (u64 *)NULL), -EFAULT);
	KT_EXPECT_EQ(t, v, 0); /* as Linux: the value is zeroed on a fault */
	KT_EXPECT_EQ(t, get_user(v, (u64 *)(PAGE_END - 4)), -EFAULT);
	KT_EXPECT_EQ(t, get_user(v, (u64 *)0xffffffff80000000UL), -EFAULT);
	KT_EXPECT_EQ(t, get_user(v, (u64 *)(USER_TOP - 4)), -EFAULT);
	KT_EXPECT_EQ(t, put_user(1, (u64 *)PAGE_END), -EFAULT);
	KT_EXPECT_EQ(t, put_user(1, (u32 *)0x8000000000000000UL), -EFAULT);
	give_back(mm);
}

static void strncpy_edges(struct ktest *t)
{
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	char k[16];
	KT_EXPECT_EQ(t, copy_to_user((void *)PAGE_VA, "fold", 5), 0);
	KT_EXPECT_EQ(t, strncpy_from_user(k, (const char *)PAGE_VA, sizeof(k)), 4);
	KT_EXPECT(t, strcmp(k, "fold") == 0);
	KT_EXPECT_EQ(t, strncpy_from_user(k, (const char *)PAGE_VA, 3), 3); /* no NUL in 3 */
	/* The last bytes of the page, no NUL, then the hole. */
	KT_EXPECT_EQ(t, copy_to_user((void *)(PAGE_END - 3), "abc", 3), 0);
	KT_EXPECT_EQ(t, strncpy_from_user(k, (const char *)(PAGE_END - 3), sizeof(k)), -EFAULT);
	KT_EXPECT_EQ(t, strncpy_from_user(k, (const char *)0xffffffff80000000UL, 8), -EFAULT);
	KT_EXPECT_EQ(t, strncpy_from_user(k, NULL, 8), -EFAULT);
	give_back(mm);
}

static void do_plain_read(void *arg)
{
	(void)READ_ONCE(*(volatile u64 *)arg);
}

static void smap_blocks_plain_access(struct ktest *t)
{
	if (!smap_enabled)
		KT_SKIP(t, "SMAP is off: not in this CPU (QEMU: -cpu max), or nosmap");
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	static char report[4096];
	struct printk_capture cap = { report, sizeof(report), 0, true };
	struct fault_catcher c;
	memset(&c, 0, sizeof(c));
	printk_capture_start(&cap);
	int r = fault_catch_call(&c, do_plain_read, (void *)PAGE_VA, 0);
	printk_capture_stop();
	give_back(mm);
	KT_ASSERT_EQ(t, r, 1);
	KT_EXPECT_EQ(t, c.vector, 14);
	KT_EXPECT_EQ(t, c.cr2, PAGE_VA);
	KT_EXPECT_EQ(t, c.error_code & 0x5, 0x1); /* present page, supervisor access */
	KT_EXPECT_STR_CONTAINS(t, report, "outside STAC/CLAC (SMAP)");
}

static void do_call(void *arg)
{
	((void (*)(void))arg)();
}

static void smep_blocks_user_code(struct ktest *t)
{
	if (!smep_enabled)
		KT_SKIP(t, "SMEP is off: not in this CPU (QEMU: -cpu max), or nosmep");
	struct mm *mm = mm_create();
	KT_ASSERT(t, mm != NULL);
	KT_ASSERT_EQ(t, mm_map_zero(mm, PAGE_VA, PAGE_SIZE, MM_EXEC), 0);
	u8 ret = 0xC3;
	mm_write(mm, PAGE_VA, &ret, 1);
	kthread_use_mm(mm);
	struct fault_catcher c;
	memset(&c, 0, sizeof(c));
	static char report[4096];
	struct printk_capture cap = { report, sizeof(report), 0, true };
	printk_capture_start(&cap);
	int r = fault_catch_call(&c, do_call, (void *)PAGE_VA, 0);
	printk_capture_stop();
	give_back(mm);
	KT_ASSERT_EQ(t, r, 1);
	KT_EXPECT_EQ(t, c.vector, 14);
	KT_EXPECT_EQ(t, c.error_code & 0x11, 0x11); /* instruction fetch, present */
}

static void might_fault_atomic(struct ktest *t)
{
#if MIGHT_FAULT
	if (!DEBUG_CHECKS)
		KT_SKIP(t, DEBUG_CHECKS_SKIP);
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	u64 v, bugs = bug_reports;
	bool was = might_fault_enabled;
	might_fault_enabled = true;
	u64 f = local_irq_save(); /* atomic in every count model, COUNT=off too */
	(void)get_user(v, (u64 *)PAGE_VA);
	local_irq_restore(f);
	KT_EXPECT_EQ(t, bug_reports - bugs, 1);
	might_fault_enabled = false; /* might_fault=off: no check */
	f = local_irq_save();
	(void)get_user(v, (u64 *)PAGE_VA);
	local_irq_restore(f);
	KT_EXPECT_EQ(t, bug_reports - bugs, 1);
	(void)v;
	might_fault_enabled = was;
	give_back(mm);
#else
	KT_SKIP(t, "built with MIGHT_FAULT=0");
#endif
}

static void spin_briefly(void *arg)
{
	(void)arg;
}

/* In voluntary mode a user copy is a preemption point: with a reschedule
 * pending and another thread ready here, it switches. */
static void might_fault_voluntary_point(struct ktest *t)
{
#if MIGHT_FAULT
	struct mm *mm = borrow(t, MM_WRITE);
	if (!mm)
		return;
	if (!preempt_mode_valid(PREEMPT_MODE_VOLUNTARY)) {
		give_back(mm);
		KT_SKIP(t, "PREEMPT_RT runs on full or lazy only: no voluntary mode");
	}
	int old = preempt_mode;
	KT_ASSERT_EQ(t, preempt_mode_set(PREEMPT_MODE_VOLUNTARY), 0);
	bool was = might_fault_enabled;
	might_fault_enabled = true;
	u32 cpu = raw_smp_processor_id();
	preempt_disable(); /* the other thread must not run before the copy */
	struct thread *other = thread_create(spin_briefly, NULL, "mf-other", PRIO_NORMAL, 1UL << cpu);
	if (!other) { /* no kernel stack or memory left */
		preempt_enable();
		might_fault_enabled = was;
		preempt_mode_set(old);
		give_back(mm);
		KT_ASSERT(t, other);
	}
	u64 before = per_cpu(stats.voluntary, cpu);
	resched_curr(cpu);
	preempt_enable_no_resched();
	u64 v;
	(void)get_user(v, (u64 *)PAGE_VA);
	u64 switched = per_cpu(stats.voluntary, cpu) - before;
	(void)v;
	might_fault_enabled = was;
	preempt_mode_set(old);
	thread_join(other);
	give_back(mm);
	KT_EXPECT_EQ(t, switched, 1);
#else
	KT_SKIP(t, "built with MIGHT_FAULT=0");
#endif
}

KTEST_SUITE(uaccess,
	    KTEST_CASE(copy_edges),
	    KTEST_CASE(get_put_user),
	    KTEST_CASE(strncpy_edges),
	    KTEST_CASE(smap_blocks_plain_access),
	    KTEST_CASE(smep_blocks_user_code),
	    KTEST_CASE(might_fault_atomic),
	    KTEST_CASE(might_fault_voluntary_point));
