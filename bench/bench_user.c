/* The user-space benchmarks: each runs a user program (user/) and reports
 * the figure that program measured with clock_gettime(); under icount
 * every figure is an instruction count.
 *
 *   bench syscall  the null system call: getpid's round trip from ring 3
 *                  (user/getpid_bench.c), entry, table, exit_to_user_mode
 *                  and SYSRET included
 *   bench userlat  timer wake-up latency of a user thread sleeping in
 *                  clock_nanosleep (user/cyclictest.c), idle or beside a
 *                  user-space hog (user/spin.c) on the same CPU: compare
 *                  with `bench latency`, the same measure for a kernel
 *                  thread. The sleeper is SCHED_FIFO at prio= (default
 *                  90, as bench latency's measuring thread; 0: SCHED_OTHER,
 *                  which waits behind the hog for the tick's round-robin) */
#include "bench/bench.h"
#include "process/process.h"
#include "process/syscall.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "lib/format.h"
#include "lib/string.h"

char bench_out[4096];
#define out bench_out

int bench_run_quiet(const struct spawn_args *a)
{
	struct printk_capture cap = { out, sizeof(out), 0, true };
	out[0] = 0;
	user_write_capture = &cap;
	int err = 0;
	struct process *p = process_spawn(a, &err);
	int status = p ? process_wait(p) : -1;
	user_write_capture = NULL;
	if (!p)
		console_printf("bench: cannot start %s (error %d): is it in this ISO?\n", a->name, err);
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		console_printf("bench: %s failed (status 0x%x): %s\n", a->name, status, out);
	return p && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int run_quiet(int argc, const char **argv, u64 cpus)
{
	struct spawn_args a = { argv[0], argc, argv, NULL, false, cpus, NULL, 0, NULL };
	return bench_run_quiet(&a);
}

bool bench_out_field(const char *key, char *val, size_t size)
{
	const char *s = strstr(out, key);
	if (!s)
		return false;
	s += strlen(key);
	size_t n = 0;
	while (n + 1 < size && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.'))
		n++;
	memcpy(val, s, n);
	val[n] = 0;
	return n > 0;
}

int bench_syscall(int argc, char **argv)
{
	u64 calls = 100000;
	struct bench_opt opts[] = { BENCH_SYSCALL_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("syscall", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	char n[24], per[32], ctx[128];
	snprintf(n, sizeof(n), "%llu", (unsigned long long)calls);
	const char *av[] = { "getpid_bench", n };
	if (run_quiet(2, av, 0))
		return -1;
	if (!bench_out_field("ns, ", per, sizeof(per))) {
		console_printf("bench syscall: no figure in getpid_bench's output: %s\n", out);
		return -1;
	}
	bench_context(ctx, sizeof(ctx));
	console_printf("bench syscall: getpid from ring 3, %s calls: %s ns per round trip\n", n, per);
	console_printf("BENCH syscall %s calls=%s ns_per_call=%s\n", ctx, n, per);
	return 0;
}

const char *const bench_userlat_loads[2] = { "none", "hog" };

int bench_userlat(int argc, char **argv)
{
	u64 loops = 1000, interval = 1000, load = 0, prio = 90;
	struct bench_opt opts[] = { BENCH_USERLAT_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("userlat", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	u64 cpu0 = 1; /* the sleeper and its hog share CPU 0 */
	struct process *hog = NULL;
	if (load == 1) {
		const char *hv[] = { "spin" };
		struct spawn_args a = { "spin", 1, hv, NULL, false, cpu0, NULL, 0, NULL };
		int err = 0;
		user_write_capture = NULL;
		hog = process_spawn(&a, &err);
		if (!hog) {
			console_printf("bench userlat: cannot start the hog (spin): error %d\n", err);
			return -1;
		}
	}
	char l[32], iv[32], pr[24], mn[24], avg[24], mx[24], ctx[128];
	snprintf(l, sizeof(l), "loops=%llu", (unsigned long long)loops);
	snprintf(iv, sizeof(iv), "interval=%llu", (unsigned long long)interval);
	snprintf(pr, sizeof(pr), "prio=%llu", (unsigned long long)prio);
	const char *av[] = { "cyclictest", l, iv, pr };
	int r = run_quiet(4, av, cpu0);
	if (hog) {
		process_kill(hog->pid, SIGKILL);
		process_wait(hog);
	}
	if (r)
		return -1;
	if (!bench_out_field("min_ns=", mn, sizeof(mn)) || !bench_out_field("avg_ns=", avg, sizeof(avg)) ||
	    !bench_out_field("max_ns=", mx, sizeof(mx))) {
		console_printf("bench userlat: no figures in cyclictest's output: %s\n", out);
		return -1;
	}
	bench_context(ctx, sizeof(ctx));
	console_printf("bench userlat: user thread (%s %llu), clock_nanosleep every %llu us, load %s: "
		       "min %s avg %s max %s ns\n", prio ? "SCHED_FIFO" : "SCHED_OTHER",
		       (unsigned long long)prio, (unsigned long long)interval,
		       bench_userlat_loads[load], mn, avg, mx);
	console_printf("BENCH userlat %s load=%s prio=%llu loops=%llu min_ns=%s avg_ns=%s max_ns=%s\n",
		       ctx, bench_userlat_loads[load], (unsigned long long)prio,
		       (unsigned long long)loops, mn, avg, mx);
	return 0;
}
