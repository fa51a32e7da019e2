/* The nproc suite: no user program can bring the kernel down through
 * spawn. user/spawnflood spawns children that exit at once (or sleep)
 * and never waits for them; spawn() must fail with -EAGAIN at the
 * parent's nproc= limit or at threads-max, or with -ENOMEM if memory
 * runs out first, and once it is killed every figure must be what it
 * was: free frames, kmalloc's objects, kernel stacks in use, processes.
 * Then the kernel's own shortages: every stack slot taken (-EAGAIN), and
 * memory run dry a frame at a time (-ENOMEM at each step, nothing kept).
 *
 * Freed stacks keep their frames and kmalloc keeps its pages, for reuse,
 * so "frames free" may end lower by exactly what those two caches grew:
 * the frames lost are the drop less that growth, and must be 0. */
#include "tests/kernel/ktest.h"
#include "tests/kernel/user_run.h"
#include "tests/fault/leak_check.h"
#include "process/process.h"
#include "process/syscall.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "mm/mm.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "kernel/time/time.h"
#include "lib/string.h"
#include "lib/format.h"

/* Bounds in counts, not wall-clock time: polls of 1 ms of sleep. */
#define FLOOD_POLLS 200000
#define REAP_POLLS 20000

/* Every figure the leak check keeps, as ps would see them: detached
 * zombies reaped first. */
static void measure(struct leak_snapshot *s)
{
	process_reap_detached(); /* as ps does */
	leak_snapshot(s);
}

/* One line per figure on the console ("leak check: ..."), and each must
 * be back where it was. */
static void expect_same(struct ktest *t, const struct leak_snapshot *a,
			const struct leak_snapshot *b)
{
	KT_EXPECT_EQ(t, leak_check(a, b), 0);
}

/* What the flood wrote, off the console. */
static char out[USER_OUT_MAX];
static struct printk_capture cap = { out, sizeof(out), 0, true };

struct census {
	struct process *parent;
	const char *name;
	u32 children, running, named;
	int *pids;   /* with name: the pids of the processes so named */
	u32 max;
};

static void count_one(struct process *p, void *arg)
{
	struct census *c = arg;
	if (c->parent && p->parent == c->parent) {
		c->children++;
		if (p->state != PROC_ZOMBIE)
			c->running++;
	}
	if (c->name && !strcmp(p->name, c->name) && p->state != PROC_ZOMBIE && c->named < c->max)
		c->pids[c->named++] = p->pid;
}

static int orphan_pids[STACK_SLOTS];

/* Polls (1 ms each, at most max) until cond holds; false if it never did. */
#define poll_until(cond, max)                                  \
	({                                                     \
		u32 n__ = 0;                                   \
		while (!(cond) && n__++ < (max))               \
			sleep_ns(NSEC_PER_MSEC);               \
		(bool)(cond);                                  \
	})

/* The count after "started " in the report, or -1. */
static long started(const char *s)
{
	const char *p = strstr(s, "started ");
	if (!p)
		return -1;
	long n = 0;
	for (p += 8; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (*p - '0');
	return n;
}

/* Every free frame, held without touching them: a frame first touched is
 * host memory QEMU must find, about 15 ms per 2 MiB on a loaded host.
 * They are kept as runs of consecutive frames (frame_alloc() hands them
 * out in address order) in one array, taken before the first. */
#define HOLD_RUNS 65536
struct run {
	u64 start, n;
};
static struct run *runs;
static u64 nruns;

/* How many frames it took, or 0 if it had no room for its array. */
static u64 hold_all(void)
{
	runs = kmalloc(HOLD_RUNS * sizeof(*runs));
	if (!runs)
		return 0;
	nruns = 0;
	u64 n = 0, pa;
	while ((pa = frame_alloc())) {
		n++;
		struct run *r = nruns ? &runs[nruns - 1] : NULL;
		if (r && pa == r->start + r->n * PAGE_SIZE) {
			r->n++;
			continue;
		}
		if (nruns == HOLD_RUNS) { /* no room to note it: give it back, stop */
			frame_free(pa);
			return n - 1;
		}
		runs[nruns++] = (struct run){ pa, 1 };
	}
	return n;
}

/* Gives one frame back; false once none is held. */
static bool release_one(void)
{
	if (!runs)
		return false;
	if (!nruns) {
		kfree(runs);
		runs = NULL;
		return false;
	}
	struct run *r = &runs[nruns - 1];
	frame_free(r->start + --r->n * PAGE_SIZE);
	if (!r->n)
		nruns--;
	return true;
}

/* Frames left free for flood_out_of_memory: room for some dozens of
 * sleeping children, so memory runs out long before nproc. */
#define FLOOD_FRAMES_LEFT 2048

/* Runs spawnflood (its children sleep if `sleepers`) with `left` frames
 * free (0: all of memory), kills it and its children, and checks that
 * every figure is back. */
static void flood(struct ktest *t, bool sleepers, u64 left)
{
	if (!user_have(t, "spawnflood"))
		return;
	struct leak_snapshot before, after;
	struct process_limits l;
	measure(&before);
	process_limits(&l);
	/* The flood itself is one process more: threads-max may stop it first. */
	u32 want = MIN(l.nproc, l.max_threads - l.nr_processes - 1);
	ktest_diag(t, "threads-max %u, nproc %u, %u processes: at most %u children", l.max_threads,
		   l.nproc, l.nr_processes, want);
	u64 held = 0;
	if (left) {
		held = hold_all();
		KT_EXPECT_OP(t, held, >, left);
		for (u64 i = 0; i < left && release_one(); i++)
			held--;
		ktest_diag(t, "holding %llu frames, %llu left free", (unsigned long long)held,
			   (unsigned long long)frames_free());
	}

	memset(out, 0, sizeof(out));
	cap.len = 0;
	user_write_capture = &cap;
	const char *argv[] = { "spawnflood", sleepers ? "sleep" : "exit", "retry=16" };
	struct spawn_args a = { "spawnflood", 3, argv, NULL, false, 0, NULL, 0, NULL };
	int err = 0;
	u64 start = ktime_get_ns();
	struct process *p = process_spawn(&a, &err);
	bool done = p && poll_until(strstr(out, "holding them until killed"), FLOOD_POLLS);
	struct census c = { p, NULL, 0, 0, 0, NULL, 0 };
	if (p)
		poll_until((c = (struct census){ p, NULL, 0, 0, 0, NULL, 0 },
			    process_for_each(count_one, &c), sleepers || !c.running), REAP_POLLS);
	for (const char *line = out; *line;) { /* one diagnostic a line */
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		ktest_diag(t, "%.*s", (int)len, line);
		line += len + (line[len] == '\n');
	}
	ktest_diag(t, "the flood took %llu ms",
		   (unsigned long long)((ktime_get_ns() - start) / NSEC_PER_MSEC));
	KT_EXPECT_EQ(t, err, 0);
	KT_EXPECT(t, done);
	long n = started(out);
	char eagain[96];
	snprintf(eagain, sizeof(eagain), "started %u children; spawn then returned -11 (EAGAIN)",
		 want);
	if (left) { /* memory runs out first, unless nproc= is tiny */
		if (!strstr(out, eagain)) {
			KT_EXPECT_STR_CONTAINS(t, out, "spawn then returned -12 (ENOMEM)");
			KT_EXPECT_STR_CONTAINS(t, out, "16 more tries: 16 failed (-12), 0 started");
			KT_EXPECT_OP(t, n, <, want);
		}
	} else {
		KT_EXPECT_STR_CONTAINS(t, out, eagain);
		KT_EXPECT_STR_CONTAINS(t, out, "16 more tries: 16 failed (-11), 0 started");
	}
	KT_EXPECT_EQ(t, c.children, n);
	if (!sleepers)
		KT_EXPECT_EQ(t, c.running, 0); /* all zombies, held by their parent */

	/* Kill it: its zombies are reaped as it exits; sleepers become
	 * orphans, killed one by one and reaped by the kernel. */
	if (p) {
		KT_EXPECT_EQ(t, p->nr_children, n);
		KT_EXPECT_EQ(t, process_kill(p->pid, SIGKILL), 0);
		int status = process_wait(p);
		KT_EXPECT(t, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	if (sleepers) {
		struct census o = { NULL, "spawnflood", 0, 0, 0, orphan_pids, STACK_SLOTS };
		process_for_each(count_one, &o);
		KT_EXPECT_EQ(t, o.named, n);
		for (u32 i = 0; i < o.named; i++)
			process_kill(orphan_pids[i], SIGKILL);
	}
	struct process_limits now;
	poll_until((process_reap_detached(), process_limits(&now),
		    now.nr_processes == before.processes), REAP_POLLS);
	user_write_capture = NULL;
	while (release_one())
		;
	measure(&after);
	expect_same(t, &before, &after);

	/* And the kernel is still up: a program runs as before. */
	static struct user_run run;
	user_run(&run, "hello", 0);
	KT_EXPECT_EQ(t, run.err, 0);
	KT_EXPECT(t, WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0);
}

/* Children that exit at once: zombies until the parent dies. -EAGAIN at
 * nproc (or threads-max), and all of them reaped by its exit. */
static void flood_zombies(struct ktest *t)
{
	flood(t, false, 0);
}

/* Children that sleep (each holds its address space) with 8 MiB left:
 * -ENOMEM from the spawn that finds none, wherever on its path; killed,
 * the parent leaves orphans, which the kernel reaps once they die. */
static void flood_out_of_memory(struct ktest *t)
{
	flood(t, true, FLOOD_FRAMES_LEFT);
}

static u64 tops[STACK_SLOTS];

static void nothing(void *arg)
{
	(void)arg;
}

/* Every stack slot taken (as many threads would): spawn and
 * kthread_create fail cleanly, and give back what they took. */
static void no_stack_left(struct ktest *t)
{
	if (!user_have(t, "hello"))
		return;
	/* Freed stacks keep their frames: filling every slot keeps 64 MiB
	 * in the stack cache for good, too much of a small machine. */
	if ((u64)STACK_SLOTS * STACK_SIZE * 3 > mem_usable_bytes)
		KT_SKIP(t, "every stack slot would keep %lu MiB of %llu MiB in the stack cache",
			(unsigned long)(STACK_SLOTS * STACK_SIZE >> 20),
			(unsigned long long)(mem_usable_bytes >> 20));
	struct leak_snapshot before, after;
	measure(&before);
	u32 n = 0;
	while (n < STACK_SLOTS && (tops[n] = stack_alloc()))
		n++;
	u32 in_use = stack_slots_in_use();
	u64 mid_frames = frames_free();
	struct kmalloc_usage mid, end;
	kmalloc_usage(&mid);
	const char *argv[] = { "hello" };
	struct spawn_args a = { "hello", 1, argv, NULL, false, 0, NULL, 0, NULL };
	int err = 0;
	struct process *p = process_spawn(&a, &err);
	struct thread *th = kthread_create(nothing, NULL, "nostack", PRIO_NORMAL, 0);
	kmalloc_usage(&end);
	s64 lost = (s64)(mid_frames - frames_free()) -
		   (s64)(end.class_pages + end.big_pages - mid.class_pages - mid.big_pages);
	u64 left = frames_free();
	for (u32 i = 0; i < n; i++)
		stack_free(tops[i]);
	if (th) { /* a stack it should not have had */
		wake_up_thread(th);
		thread_join(th);
	}
	if (p)
		process_wait(p);
	ktest_diag(t, "took %u stacks (%u of %d in use), then spawn returned %d with %llu frames "
		   "free; %lld frames lost", n, in_use, STACK_SLOTS, err, (unsigned long long)left,
		   (long long)lost);
	KT_EXPECT_EQ(t, in_use, STACK_SLOTS);
	KT_EXPECT(t, !p);
	KT_EXPECT_EQ(t, err, -EAGAIN);
	KT_EXPECT(t, !th);
	KT_EXPECT_EQ(t, lost, 0);
	KT_EXPECT_EQ(t, end.objects, mid.objects);
	measure(&after);
	expect_same(t, &before, &after);
}

/* Memory run dry, then given back a frame at a time: each spawn before
 * the first that starts must fail with -ENOMEM (or -EAGAIN once only the
 * stack is missing) and keep nothing, whichever allocation failed. */
static void no_memory_left(struct ktest *t)
{
	if (!user_have(t, "hello"))
		return;
	struct leak_snapshot before, after;
	measure(&before);
	u64 held = hold_all();
	KT_ASSERT(t, held);
	user_quiet_begin();
	const char *argv[] = { "hello" };
	struct spawn_args a = { "hello", 1, argv, NULL, false, 0, NULL, 0, NULL };
	u32 fails = 0, bad = 0, leaks = 0;
	struct process *p = NULL;
	int err = 0;
	for (u32 k = 0; k <= 256 && !p; k++) {
		struct leak_snapshot b, e;
		measure(&b);
		p = process_spawn(&a, &err);
		if (p)
			break;
		measure(&e);
		fails++;
		bad += err != -ENOMEM && err != -EAGAIN;
		leaks += leak_count(&b, &e) != 0;
		release_one(); /* one frame more for the next try */
	}
	int status = p ? process_wait(p) : -1;
	user_quiet_end();
	while (release_one())
		;
	ktest_diag(t, "held all %llu free frames; %u spawns failed, one frame more each time, "
		   "before one started; %u with another error than -ENOMEM/-EAGAIN, %u kept "
		   "something", (unsigned long long)held, fails, bad, leaks);
	KT_EXPECT(t, p);
	KT_EXPECT(t, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	KT_EXPECT_OP(t, fails, >, 0);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT_EQ(t, leaks, 0);
	measure(&after);
	expect_same(t, &before, &after);
}

KTEST_SUITE(nproc,
	    KTEST_CASE(flood_zombies),
	    KTEST_CASE(flood_out_of_memory),
	    KTEST_CASE(no_stack_left),
	    KTEST_CASE(no_memory_left));
