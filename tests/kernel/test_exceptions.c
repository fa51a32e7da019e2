/* The exceptions suite: each CPU exception fold can meet is raised on
 * purpose inside fault_catch_call(), and the test asserts both what the
 * CPU reported (vector, error code, CR2) and what the oops report printed
 * (mnemonic, CR2, the faulting function's symbol). */
#include "tests/kernel/ktest.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "arch/x86_64/mm/fault_catch.h"
#include "lib/string.h"
#include "lib/format.h"

/* noipa: keep each function whole and under its own name (no clones such
 * as recurse.constprop.0), so the report names it. */

static char report[8192];

/* Run fn with a catcher and the printk capture on; return whether it
 * faulted. */
static bool provoke(struct fault_catcher *c, void (*fn)(void *), void *arg, u64 stack)
{
	struct printk_capture cap = { report, sizeof(report), 0, true };
	memset(c, 0, sizeof(*c));
	printk_capture_start(&cap);
	int r = fault_catch_call(c, fn, arg, stack);
	printk_capture_stop();
	return r == 1 && c->caught;
}

static void expect_symbol(struct ktest *t, const char *fn)
{
	char want[80];
	snprintf(want, sizeof(want), "%s+0x", fn);
	KT_EXPECT_STR_CONTAINS(t, report, want);
	KT_EXPECT_STR_CONTAINS(t, report, "Call Trace:");
}

/* In asm: GCC may turn a C division by a variable into compares. */
static __attribute__((noipa)) void do_divide_error(void *arg)
{
	(void)arg;
	u64 q, r;
	__asm__ __volatile__("divq %2" : "=a"(q), "=d"(r) : "r"(0UL), "a"(1UL), "d"(0UL));
}

static void divide_error(struct ktest *t)
{
	struct fault_catcher c;
	KT_ASSERT(t, provoke(&c, do_divide_error, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 0);
	KT_EXPECT_STR_CONTAINS(t, report, "#DE divide error (vector 0)");
	expect_symbol(t, "do_divide_error");
}

static __attribute__((noipa)) void do_invalid_opcode(void *arg)
{
	(void)arg;
	__asm__ __volatile__("ud2");
}

static void invalid_opcode(struct ktest *t)
{
	struct fault_catcher c;
	KT_ASSERT(t, provoke(&c, do_invalid_opcode, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 6);
	KT_EXPECT_STR_CONTAINS(t, report, "#UD invalid opcode (vector 6)");
	expect_symbol(t, "do_invalid_opcode");
}

static __attribute__((noipa)) void do_breakpoint(void *arg)
{
	(void)arg;
	__asm__ __volatile__("int3");
}

static void breakpoint(struct ktest *t)
{
	struct fault_catcher c;
	KT_ASSERT(t, provoke(&c, do_breakpoint, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 3);
	KT_EXPECT_STR_CONTAINS(t, report, "#BP breakpoint (vector 3)");
	/* #BP is a trap: RIP is already past the int3, still in the function. */
	expect_symbol(t, "do_breakpoint");
}

static __attribute__((noipa)) void do_general_protection(void *arg)
{
	(void)arg;
	/* A non-canonical address: #GP, not #PF (SDM Vol. 3A 3.3.7.1). */
	volatile u64 *p = (volatile u64 *)0x8000000000000000ULL;
	(void)*p;
}

static void general_protection(struct ktest *t)
{
	struct fault_catcher c;
	KT_ASSERT(t, provoke(&c, do_general_protection, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 13);
	KT_EXPECT_EQ(t, c.error_code, 0);
	KT_EXPECT_STR_CONTAINS(t, report, "#GP general protection fault (vector 13)");
	expect_symbol(t, "do_general_protection");
}

static __attribute__((noipa)) void do_null_dereference(void *arg)
{
	(void)arg;
	volatile int *p = NULL;
	(void)*p;
}

static void null_dereference(struct ktest *t)
{
	struct fault_catcher c;
	KT_ASSERT(t, provoke(&c, do_null_dereference, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 14);
	KT_EXPECT_EQ(t, c.cr2, 0);
	KT_EXPECT_EQ(t, c.error_code & 0x1F, 0); /* not present, read, kernel, data */
	KT_EXPECT_STR_CONTAINS(t, report, "CR2: 0000000000000000");
	KT_EXPECT_STR_CONTAINS(t, report, "the NULL page");
	expect_symbol(t, "do_null_dereference");
}

static __attribute__((noipa)) void do_write_text(void *arg)
{
	*(volatile u8 *)arg = 0x90;
}

static void write_to_kernel_text(struct ktest *t)
{
	struct fault_catcher c;
	u8 *target = (u8 *)(void *)do_invalid_opcode;
	u8 before = *target;
	KT_ASSERT(t, provoke(&c, do_write_text, target, 0));
	KT_EXPECT_EQ(t, c.vector, 14);
	KT_EXPECT_EQ(t, c.cr2, (u64)target);
	KT_EXPECT_EQ(t, c.error_code & 0x3, 0x3); /* present + write */
	KT_EXPECT_EQ(t, *target, before);
	KT_EXPECT_STR_CONTAINS(t, report, "kernel text (read-only)");
	expect_symbol(t, "do_write_text");
}

static void exec_from_heap(struct ktest *t)
{
	struct fault_catcher c;
	u8 *code = kmalloc(64);
	KT_ASSERT(t, code);
	code[0] = 0xC3; /* ret: would return at once if it could execute */
	KT_ASSERT(t, provoke(&c, (void (*)(void *))(void *)code, NULL, 0));
	KT_EXPECT_EQ(t, c.vector, 14);
	KT_EXPECT_EQ(t, c.cr2, (u64)code);
	KT_EXPECT_EQ(t, c.rip, (u64)code);
	KT_EXPECT_EQ(t, c.error_code & 0x11, 0x11); /* present + instruction fetch */
	KT_EXPECT_STR_CONTAINS(t, report, "instruction fetch");
	KT_EXPECT_STR_CONTAINS(t, report, "the direct map (heap, no-execute)");
	kfree(code);
}

/* Recurses until `limit`, which is far more than a stack holds. */
static __attribute__((noipa)) u64 recurse(u64 n, u64 limit)
{
	volatile u8 pad[256];
	pad[0] = (u8)n;
	if (n == limit)
		return pad[0];
	return recurse(n + 1, limit) + pad[0];
}

static void do_overflow(void *arg)
{
	(void)arg;
	recurse(0, 1UL << 40);
}

/* Running off the bottom of a stack hits its guard page; the CPU cannot
 * push the #PF frame there either, so it raises #DF, which arrives on its
 * own IST stack (SDM Vol. 3A 7.15, interrupt 8, "contributory + page
 * fault" rules). */
static void stack_overflow(struct ktest *t)
{
	struct fault_catcher c;
	u64 top = stack_alloc();
	int slot;
	KT_ASSERT(t, top); /* 0: no slot or frame left */
	KT_ASSERT(t, provoke(&c, do_overflow, NULL, top));
	KT_EXPECT_EQ(t, c.vector, 8);
	KT_EXPECT(t, stack_guard_contains(c.cr2, &slot));
	KT_EXPECT_OP(t, c.cr2, <, top - STACK_SIZE);
	KT_EXPECT_STR_CONTAINS(t, report, "#DF double fault (vector 8)");
	KT_EXPECT_STR_CONTAINS(t, report, "kernel stack overflow");
	expect_symbol(t, "recurse");
	stack_free(top);
}

KTEST_SUITE(exceptions,
	KTEST_CASE(divide_error),
	KTEST_CASE(invalid_opcode),
	KTEST_CASE(breakpoint),
	KTEST_CASE(general_protection),
	KTEST_CASE(null_dereference),
	KTEST_CASE(write_to_kernel_text),
	KTEST_CASE(exec_from_heap),
	KTEST_CASE(stack_overflow));
