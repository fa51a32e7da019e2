/* The fault_inject suite: should_fail()'s rules (kernel/debug/
 * fault_inject.h) on the suite's own thread, made eligible as Linux's
 * make-it-fail makes a task; the leak check seeing leaks it is shown;
 * then the fuzzers under injection (tests/fault/fault_fuzz.h), each
 * allocator at 1% and 10%: the kernel lives, the fuzzers exit 0, every
 * figure of the leak check comes back. The fuzzer runs are counted in
 * system calls and run under clock=icount only (rows fault-inject-sys and
 * fault-inject-ipc); on the wall clock they are skipped, as the ipc
 * suite's fuzzers are, so that test=all stays quick. */
#include "tests/kernel/ktest.h"
#include "tests/kernel/user_run.h"
#include "tests/fault/fault_fuzz.h"
#include "tests/fault/leak_check.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/time/time.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "process/process.h"
#include "mm/mm.h"
#include "lib/bitmap.h"
#include "lib/string.h"

#define SYS_CALLS 50000   /* sysfuzz's calls per run: 6 runs */
#define IPC_CALLS 10000   /* ipcfuzz's system calls per run, over four: 6 runs */

static const struct fault_config off = FAULT_CONFIG_OFF;

static void config_parse(struct ktest *t)
{
	struct fault_config c = off;
	KT_EXPECT(t, !fault_config_parse("1,10,0,-1", &c));
	KT_EXPECT(t, c.interval == 1 && c.probability == 10 && c.space == 0 && c.times == -1);
	KT_EXPECT(t, !fault_config_parse("3,100,4k,7", &c));
	KT_EXPECT(t, c.interval == 3 && c.probability == 100 && c.space == 4000 && c.times == 7);
	struct fault_config keep = c;
	static const char *const bad[] = { "1,101,0,-1", "1,10,0", "1,10,0,-1,5", "x,10,0,-1",
					   "1,10,0,-2", "", "1,,0,-1", "1,10,0,99999999999999999999" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		KT_EXPECT(t, fault_config_parse(bad[i], &c) != NULL);
	KT_EXPECT(t, !memcmp(&c, &keep, sizeof(c)));
}

static int weight(u64 bits)
{
	unsigned long w = bits;
	return (int)bitmap_weight(&w, 64);
}

/* n kmalloc(size)s on this thread: bit i set if the i-th failed. */
static u64 fails(int n, u64 size)
{
	u64 bits = 0;
	for (int i = 0; i < n; i++) {
		void *p = kmalloc(size);
		if (!p)
			bits |= 1UL << i;
		kfree(p);
	}
	return bits;
}

static void set(u32 interval, u32 prob, u64 space, s64 times)
{
	struct fault_config c = { interval, prob, space, times };
	fault_attr_set(&failslab, &c);
}

/* Linux's rules, one at a time, with failslab on this thread. */
static void rules(struct ktest *t)
{
	fault_inject_task(current_thread());
	fault_inject_seed(1);
	set(1, 0, 0, -1);
	KT_EXPECT_EQ(t, fails(8, 64), 0);                /* probability 0: off */
	set(1, 100, 0, 3);
	KT_EXPECT_EQ(t, fails(8, 64), 0x7);              /* times: 3 at most */
	KT_EXPECT_EQ(t, failslab.injected, 3);
	set(4, 100, 0, -1);
	KT_EXPECT_EQ(t, fails(12, 64), 0x888);           /* interval: every 4th */
	set(1, 100, 1000, -1);
	KT_EXPECT_EQ(t, fails(6, 300), 0x38);            /* space: 3 x 300 pass first */
	/* The same seed, the same failures; another seed, others. */
	set(1, 50, 0, -1);
	fault_inject_seed(42);
	u64 a = fails(64, 64);
	fault_inject_seed(42);
	u64 b = fails(64, 64);
	fault_inject_seed(43);
	u64 c = fails(64, 64);
	KT_EXPECT_EQ(t, a, b);
	KT_EXPECT(t, a != c);
	KT_EXPECT_OP(t, weight(a), >, 16); /* about 32 of 64 */
	KT_EXPECT_OP(t, weight(a), <, 48);
	ktest_diag(t, "50%%, seed 42: %d of 64 failed", weight(a));
	set(1, 0, 0, -1);
	fault_inject_task(NULL);
	KT_EXPECT_EQ(t, fails(8, 64), 0);
}

static volatile int other_failed = -1;

static void count_call(void *arg)
{
	(void)arg;
}

static void other_thread(void *arg)
{
	(void)arg;
	WRITE_ONCE(other_failed, (int)weight(fails(16, 64)));
}

/* At 100%: another kernel thread is never failed (the task filter),
 * while this thread's own kmalloc() and frame_alloc() fail, and so does
 * its kthread_create(): an error (NULL), never a BUG. */
static void filters(struct ktest *t)
{
	struct thread *o = kthread_create(other_thread, NULL, "fault-other", PRIO_NORMAL, 0);
	KT_ASSERT(t, o != NULL);
	fault_inject_task(current_thread());
	fault_inject_seed(1);
	set(1, 100, 0, -1);
	fault_attr_set(&fail_page_alloc, &(struct fault_config){ 1, 100, 0, -1 });
	wake_up_thread(o);
	thread_join(o);
	struct thread *none = kthread_create(count_call, NULL, "fault-none", PRIO_NORMAL, 0);
	void *mine = kmalloc(64);
	u64 frame = frame_alloc();
	fault_attr_set(&fail_page_alloc, &off);
	set(1, 0, 0, -1);
	fault_inject_task(NULL);
	KT_EXPECT_EQ(t, other_failed, 0);
	KT_EXPECT(t, none == NULL);
	KT_EXPECT(t, mine == NULL);
	KT_EXPECT_EQ(t, frame, 0);
	KT_EXPECT_OP(t, failslab.injected, >=, 1);
	KT_EXPECT_OP(t, fail_page_alloc.injected, >=, 1);
}

/* The leak check, its lines captured off the console (the leaks shown
 * to it are deliberate). */
static char checked[2048];
static int check_quietly(const struct leak_snapshot *a, const struct leak_snapshot *b)
{
	struct printk_capture cap = { checked, sizeof(checked), 0, true };
	printk_capture_start(&cap);
	int n = leak_check(a, b);
	printk_capture_stop();
	return n;
}

/* The check fails on each kind of leak it is shown, naming it, and
 * passes once it is undone. */
static void leak_check_sees_leaks(struct ktest *t)
{
	struct leak_snapshot a, b;
	leak_snapshot(&a);
	void *p = kmalloc(100);
	u64 f = frame_alloc();
	leak_snapshot(&b);
	KT_EXPECT_EQ(t, check_quietly(&a, &b), 3);
	KT_EXPECT_STR_CONTAINS(t, checked, "leak check: kmalloc objects");
	KT_EXPECT_STR_CONTAINS(t, checked, "kmalloc bytes in use");
	KT_EXPECT_STR_CONTAINS(t, checked, "after: LEAK (+128)");  /* 100 + the header: 128 */
	KT_EXPECT_STR_CONTAINS(t, checked, "LEAK (-1");            /* the frame */
	kfree(p);
	frame_free(f);
	leak_snapshot(&b);
	KT_EXPECT_EQ(t, check_quietly(&a, &b), 0);
	KT_EXPECT(t, !strstr(checked, "LEAK"));
	/* A thread not yet joined holds its stack and struct. */
	struct thread *th = thread_create(count_call, NULL, "fault-leak", PRIO_NORMAL, 0);
	sleep_ns(NSEC_PER_MSEC);
	leak_snapshot(&b);
	KT_EXPECT_EQ(t, check_quietly(&a, &b), 4);
	KT_EXPECT_STR_CONTAINS(t, checked, "leak check: kernel stacks in use");
	KT_EXPECT_STR_CONTAINS(t, checked, "leak check: threads");
	thread_join(th);
	leak_snapshot(&b);
	KT_EXPECT_EQ(t, check_quietly(&a, &b), 0);
	ktest_diag(t, "%llu frames free, %llu kernel stacks in use, %llu kmalloc bytes, "
		   "%llu handles, %llu processes, %llu threads", (unsigned long long)b.frames_free,
		   (unsigned long long)b.stacks, (unsigned long long)b.kmalloc_bytes,
		   (unsigned long long)b.handles,
		   (unsigned long long)b.processes, (unsigned long long)b.threads);
}

static bool fuzz_ok(struct ktest *t, const char *prog)
{
	if (!clock_icount) {
		ktest_skip(t, "wall clock: the fuzzers run under clock=icount (rows fault-inject-*)");
		return false;
	}
	return user_have(t, prog) && user_have(t, "true");
}

static struct user_run run1, run2;

/* A seed repeats a run: sysfuzz (its summary line) and the failures. */
static void seed_repeats_run(struct ktest *t)
{
	if (!fuzz_ok(t, "sysfuzz"))
		return;
	u64 injected[2];
	struct user_run *runs[2] = { &run1, &run2 };
	for (int i = 0; i < 2; i++) {
		fault_inject_seed(5);
		set(1, 10, 0, -1);
		user_run(runs[i], "sysfuzz calls=3000 seed=5 spawn=true", 1);
		set(1, 0, 0, -1);
		injected[i] = failslab.injected;
		process_reap_detached();
	}
	char *s1 = strstr(run1.out, "sysfuzz: 3000 calls"), *s2 = strstr(run2.out, "sysfuzz: 3000 calls");
	KT_ASSERT(t, s1 && s2);
	KT_EXPECT(t, !strcmp(s1, s2));
	KT_EXPECT_EQ(t, injected[0], injected[1]);
	KT_EXPECT_OP(t, injected[0], >, 0);
	char *nl = strchr(s1, '\n');
	if (nl)
		*nl = 0;
	ktest_diag(t, "twice %llu failures; %s", (unsigned long long)injected[0], s1);
}

static void sysfuzz_injected(struct ktest *t)
{
	if (fuzz_ok(t, "sysfuzz"))
		KT_EXPECT_EQ(t, fault_fuzz_matrix(FAULT_FUZZ_SYS, SYS_CALLS, 7), 0);
}

static void ipcfuzz_injected(struct ktest *t)
{
	if (fuzz_ok(t, "ipcfuzz"))
		KT_EXPECT_EQ(t, fault_fuzz_matrix(FAULT_FUZZ_IPC, IPC_CALLS, 1), 0);
}

KTEST_SUITE(fault_inject,
	    KTEST_CASE(config_parse),
	    KTEST_CASE(rules),
	    KTEST_CASE(filters),
	    KTEST_CASE(leak_check_sees_leaks),
	    KTEST_CASE(seed_repeats_run),
	    KTEST_CASE(sysfuzz_injected),
	    KTEST_CASE(ipcfuzz_injected));
