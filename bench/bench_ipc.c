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
#include "kernel/locking/lock_stat.h"
#include "process/syscall.h"
#include "uapi/errno.h"

static u64 sum_stat(size_t offset)
{
	u64 s = 0;
	for_each_online_cpu(c)
		s += *(const u64 *)((const char *)&per_cpu(stats, c) + offset);
	return s;
}
#define STAT(field) sum_stat(__builtin_offsetof(struct cpu_stats, field))

const char *const bench_ipc_tests[3] = BENCH_IPC_TEST_WORDS; /* IPC_TEST_* */

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

/* The earliest start and the latest end of the pings' "ping: window T0 T1"
 * lines in bench_out; false if fewer than n lines. */
static bool pings_window(u32 n, u64 *t0, u64 *t1)
{
	const char *s = bench_out;
	u32 seen = 0;
	*t0 = ~0UL;
	*t1 = 0;
	while ((s = strstr(s, "ping: window ")) != NULL) {
		s += strlen("ping: window ");
		u64 v[2] = { 0, 0 };
		for (int i = 0; i < 2; i++) {
			while (*s >= '0' && *s <= '9')
				v[i] = v[i] * 10 + (u64)(*s++ - '0');
			if (*s == ' ')
				s++;
		}
		*t0 = v[0] < *t0 ? v[0] : *t0;
		*t1 = v[1] > *t1 ? v[1] : *t1;
		seen++;
	}
	return seen >= n && *t1 > *t0;
}

/* The lock class that waited most between two lock_stat snapshots. */
static const char *top_class(const struct lock_class_stat *a, u32 na,
			     const struct lock_class_stat *b, u32 nb, u64 *count)
{
	const char *top = "none";
	*count = 0;
	for (u32 i = 0; i < nb; i++) {
		u64 was = 0;
		for (u32 j = 0; j < na; j++)
			if (!strcmp(a[j].name, b[i].name))
				was = a[j].contentions;
		if (b[i].contentions - was > *count) {
			*count = b[i].contentions - was;
			top = b[i].name;
		}
	}
	return top;
}

static struct lock_class_stat stat_before[LOCK_STAT_CLASSES], stat_after[LOCK_STAT_CLASSES];

/* n independent client/server pairs, pair k's ping and pong both pinned
 * to CPU k, each on its own endpoint: nothing is shared but the kernel's
 * locks. The figure is every pair's round trips against the virtual time
 * from the first ping's start to the last one's end. Under icount the
 * vCPUs take turns on one instruction clock, so that time over all round
 * trips is the instructions per round trip summed over the CPUs: one
 * pair's figure if the pairs share nothing, more by every spin on a
 * shared lock. Beside it, lock_stat's contended acquisitions
 * (kernel/locking/lock_stat.h) per message over the run. */
static int pairs_one(u64 calls, u32 n)
{
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	struct process *server[MAX_CPUS], *client[MAX_CPUS];
	int h[MAX_CPUS];
	u32 started = 0, clients = 0;
	int r = k ? 0 : -1;
	char c[32], ctx[128];
	snprintf(c, sizeof(c), "calls=%llu", (unsigned long long)calls);
	const char *pong_argv[] = { "pong" }, *ping_argv[] = { "ping", c, "window=1" };
	for (u32 i = 0; i < n && !r; i++) {
		struct endpoint *ep = endpoint_create();
		h[i] = ep ? handle_install(k, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV) : -ENOMEM;
		if (h[i] < 0) {
			if (ep)
				kobject_put(&ep->obj);
			r = -1;
		}
	}
	for (u32 i = 0; i < n && !r; i++) {
		struct spawn_args sa = { "pong", 1, pong_argv, NULL, false, 1UL << i, k, 1, &h[i] };
		int err = 0;
		server[i] = process_spawn(&sa, &err);
		if (!server[i]) {
			console_printf("bench ipc: cannot start pong (error %d)\n", err);
			r = -1;
		} else {
			started++;
		}
	}
	u64 msgs0 = STAT(ipc_messages), cont0 = lock_stat_total();
	u32 nbefore = lock_stat_snapshot(stat_before, LOCK_STAT_CLASSES);
	struct printk_capture cap = { bench_out, sizeof(bench_out), 0, true };
	bench_out[0] = 0;
	user_write_capture = &cap;
	for (u32 i = 0; i < n && !r; i++) {
		struct spawn_args ca = { "ping", 3, ping_argv, NULL, false, 1UL << i, k, 1, &h[i] };
		int err = 0;
		client[i] = process_spawn(&ca, &err);
		if (!client[i]) {
			console_printf("bench ipc: cannot start ping (error %d)\n", err);
			r = -1;
		} else {
			clients++;
		}
	}
	for (u32 i = 0; i < clients; i++) {
		int status = process_wait(client[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			r = -1;
	}
	user_write_capture = NULL;
	u64 msgs = STAT(ipc_messages) - msgs0, cont = lock_stat_total() - cont0;
	u64 top_n;
	u32 nafter = lock_stat_snapshot(stat_after, LOCK_STAT_CLASSES);
	const char *top = top_class(stat_before, nbefore, stat_after, nafter, &top_n);
	for (u32 i = clients; i < started; i++) /* no ping: pong waits on */
		process_kill(server[i]->pid, SIGKILL);
	for (u32 i = 0; i < started; i++)
		process_wait(server[i]);
	if (k)
		ipc_state_destroy(k);
	u64 t0, t1;
	if (!r && !pings_window(n, &t0, &t1)) {
		console_printf("bench ipc: no window in the pings' output: %s\n", bench_out);
		r = -1;
	}
	if (r) {
		console_printf("bench ipc: %u pairs failed: %s\n", n, bench_out);
		return -1;
	}
	u64 trips = calls * n;
	char per[24], cper[24];
	fmt_centi(per, sizeof(per), (t1 - t0) * 100 / trips);
	fmt_ratio(cper, sizeof(cper), cont, msgs ? msgs : 1, 4);
	bench_context(ctx, sizeof(ctx));
	console_printf("bench ipc: %u pair%s, one per CPU: %llu round trips in %llu ns, %s ns per "
		       "round trip over all CPUs (%llu messages, %llu contended lock acquisitions, "
		       "%s per message, most: %s %llu)\n", n, n == 1 ? "" : "s",
		       (unsigned long long)trips, (unsigned long long)(t1 - t0), per,
		       (unsigned long long)msgs, (unsigned long long)cont, cper, top,
		       (unsigned long long)top_n);
	console_printf("BENCH ipc %s test=pairs pairs=%u calls=%llu round_trips=%llu ns=%llu "
		       "ns_per_round_trip=%s messages=%llu contended=%llu contended_per_msg=%s "
		       "top_class=%s top_contended=%llu\n", ctx, n, (unsigned long long)calls,
		       (unsigned long long)trips, (unsigned long long)(t1 - t0), per,
		       (unsigned long long)msgs, (unsigned long long)cont, cper, top,
		       (unsigned long long)top_n);
	return 0;
}

/* 1, 2, 4 ... pairs, and as many as there are CPUs. */
static int pairs_all(u64 calls)
{
	for (u32 n = 1; n < nr_cpus_online; n *= 2)
		if (pairs_one(calls, n))
			return -1;
	return pairs_one(calls, nr_cpus_online);
}

int bench_ipc(int argc, char **argv)
{
	u64 calls = 10000, test = IPC_TEST_ALL;
	struct bench_opt opts[] = { BENCH_IPC_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("ipc", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	if (test == IPC_TEST_PAIRS)
		return pairs_all(calls);
	static const u32 sizes[] = { 0, 64 };
	for (u32 cross = 0; cross < (nr_cpus_online > 1 ? 2U : 1U); cross++)
		for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
			if (one(calls, 0, cross, sizes[i]))
				return -1;
	for (u32 cross = 0; cross < (nr_cpus_online > 1 ? 2U : 1U); cross++)
		if (notify_one(calls, 0, cross))
			return -1;
	return test == IPC_TEST_ALL ? pairs_all(calls) : 0;
}
