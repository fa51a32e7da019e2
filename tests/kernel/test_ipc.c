/* The ipc suite: endpoints, handles and the fast path (ipc/ipc.h), with
 * user programs on one side (user/ipctest.c, user/ping.c, user/pong.c)
 * and, where the test must see every field, the test thread itself on
 * the other: it holds handles in an IPC state of its own and calls the
 * same operations the system calls do.
 *   - a message's words, payload and badge arrive intact, and the reply's;
 *   - receivers take queued senders highest priority first, FIFO within;
 *   - the fast path is taken when its conditions hold (ping and pong on
 *     one CPU, every preemption mode) and never across CPUs (counted);
 *   - a call to a server that died, or dies before replying: -EPIPE;
 *   - a process killed while queued leaves no waiter behind;
 *   - a process cannot use a handle it was not given, or a right;
 *   - handles move in messages (a name server, user/names.c);
 *   - four fuzzers on two CPUs leave the kernel working. */
#include "tests/kernel/ktest.h"
#include "process/process.h"
#include "boot/module.h"
#include "kernel/time/time.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "ipc/ipc.h"
#include "tests/kernel/user_run.h"
#include "user/lib/pingpong.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "lib/string.h"
#include "lib/format.h"

static struct ipc_state *kstate;   /* the test thread's own handles */

/* The test's IPC state with a new endpoint in it: its handle (all rights). */
static int setup(struct ktest *t)
{
	kstate = ipc_state_create(NULL, current_thread());
	KT_EXPECT(t, kstate != NULL);
	if (!kstate)
		return -1;
	struct endpoint *ep = endpoint_create();
	int h = handle_install(kstate, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	KT_EXPECT_EQ(t, h, 0);
	return h;
}

static void teardown(void)
{
	ipc_state_destroy(kstate);
	kstate = NULL;
}

static struct endpoint *ep_of(int h)
{
	return (struct endpoint *)kstate->handles[h].obj;
}

static struct process *start(const char *prog, int argc, const char *const *argv,
			     const int *handles, int n, u64 cpus)
{
	int err = 0;
	struct spawn_args a = { prog, argc, argv, NULL, false, cpus, kstate, n, handles };
	return process_spawn(&a, &err);
}

/* How many threads wait on ep (as senders or receivers). */
static u32 queued(struct endpoint *ep)
{
	u32 n = 0;
	u64 f = raw_spin_lock_irqsave(&ep->obj.lock);
	struct list_head *pos;
	list_for_each(pos, &ep->queue)
		n++;
	raw_spin_unlock_irqrestore(&ep->obj.lock, f);
	return n;
}

/* Wait (2 s at most) until n threads wait on ep. */
static bool wait_queued(struct endpoint *ep, u32 n)
{
	u64 end = ktime_get_ns() + 2 * NSEC_PER_SEC;
	while (queued(ep) != n && ktime_get_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
	return queued(ep) == n;
}

static bool exited_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void message_and_badge(struct ktest *t)
{
	if (!user_have(t, "ipctest") || setup(t) < 0)
		return;
	int badged = handle_mint(kstate, 0, 0x5eed, RIGHT_SEND);
	KT_ASSERT_EQ(t, badged, 1);
	const char *argv[] = { "ipctest", "client" };
	user_quiet_begin();
	struct process *p = start("ipctest", 2, argv, &badged, 1, 0);
	KT_ASSERT(t, p != NULL);
	long r = ipc_recv(kstate, ep_of(0));
	KT_EXPECT_EQ(t, r, 0);
	struct ipc_msg *m = &kstate->msg;
	KT_EXPECT_EQ(t, IPC_TAG_LABEL(m->tag), 7);
	KT_EXPECT_EQ(t, IPC_TAG_LEN(m->tag), 64);
	KT_EXPECT_EQ(t, m->w[0], 1);
	KT_EXPECT_EQ(t, m->w[1], 2);
	KT_EXPECT_EQ(t, m->w[2], 3);
	KT_EXPECT_EQ(t, m->badge, 0x5eed);
	bool payload = true;
	for (int i = 0; i < 64; i++)
		payload = payload && m->buf[i] == i;
	KT_EXPECT(t, payload);
	u8 rev[64];
	for (int i = 0; i < 64; i++)
		rev[i] = (u8)(63 - m->buf[i]);
	memcpy(m->buf, rev, sizeof(rev));
	m->tag = IPC_TAG(8, 64);
	m->w[0] = 4;
	m->w[1] = 5;
	m->w[2] = 6;
	KT_EXPECT_EQ(t, ipc_reply(kstate), 0);
	KT_EXPECT_EQ(t, ipc_reply(kstate), -ESRCH); /* the reply capability is one-shot */
	int status = process_wait(p);
	user_quiet_end();
	KT_EXPECT(t, exited_ok(status));
	teardown();
}

/* Four senders queue before anyone receives: prio 10, 50, 30, and a
 * second 50 after the first. */
static void priority_order(struct ktest *t)
{
	if (!user_have(t, "ipctest") || setup(t) < 0)
		return;
	static const char *const labels[] = { "10", "50", "30", "51" };
	static const char *const prios[] = { "10", "50", "30", "50" };
	struct process *p[4];
	int h = 0;
	user_quiet_begin();
	for (int i = 0; i < 4; i++) {
		const char *argv[] = { "ipctest", "send", labels[i], prios[i] };
		p[i] = start("ipctest", 4, argv, &h, 1, 0);
		KT_EXPECT(t, p[i] != NULL);
		KT_EXPECT(t, wait_queued(ep_of(0), (u32)i + 1)); /* in this order */
	}
	static const u64 want[] = { 50, 51, 30, 10 };
	for (int i = 0; i < 4; i++) {
		KT_EXPECT_EQ(t, ipc_recv(kstate, ep_of(0)), 0);
		KT_EXPECT_EQ(t, IPC_TAG_LABEL(kstate->msg.tag), want[i]);
	}
	for (int i = 0; i < 4; i++)
		if (p[i])
			KT_EXPECT(t, exited_ok(process_wait(p[i])));
	user_quiet_end();
	teardown();
}

/* ping and pong, pinned; the fast-path count over the run (and the slow
 * path's handoffs, if asked). */
static u64 pingpong_bytes(struct ktest *t, u32 ping_cpu, u32 pong_cpu, const char *calls,
			  const char *bytes, u64 *handoffs)
{
	if (setup(t) < 0)
		return 0;
	int h = 0;
	const char *pong_argv[] = { "pong" };
	char arg[32];
	snprintf(arg, sizeof(arg), "calls=%s", calls);
	const char *ping_argv[] = { "ping", arg, bytes };
	u64 before = stat_sum(ipc_fastpath), hand = stat_sum(ipc_handoff);
	user_quiet_begin();
	struct process *server = start("pong", 1, pong_argv, &h, 1, 1UL << pong_cpu);
	struct process *client = start("ping", 3, ping_argv, &h, 1, 1UL << ping_cpu);
	KT_EXPECT(t, server && client);
	if (client)
		KT_EXPECT(t, exited_ok(process_wait(client)));
	if (server)
		KT_EXPECT(t, exited_ok(process_wait(server)));
	user_quiet_end();
	teardown();
	if (handoffs)
		*handoffs = stat_sum(ipc_handoff) - hand;
	return stat_sum(ipc_fastpath) - before;
}

static u64 pingpong(struct ktest *t, u32 ping_cpu, u32 pong_cpu, const char *calls)
{
	return pingpong_bytes(t, ping_cpu, pong_cpu, calls, "bytes=0", NULL);
}

static void fastpath_counted(struct ktest *t)
{
	if (!user_have(t, "ping") || !user_have(t, "pong"))
		return;
	int saved = preempt_mode;
	for (int mode = 0; mode < NR_PREEMPT_MODES; mode++) {
		if (!preempt_mode_valid(mode))
			continue;
		preempt_mode_set(mode);
		u64 fast = pingpong(t, 0, 0, "1000");
		ktest_diag(t, "mode %s, one CPU: %llu of about 2000 messages by the fast path",
			   preempt_mode_name(mode), (unsigned long long)fast);
		/* Each round trip is two fast-path messages; a tick's request
		 * now and then sends one down the slow path. */
		KT_EXPECT_OP(t, fast, >=, 1000);
	}
	preempt_mode_set(saved);
	/* A payload is the slow path's, which still switches straight to
	 * the partner (its handoff). */
	u64 hand = 0;
	u64 fast = pingpong_bytes(t, 0, 0, "300", "bytes=64", &hand);
	ktest_diag(t, "one CPU, 64 bytes: %llu by the fast path, %llu slow-path handoffs",
		   (unsigned long long)fast, (unsigned long long)hand);
	KT_EXPECT_OP(t, fast, <=, 3); /* ping's probe, pong's answer, ping's quit: no payload */
	KT_EXPECT_OP(t, hand, >=, 300);
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU: no cross-CPU case");
	u64 cross = pingpong(t, 0, 1, "300");
	ktest_diag(t, "across CPUs 0 and 1: %llu by the fast path", (unsigned long long)cross);
	KT_EXPECT_EQ(t, cross, 0);
}

/* A server parked by the fast path (serving a client on its CPU) whose
 * wait a client on another CPU ends by the slow path: the scheduler
 * resumes it from its registers (ipc_fastpath_resume), and both clients
 * get every reply right. */
static void parked_resumed(struct ktest *t)
{
	if (!user_have(t, "ping") || !user_have(t, "pong"))
		return;
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU: no client on another");
	if (setup(t) < 0)
		return;
	int h = 0;
	const char *pong_argv[] = { "pong" };
	const char *near_argv[] = { "ping", "calls=40000", "quit=0" };
	const char *far_argv[] = { "ping", "calls=300", "quit=0" };
	u64 fast0 = stat_sum(ipc_fastpath), unparked0 = stat_sum(ipc_unparked);
	user_quiet_begin();
	struct process *server = start("pong", 1, pong_argv, &h, 1, 1UL << 0);
	struct process *near = start("ping", 3, near_argv, &h, 1, 1UL << 0);
	/* The far client once the near one is under way. */
	u64 end = ktime_get_ns() + 2 * NSEC_PER_SEC;
	while (stat_sum(ipc_fastpath) - fast0 < 100 && ktime_get_ns() < end)
		sleep_ns(NSEC_PER_MSEC);
	struct process *far = start("ping", 3, far_argv, &h, 1, 1UL << 1);
	KT_EXPECT(t, server && near && far);
	if (far)
		KT_EXPECT(t, exited_ok(process_wait(far)));
	if (near)
		KT_EXPECT(t, exited_ok(process_wait(near)));
	kstate->msg.tag = IPC_TAG(PONG_QUIT, 0);
	if (server) {
		KT_EXPECT_EQ(t, ipc_send(kstate, ep_of(h), 0, true), 0);
		KT_EXPECT(t, exited_ok(process_wait(server)));
	}
	user_quiet_end();
	teardown();
	u64 fast = stat_sum(ipc_fastpath) - fast0, unparked = stat_sum(ipc_unparked) - unparked0;
	ktest_diag(t, "%llu messages by the fast path; parked threads the scheduler resumed: %llu",
		   (unsigned long long)fast, (unsigned long long)unparked);
	KT_EXPECT_OP(t, fast, >=, 1000);
	KT_EXPECT_OP(t, unparked, >=, 1);
}

static void dead_server(struct ktest *t)
{
	if (!user_have(t, "ipctest") || setup(t) < 0)
		return;
	/* The server takes the call and exits without replying. */
	int h = 0;
	const char *argv[] = { "ipctest", "recv-exit" };
	user_quiet_begin();
	struct process *p = start("ipctest", 2, argv, &h, 1, 0);
	KT_ASSERT(t, p != NULL);
	int send_only = handle_mint(kstate, 0, 0, RIGHT_SEND);
	kstate->msg.tag = IPC_TAG(1, 0);
	KT_EXPECT_EQ(t, ipc_send(kstate, ep_of(0), 0, true), -EPIPE);
	KT_EXPECT(t, exited_ok(process_wait(p)));
	user_quiet_end();
	/* No receiver can come any more: the last recv handle closes. */
	KT_EXPECT_EQ(t, handle_close(kstate, 0), 0);
	KT_EXPECT_EQ(t, ep_of(send_only)->receivers, 0);
	kstate->msg.tag = IPC_TAG(1, 0);
	KT_EXPECT_EQ(t, ipc_send(kstate, ep_of(send_only), 0, true), -EPIPE);
	KT_EXPECT_EQ(t, ipc_send(kstate, ep_of(send_only), 0, false), -EPIPE);
	teardown();
}

static void kill_while_blocked(struct ktest *t)
{
	if (!user_have(t, "ipctest") || setup(t) < 0)
		return;
	int h = 0;
	const char *argv[] = { "ipctest", "send", "1", "0" };
	user_quiet_begin();
	struct process *p = start("ipctest", 4, argv, &h, 1, 0);
	KT_ASSERT(t, p != NULL);
	KT_EXPECT(t, wait_queued(ep_of(0), 1));
	KT_EXPECT_EQ(t, process_kill(p->pid, SIGKILL), 0);
	int status = process_wait(p);
	user_quiet_end();
	KT_EXPECT(t, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	KT_EXPECT_EQ(t, queued(ep_of(0)), 0);
	/* and the endpoint still works */
	const char *argv2[] = { "ipctest", "send", "2", "0" };
	user_quiet_begin();
	p = start("ipctest", 4, argv2, &h, 1, 0);
	KT_ASSERT(t, p != NULL);
	KT_EXPECT_EQ(t, ipc_recv(kstate, ep_of(0)), 0);
	KT_EXPECT_EQ(t, IPC_TAG_LABEL(kstate->msg.tag), 2);
	KT_EXPECT(t, exited_ok(process_wait(p)));
	user_quiet_end();
	teardown();
}

static void handles_not_forged(struct ktest *t)
{
	if (!user_have(t, "ipctest") || setup(t) < 0)
		return;
	struct notification *n = notification_create();
	KT_ASSERT(t, n != NULL);
	int hn = handle_install(kstate, &n->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	int hs = handle_mint(kstate, 0, 5, RIGHT_SEND);
	int hv[] = { hs, hn };
	const char *argv[] = { "ipctest", "forge" };
	user_quiet_begin();
	struct process *p = start("ipctest", 2, argv, hv, 2, 0);
	KT_ASSERT(t, p != NULL);
	int status = process_wait(p);
	user_quiet_end();
	KT_EXPECT(t, exited_ok(status));
	if (!exited_ok(status))
		ktest_diag(t, "ipctest forge: status 0x%x", status);
	teardown();
}

/* A name server hands out a handle by name: nsdemo registers pong's
 * endpoint (a grant in a call), ping, given only the name server, looks it
 * up (a grant in a reply) and calls pong through it. */
static struct user_run nsrun;
static void name_server_grants(struct ktest *t)
{
	if (!user_have(t, "nsdemo") || !user_have(t, "names"))
		return;
	user_run(&nsrun, "nsdemo", 0);
	KT_EXPECT_EQ(t, nsrun.err, 0);
	KT_EXPECT(t, exited_ok(nsrun.status));
	KT_EXPECT_STR_CONTAINS(t, nsrun.out, "names: echo registered");
	KT_EXPECT_STR_CONTAINS(t, nsrun.out, "ping: the name server gave 'echo' as handle");
	KT_EXPECT_STR_CONTAINS(t, nsrun.out, "ping: 1000 calls of 0 bytes");
	KT_EXPECT_STR_CONTAINS(t, nsrun.out, "nsdemo: ping exited 0");
}

/* ---- four fuzzers (user/ipcfuzz.c) on two CPUs, sharing four handles */

#define FUZZERS 4
#define FUZZ_OPS 100000      /* system calls, over all of them */
static struct process *fz[FUZZERS];
static char fuzzlog[8192];

static struct process *start_fuzzer(int i, u64 seed, const int *hv)
{
	char ops[24], sd[32];
	snprintf(ops, sizeof(ops), "ops=%d", FUZZ_OPS / 2);
	snprintf(sd, sizeof(sd), "seed=%llu", (unsigned long long)seed);
	const char *argv[] = { "ipcfuzz", ops, sd };
	u64 cpus = nr_cpus_online > 1 ? 1UL << (i % 2) : 0;
	return start("ipcfuzz", 3, argv, hv, 4, cpus);
}

static bool fuzz_status_ok(int status)
{
	return exited_ok(status) || (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Each fuzzer waits now and then for a partner that never comes; when
 * no system call has been made for two milliseconds, all of them wait:
 * kill one (round robin) and start another in its place. */
static void fuzz_four(struct ktest *t)
{
	/* The stall test is a matter of milliseconds: under wall-clock TCG a
	 * loaded host makes it slow and its figures vary; under icount it is
	 * quick and the same every run (rows ipc-smp1, ipc-smp2). */
	if (!clock_icount)
		KT_SKIP(t, "wall clock: the fuzzers run under clock=icount (rows ipc-smp1, ipc-smp2)");
	if (!user_have(t, "ipcfuzz") || setup(t) < 0)
		return;
	struct endpoint *b = endpoint_create();
	struct notification *n = notification_create();
	KT_ASSERT(t, b && n);
	handle_install(kstate, &b->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	handle_install(kstate, &n->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	handle_mint(kstate, 0, 7, RIGHT_SEND);
	static const int hv[] = { 0, 1, 2, 3 };
	u64 pos = log_head, seed = 1, kills = 0, bad = 0;
	u64 start_calls = stat_sum(syscalls), last = start_calls, idle = 0;
	u64 msgs = stat_sum(ipc_messages), t0 = ktime_get_ns();
	u64 end = t0 + 60 * NSEC_PER_SEC;
	user_quiet_begin();
	for (int i = 0; i < FUZZERS; i++)
		fz[i] = start_fuzzer(i, seed++, hv);
	int victim = 0;
	while (stat_sum(syscalls) - start_calls < FUZZ_OPS && ktime_get_ns() < end) {
		sleep_ns(NSEC_PER_MSEC);
		for (int i = 0; i < FUZZERS; i++)
			if (fz[i] && READ_ONCE(fz[i]->state) == PROC_ZOMBIE) {
				bad += !fuzz_status_ok(process_wait(fz[i]));
				fz[i] = start_fuzzer(i, seed++, hv);
			}
		u64 now = stat_sum(syscalls);
		idle = now == last ? idle + 1 : 0;
		last = now;
		if (idle < 2)
			continue;
		if (fz[victim]) {
			process_kill(fz[victim]->pid, SIGKILL);
			bad += !fuzz_status_ok(process_wait(fz[victim]));
			kills++;
		}
		fz[victim] = start_fuzzer(victim, seed++, hv);
		victim = (victim + 1) % FUZZERS;
		idle = 0;
	}
	u64 calls = stat_sum(syscalls) - start_calls;
	msgs = stat_sum(ipc_messages) - msgs;
	u64 ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	for (int i = 0; i < FUZZERS; i++)
		if (fz[i]) {
			process_kill(fz[i]->pid, SIGKILL);
			bad += !fuzz_status_ok(process_wait(fz[i]));
			fz[i] = NULL;
		}
	user_quiet_end();
	teardown();
	log_read(&pos, fuzzlog, sizeof(fuzzlog));
	ktest_diag(t, "%llu system calls (%llu messages moved) from %llu fuzzers in %llu ms, "
		   "%llu killed while all waited", (unsigned long long)calls,
		   (unsigned long long)msgs, (unsigned long long)(seed - 1),
		   (unsigned long long)ms, (unsigned long long)kills);
	KT_EXPECT_OP(t, calls, >=, FUZZ_OPS);
	KT_EXPECT_EQ(t, bad, 0);
	KT_EXPECT(t, !strstr(fuzzlog, "Oops") && !strstr(fuzzlog, "BUG") && !strstr(fuzzlog, "PANIC"));
	/* and IPC still works */
	if (user_have(t, "ping") && user_have(t, "pong"))
		KT_EXPECT_OP(t, pingpong(t, 0, 0, "100"), >=, 100);
}

KTEST_SUITE(ipc,
	    KTEST_CASE(message_and_badge),
	    KTEST_CASE(priority_order),
	    KTEST_CASE(fastpath_counted),
	    KTEST_CASE(parked_resumed),
	    KTEST_CASE(dead_server),
	    KTEST_CASE(kill_while_blocked),
	    KTEST_CASE(handles_not_forged),
	    KTEST_CASE(name_server_grants),
	    KTEST_CASE(fuzz_four));
