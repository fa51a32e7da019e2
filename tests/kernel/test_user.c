/* The user suite: processes in ring 3. Each case runs real user programs
 * (the user/ folder, loaded as boot modules) and asserts what they and the kernel
 * did: arguments arrive, address spaces are separate, every fault kind
 * kills only its process with Linux's one-line report, the non-canonical
 * SYSRET case returns by IRETQ, kill ends a running and a sleeping
 * process, and in every preemption mode two CPU-bound programs on one CPU
 * both run while a kernel thread there still gets its turn. */
#include "kernel/ktest.h"
#include "kernel/process.h"
#include "kernel/user_mm.h"
#include "kernel/module.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/cmdline.h"
#include "kernel/time.h"
#include "kernel/mm.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "tests/kernel/user_run.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "kernel/hrtimer.h"
#include "lib/string.h"
#include "lib/format.h"

static struct user_run run; /* big: not on a 16 KiB stack */

static bool have(struct ktest *t, const char *prog)
{
	if (module_find(prog))
		return true;
	ktest_skip(t, "no user program '%s' in this ISO", prog);
	return false;
}

static void hello_args(struct ktest *t)
{
	if (!have(t, "hello"))
		return;
	user_run(&run, "hello one two", 0);
	KT_ASSERT_EQ(t, run.err, 0);
	KT_EXPECT(t, WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0);
	char want[48];
	snprintf(want, sizeof(want), "hello from pid %d\n", run.pid);
	KT_EXPECT_STR_CONTAINS(t, run.out, want);
	KT_EXPECT_STR_CONTAINS(t, run.out, "argv[0] = \"hello\"\nargv[1] = \"one\"\nargv[2] = \"two\"\n");
}

static void spawn_errors(struct ktest *t)
{
	int err = 0;
	const char *argv[] = { "nosuch" };
	struct spawn_args a = { "nosuch", 1, argv, NULL, false, 0 };
	KT_EXPECT(t, process_spawn(&a, &err) == NULL);
	KT_EXPECT_EQ(t, err, -ENOENT);
	if (!have(t, "hello"))
		return;
	const char *many[USER_ARGC_MAX + 1];
	for (int i = 0; i <= USER_ARGC_MAX; i++)
		many[i] = "x";
	struct spawn_args b = { "hello", USER_ARGC_MAX + 1, many, NULL, false, 0 };
	KT_EXPECT(t, process_spawn(&b, &err) == NULL);
	KT_EXPECT_EQ(t, err, -E2BIG);
}

/* Two copies of one program have the same virtual addresses and must
 * have different pages: each checks, 2,000 yields long, that its global
 * still holds its own pid; and the kernel checks the page tables. */
static void isolation_body(struct ktest *t);

static void isolation(struct ktest *t)
{
	user_quiet_begin();
	isolation_body(t);
	user_quiet_end();
}

static void isolation_body(struct ktest *t)
{
	if (!have(t, "isolate"))
		return;
	static struct spawn_args a;
	const char *argv[] = { "isolate", "2000" };
	a = (struct spawn_args){ "isolate", 2, argv, NULL, false, 1UL << raw_smp_processor_id() };
	int e1 = 0, e2 = 0;
	struct process *p1 = process_spawn(&a, &e1);
	struct process *p2 = process_spawn(&a, &e2);
	KT_ASSERT(t, p1 && p2);
	/* Both are loaded (and pinned to this CPU, which this thread holds
	 * until it waits): each writable page of one is mapped in the other
	 * at the same address, on another frame. */
	int shared = 0, writable = 0;
	for (u64 va = USER_LOAD_MIN; va < USER_LOAD_MIN + (1UL << 20); va += PAGE_SIZE) {
		u64 *e1 = pgtable_walk_user(p1->mm->pgd, va, false);
		u64 *e2 = pgtable_walk_user(p2->mm->pgd, va, false);
		if (!e1 || !(*e1 & PTE_P) || !(*e1 & PTE_W))
			continue;
		writable++;
		KT_EXPECT(t, e2 && (*e2 & PTE_P) && (*e2 & PTE_U));
		if (e2 && (*e1 & PTE_ADDR) == (*e2 & PTE_ADDR))
			shared++;
	}
	KT_EXPECT_OP(t, writable, >, 0);
	KT_EXPECT_EQ(t, shared, 0);
	int s1 = process_wait(p1), s2 = process_wait(p2);
	KT_EXPECT(t, WIFEXITED(s1) && WEXITSTATUS(s1) == 0);
	KT_EXPECT(t, WIFEXITED(s2) && WEXITSTATUS(s2) == 0);
}

struct fault_kind {
	const char *arg;
	int sig;
	const char *report; /* after "fault[pid]" */
};

static void faults_contained(struct ktest *t)
{
	static const struct fault_kind kinds[] = {
		{ "null", SIGSEGV, ": segfault at 0 ip " },
		{ "kernel-read", SIGSEGV, ": segfault at ffffffff80000000 ip " },
		{ "kernel-write", SIGSEGV, ": segfault at ffffffff80000000 ip " },
		{ "ud", SIGILL, " trap invalid opcode ip:" },
		{ "de", SIGFPE, " trap divide error ip:" },
		{ "gp", SIGSEGV, " trap general protection fault ip:" },
		{ "bp", SIGTRAP, " trap breakpoint ip:" },
		{ "stack", SIGSEGV, ": segfault at 7fffffee" },
	};
	if (!have(t, "fault"))
		return;
	u64 faults = stat_sum(user_faults);
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		char cmd[40], want[80];
		snprintf(cmd, sizeof(cmd), "fault %s", kinds[i].arg);
		user_run(&run, cmd, 0);
		KT_ASSERT_EQ(t, run.err, 0);
		if (!KT_EXPECT(t, WIFSIGNALED(run.status) && WTERMSIG(run.status) == kinds[i].sig))
			ktest_diag(t, "fault %s: status 0x%x, expected signal %d", kinds[i].arg,
				   run.status, kinds[i].sig);
		snprintf(want, sizeof(want), "fault[%d]%s", run.pid, kinds[i].report);
		KT_EXPECT_STR_CONTAINS(t, run.log, want);
		KT_EXPECT(t, strstr(run.log, "Oops") == NULL);
	}
	KT_EXPECT_EQ(t, stat_sum(user_faults) - faults, ARRAY_SIZE(kinds));
	/* A bad pointer to a system call is an error code, not a fault. */
	user_run(&run, "fault badptr", 0);
	KT_EXPECT(t, WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0);
}

/* user/sysret_hole.c: a syscall in the last two bytes below USER_TOP, so
 * its return address (RCX) is non-canonical. The kernel must not SYSRET
 * (CVE-2012-0217); it returns by IRETQ and the process faults there or
 * at its first instruction fetch. */
static void sysret_noncanonical(struct ktest *t)
{
	if (!have(t, "sysret_hole"))
		return;
	u64 before = stat_sum(sysret_via_iret);
	user_run(&run, "sysret_hole", 0);
	KT_EXPECT(t, WIFSIGNALED(run.status) && WTERMSIG(run.status) == SIGSEGV);
	KT_EXPECT_OP(t, stat_sum(sysret_via_iret) - before, >=, 1);
	KT_EXPECT_STR_CONTAINS(t, run.log, "800000000000");
	KT_EXPECT(t, strstr(run.log, "Oops") == NULL);
}

static void kill_running_and_sleeping_body(struct ktest *t);

static void kill_running_and_sleeping(struct ktest *t)
{
	user_quiet_begin();
	kill_running_and_sleeping_body(t);
	user_quiet_end();
}

static void kill_running_and_sleeping_body(struct ktest *t)
{
	if (!have(t, "spin") || !have(t, "cyclictest"))
		return;
	const char *spin_argv[] = { "spin" };
	const char *sleep_argv[] = { "cyclictest", "loops=1000000" };
	struct spawn_args a = { "spin", 1, spin_argv, NULL, false, 0 };
	struct spawn_args b = { "cyclictest", 2, sleep_argv, NULL, false, 0 };
	int e = 0;
	struct process *spinner = process_spawn(&a, &e), *sleeper = process_spawn(&b, &e);
	KT_ASSERT(t, spinner && sleeper);
	sleep_ns(50 * NSEC_PER_MSEC);
	KT_EXPECT_EQ(t, process_kill(spinner->pid, SIGKILL), 0);
	KT_EXPECT_EQ(t, process_kill(sleeper->pid, SIGTERM), 0);
	int s1 = process_wait(spinner), s2 = process_wait(sleeper);
	KT_EXPECT(t, WIFSIGNALED(s1) && WTERMSIG(s1) == SIGKILL);
	KT_EXPECT(t, WIFSIGNALED(s2) && WTERMSIG(s2) == SIGTERM);
	KT_EXPECT_EQ(t, process_kill(1, SIGKILL), -EPERM);
	KT_EXPECT_EQ(t, process_kill(999999, SIGKILL), -ESRCH);
}

/* User space is preemptible in every mode: two spins pinned to this CPU
 * with this thread, which sleeps 200 ms. It must wake (a spin that kept
 * the CPU would hang the test), and both spins must have user time. The
 * overshoot of the sleep is bounded under icount only (a busy host can
 * stall a vCPU for any wall-clock time). */
static void spins_share_cpu_every_mode_body(struct ktest *t);

static void spins_share_cpu_every_mode(struct ktest *t)
{
	user_quiet_begin();
	spins_share_cpu_every_mode_body(t);
	user_quiet_end();
}

static void spins_share_cpu_every_mode_body(struct ktest *t)
{
	if (!have(t, "spin"))
		return;
	int old = preempt_mode;
	u64 me = 1UL << raw_smp_processor_id();
	for (int mode = 0; mode < NR_PREEMPT_MODES; mode++) {
		if (!preempt_mode_valid(mode))
			continue;
		KT_ASSERT_EQ(t, preempt_mode_set(mode), 0);
		const char *argv[] = { "spin" };
		struct spawn_args a = { "spin", 1, argv, NULL, false, me };
		int e = 0;
		struct process *p1 = process_spawn(&a, &e), *p2 = process_spawn(&a, &e);
		KT_ASSERT(t, p1 && p2);
		u64 start = ktime_get_ns();
		sleep_ns(200 * NSEC_PER_MSEC);
		u64 late = ktime_get_ns() - start - 200 * NSEC_PER_MSEC;
		u64 u1 = READ_ONCE(p1->thread->utime), u2 = READ_ONCE(p2->thread->utime);
		process_kill(p1->pid, SIGKILL);
		process_kill(p2->pid, SIGKILL);
		process_wait(p1);
		process_wait(p2);
		ktest_diag(t, "mode %s: spins had %llu and %llu user ticks, the sleeper woke %llu us late",
			   preempt_mode_name(mode), (unsigned long long)u1, (unsigned long long)u2,
			   (unsigned long long)(late / 1000));
		KT_EXPECT_OP(t, u1, >, 0);
		KT_EXPECT_OP(t, u2, >, 0);
		if (cmdline.icount)
			KT_EXPECT_OP(t, late, <, 3 * SCHED_SLICE_TICKS * NSEC_PER_SEC / tick_hz);
	}
	preempt_mode_set(old);
}

KTEST_SUITE(user,
	    KTEST_CASE(hello_args),
	    KTEST_CASE(spawn_errors),
	    KTEST_CASE(isolation),
	    KTEST_CASE(faults_contained),
	    KTEST_CASE(sysret_noncanonical),
	    KTEST_CASE(kill_running_and_sleeping),
	    KTEST_CASE(spins_share_cpu_every_mode));
