/* Lab L5, the IPC fast path's conditions (docs/10-labs.md, L5): the
 * tests in ipc_fastpath() (ipc/fastpath.c) that send a message down the
 * slow path (ipc/endpoint.c) instead.
 *
 * ping calls pong (user/ping.c, user/pong.c) N times, both pinned to one
 * CPU; the fast path's count (ipc_fastpath, over every CPU) says which
 * messages took it. Every call and every reply may take it when both
 * run at one priority with no payload; none with a payload; and only the
 * messages to a partner of no lower priority when one is FIFO. ping
 * checks every reply (exit status 0). Each seed varies N, the payload's
 * size, the FIFO priority and the CPU. */
#include "tests/labs/lab.h"
#include "tests/kernel/user_run.h"
#include "process/process.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "ipc/ipc.h"
#include "uapi/syscall.h"
#include "lib/format.h"

struct pp_result {
	bool ok;          /* both started, ping exited 0 (every reply right) */
	u64 fast, messages;
};

/* ping (with ping_extra) and pong on `cpu`; pong at pong_prio. */
static struct pp_result pingpong(u32 cpu, u32 calls, const char *ping_extra, int pong_prio)
{
	struct pp_result res = { false, 0, 0 };
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	if (!k)
		return res;
	struct endpoint *ep = endpoint_create();
	int h = handle_install(k, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	char arg[32];
	snprintf(arg, sizeof(arg), "calls=%u", calls);
	const char *pong_argv[] = { "pong" };
	const char *ping_argv[] = { "ping", arg, ping_extra };
	int err = 0;
	u64 fast0 = stat_sum(ipc_fastpath), msg0 = stat_sum(ipc_messages);
	user_quiet_begin();
	struct spawn_args sa = { "pong", 1, pong_argv, NULL, false, 1UL << cpu, k, 1, &h };
	struct process *server = process_spawn(&sa, &err);
	if (server && pong_prio)
		sched_setscheduler(server->thread, pong_prio);
	struct spawn_args ca = { "ping", 3, ping_argv, NULL, false, 1UL << cpu, k, 1, &h };
	struct process *client = server ? process_spawn(&ca, &err) : NULL;
	int status = client ? process_wait(client) : -1;
	if (server && !client)
		process_kill(server->pid, SIGKILL);
	if (server)
		process_wait(server);
	user_quiet_end();
	ipc_state_destroy(k);
	res.ok = client && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	res.fast = stat_sum(ipc_fastpath) - fast0;
	res.messages = stat_sum(ipc_messages) - msg0;
	return res;
}

static bool have_programs(struct ktest *t)
{
	return user_have(t, "ping") && user_have(t, "pong");
}

static u32 pick_cpu(struct prandom_state *rs)
{
	return prandom_below(rs, lab_cpu_x() + 1);
}

static void same_cpu_calls_take_the_fast_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 calls = 100 + prandom_below(&rs, 200), cpu = pick_cpu(&rs);
		struct pp_result r = pingpong(cpu, calls, "bytes=0", 0);
		/* 2 per call, less the first call and reply (pong's first recv
		 * waits on the slow path) and now and then a tick's request. */
		bool ok = r.ok && r.fast >= 2 * calls * 9 / 10;
		if (!ok)
			lab_fail(t, "seed %llu: %u calls with no payload, ping and pong on CPU %u, "
				   "one priority: %llu of %llu messages by the fast path (expected at "
				   "least %u)%s", (unsigned long long)seed, calls, cpu,
				   (unsigned long long)r.fast, (unsigned long long)r.messages,
				   2 * calls * 9 / 10, r.ok ? "" : "; ping failed: a reply was wrong");
	}
}

static void payload_takes_the_slow_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		u32 calls = 50 + prandom_below(&rs, 100), cpu = pick_cpu(&rs);
		u32 bytes = 1 + prandom_below(&rs, IPC_BUF_MAX);
		char arg[24];
		snprintf(arg, sizeof(arg), "bytes=%u", bytes);
		struct pp_result r = pingpong(cpu, calls, arg, 0);
		/* ping's probe, pong's answer to it and ping's quit carry none. */
		bool ok = r.ok && r.fast <= 3;
		if (!ok)
			lab_fail(t, "seed %llu: %u calls of %u bytes on CPU %u: %llu of %llu messages "
				   "by the fast path (expected at most 3: it moves no payload)%s",
				   (unsigned long long)seed, calls, bytes, cpu, (unsigned long long)r.fast,
				   (unsigned long long)r.messages,
				   r.ok ? "" : "; ping failed: a reply was wrong");
	}
}

static void lower_priority_partner_takes_the_slow_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 3);
		for (int fifo_ping = 0; fifo_ping < 2; fifo_ping++) {
			u32 calls = 100 + prandom_below(&rs, 200), cpu = pick_cpu(&rs);
			int prio = 1 + (int)prandom_below(&rs, 99);
			char arg[16];
			snprintf(arg, sizeof(arg), fifo_ping ? "prio=%d" : "bytes=0", prio);
			struct pp_result r = pingpong(cpu, calls, arg, fifo_ping ? 0 : prio);
			/* One way only: the calls (FIFO pong) or the replies (FIFO ping). */
			bool ok = r.ok && r.fast >= calls * 8 / 10 && r.fast <= calls + 3;
			if (!ok)
				lab_fail(t, "seed %llu: %u calls on CPU %u, %s FIFO %d, the other "
					   "normal: %llu of %llu messages by the fast path (expected "
					   "%u..%u: those to the FIFO side only)%s",
					   (unsigned long long)seed, calls, cpu, fifo_ping ? "ping" : "pong",
					   prio, (unsigned long long)r.fast, (unsigned long long)r.messages,
					   calls * 8 / 10, calls + 3,
					   r.ok ? "" : "; ping failed: a reply was wrong");
		}
	}
}

LAB_SUITE(lab_l5,
	KTEST_CASE_TIMED(same_cpu_calls_take_the_fast_path, 50),
	KTEST_CASE_TIMED(payload_takes_the_slow_path, 50),
	KTEST_CASE_TIMED(lower_priority_partner_takes_the_slow_path, 50));
