/* bench ipc [calls=N]: the IPC call+reply round trip between two user
 * processes, user/ping.c calling the echo server user/pong.c N times
 * (default 10000), each pinned to a CPU: both on CPU 0 (with no payload,
 * the fast path, ipc/fastpath.c; with one, the slow path's handoff), then
 * on CPUs 0 and 1 (the slow path: every message a cross-CPU wake-up, with
 * its RESCHEDULE IPI and fold), each with no payload and with 64 bytes.
 * The figure is ping's own, from clock_gettime(); beside it, from the
 * kernel's counters over the run, how many messages took the fast path
 * and the slow path's handoff and how many folds there were per message.
 * Then the notification ping-pong (user/sigpp.c), one CPU and two: the
 * signal-to-wake time. One line per case:
 *   BENCH ipc model=.. mode=.. smp=.. clock=.. test=call placement=same|cross
 *         bytes=B calls=N ns_per_call=X messages=M fastpath=F handoff=H
 *         folds_per_msg=P
 *   BENCH ipc ... test=notify placement=same|cross rounds=N ns_per_signal=X
 *         folds_per_signal=P */
#include "bench/bench.h"
#include "process/process.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "ipc/ipc.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "lib/format.h"
#include "lib/string.h"

static u64 sum_stat(size_t offset)
{
	u64 s = 0;
	for_each_online_cpu(c)
		s += *(const u64 *)((const char *)&per_cpu(stats, c) + offset);
	return s;
}
#define STAT(field) sum_stat(__builtin_offsetof(struct cpu_stats, field))

static int one(u64 calls, u32 ping_cpu, u32 pong_cpu, u32 bytes)
{
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	struct endpoint *ep = k ? endpoint_create() : NULL;
	if (!ep) {
		console_printf("bench ipc: out of memory\n");
		if (k)
			ipc_state_destroy(k);
		return -1;
	}
	int h = handle_install(k, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV);
	char c[32], b[32], ns[32], ctx[128];
	snprintf(c, sizeof(c), "calls=%llu", (unsigned long long)calls);
	snprintf(b, sizeof(b), "bytes=%u", bytes);
	const char *pong_argv[] = { "pong" }, *ping_argv[] = { "ping", c, b };
	struct spawn_args sa = { "pong", 1, pong_argv, NULL, false, 1UL << pong_cpu, k, 1, &h };
	struct spawn_args ca = { "ping", 3, ping_argv, NULL, false, 1UL << ping_cpu, k, 1, &h };
	u64 msgs0 = STAT(ipc_messages), fast0 = STAT(ipc_fastpath), folds0 = STAT(folds);
	u64 hand0 = STAT(ipc_handoff);
	int err = 0;
	struct process *server = process_spawn(&sa, &err);
	int r = server ? bench_run_quiet(&ca) : -1;
	if (!server)
		console_printf("bench ipc: cannot start pong (error %d): is it in this ISO?\n", err);
	else if (r) /* ping failed: pong waits for a call that will not come */
		process_kill(server->pid, SIGKILL);
	if (server)
		process_wait(server);
	u64 msgs = STAT(ipc_messages) - msgs0, fast = STAT(ipc_fastpath) - fast0;
	u64 hand = STAT(ipc_handoff) - hand0;
	u64 folds = STAT(folds) - folds0;
	ipc_state_destroy(k);
	if (r)
		return -1;
	if (!bench_out_field("bytes: ", ns, sizeof(ns))) {
		console_printf("bench ipc: no figure in ping's output: %s\n", bench_out);
		return -1;
	}
	char per[24];
	fmt_centi(per, sizeof(per), msgs ? folds * 100 / msgs : 0);
	const char *where = ping_cpu == pong_cpu ? "same" : "cross";
	bench_context(ctx, sizeof(ctx));
	console_printf("bench ipc: %s CPU%s, %u bytes: %s ns per call+reply (%llu messages, "
		       "%llu by the fast path, %llu by the slow path's handoff, %s folds per message)\n",
		       ping_cpu == pong_cpu ? "one" : "across", ping_cpu == pong_cpu ? "" : "s", bytes,
		       ns, (unsigned long long)msgs, (unsigned long long)fast,
		       (unsigned long long)hand, per);
	console_printf("BENCH ipc %s test=call placement=%s bytes=%u calls=%llu ns_per_call=%s messages=%llu "
		       "fastpath=%llu handoff=%llu folds_per_msg=%s\n", ctx, where, bytes,
		       (unsigned long long)calls, ns, (unsigned long long)msgs,
		       (unsigned long long)fast, (unsigned long long)hand, per);
	return 0;
}

/* The notification ping-pong (user/sigpp.c): A signals n1 and waits on
 * n2, B the other way round. */
static int notify_one(u64 rounds, u32 a_cpu, u32 b_cpu)
{
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	struct notification *n1 = k ? notification_create() : NULL;
	struct notification *n2 = n1 ? notification_create() : NULL;
	if (!n2) {
		console_printf("bench ipc: out of memory\n");
		if (n1)
			kobject_put(&n1->obj);
		if (k)
			ipc_state_destroy(k);
		return -1;
	}
	int h1 = handle_install(k, &n1->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	int h2 = handle_install(k, &n2->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	int ha[] = { h1, h2 }, hb[] = { h2, h1 };
	char r[32], ns[32], ctx[128];
	snprintf(r, sizeof(r), "rounds=%llu", (unsigned long long)rounds);
	const char *bv[] = { "sigpp", r }, *av[] = { "sigpp", r, "measure" };
	struct spawn_args sb = { "sigpp", 2, bv, NULL, false, 1UL << b_cpu, k, 2, hb };
	struct spawn_args sa = { "sigpp", 3, av, NULL, false, 1UL << a_cpu, k, 2, ha };
	u64 folds0 = STAT(folds);
	int err = 0;
	struct process *b = process_spawn(&sb, &err);
	int ret = b ? bench_run_quiet(&sa) : -1;
	if (!b)
		console_printf("bench ipc: cannot start sigpp (error %d): is it in this ISO?\n", err);
	else if (ret)
		process_kill(b->pid, SIGKILL);
	if (b)
		process_wait(b);
	u64 folds = STAT(folds) - folds0;
	ipc_state_destroy(k);
	if (ret)
		return -1;
	if (!bench_out_field("rounds: ", ns, sizeof(ns))) {
		console_printf("bench ipc: no figure in sigpp's output: %s\n", bench_out);
		return -1;
	}
	char per[24];
	fmt_centi(per, sizeof(per), folds * 100 / (2 * rounds));
	const char *where = a_cpu == b_cpu ? "same" : "cross";
	bench_context(ctx, sizeof(ctx));
	console_printf("bench ipc: notification, %s: %s ns per signal-to-wake (%s folds per signal)\n",
		       a_cpu == b_cpu ? "one CPU" : "across CPUs", ns, per);
	console_printf("BENCH ipc %s test=notify placement=%s rounds=%llu ns_per_signal=%s folds_per_signal=%s\n",
		       ctx, where, (unsigned long long)rounds, ns, per);
	return 0;
}

int bench_ipc(int argc, char **argv)
{
	u64 calls = 10000;
	struct bench_opt opts[] = { BENCH_IPC_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("ipc", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	static const u32 sizes[] = { 0, 64 };
	for (u32 cross = 0; cross < (nr_cpus_online > 1 ? 2U : 1U); cross++)
		for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
			if (one(calls, 0, cross, sizes[i]))
				return -1;
	for (u32 cross = 0; cross < (nr_cpus_online > 1 ? 2U : 1U); cross++)
		if (notify_one(calls, 0, cross))
			return -1;
	return 0;
}
