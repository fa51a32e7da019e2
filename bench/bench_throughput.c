/* bench throughput:
 *  preempt_heavy  per CPU, in parallel: operations of W instructions of
 *                 work inside p preempt_disable()/preempt_enable() pairs
 *                 and a per-CPU counter update, plus a short spinlock
 *                 section every `lock_every` operations; ns per operation
 *                 and operations per second, per CPU
 *  ctxsw_same     two threads on one CPU passing the turn back and forth
 *                 (completions: each passes it and waits for it back in
 *                 one complete_and_wait()): ns per round trip
 *  ctxsw_cross    the same across CPUs 0 and 1
 *  resched_ipi    CPU 0 asks CPU 1 to reschedule, CPU 1's thread sees the
 *                 request and asks back: ns per round trip
 * Under clock=icount, cross-CPU figures are path lengths: QEMU runs the
 * vCPUs one at a time and the IPI itself costs no virtual time. */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "arch/x86_64/cpu.h"
#include "lib/format.h"

/* W instructions of work: a counted loop of 2 instructions per turn
 * (dec, jnz), so W/2 turns. */
static __always_inline void work(u64 w)
{
	u64 n = w / 2;
	if (n)
		__asm__ __volatile__("1: dec %0\n\tjnz 1b" : "+r"(n)::"cc");
}

struct heavy {
	u64 ops, w, p, lock_every;
	u64 ticks;
	struct thread *th;
};
static raw_spinlock_t heavy_locks[MAX_CPUS];
static volatile int heavy_go;

static void heavy_thread(void *arg)
{
	struct heavy *h = arg;
	raw_spinlock_t *lock = &heavy_locks[current_thread()->cpu];
	while (!READ_ONCE(heavy_go))
		cpu_relax();
	u64 t0 = rdtsc();
	for (u64 i = 0; i < h->ops; i++) {
		for (u64 k = 1; k < h->p; k++)
			preempt_disable();
		preempt_disable();
		this_cpu_inc(probe_scratch);
		work(h->w);
		preempt_enable();
		for (u64 k = 1; k < h->p; k++)
			preempt_enable();
		if (h->lock_every && i % h->lock_every == 0) {
			raw_spin_lock(lock);
			this_cpu_inc(probe_scratch);
			raw_spin_unlock(lock);
		}
	}
	h->ticks = rdtsc() - t0;
}

/* 0, or -1 if a thread could not be made (no kernel stack or memory). */
static int preempt_heavy(const char *ctx, u64 ops, u64 w, u64 p, u64 lock_every)
{
	u32 n = nr_cpus_online;
	static struct heavy h[MAX_CPUS];
	char a[32];
	bool missing = false;
	heavy_go = 0;
	for (u32 c = 0; c < n; c++) {
		raw_spin_lock_init(&heavy_locks[c], "heavy");
		h[c] = (struct heavy){ missing ? 0 : ops, w, p, lock_every, 0, NULL };
		h[c].th = missing ? NULL : thread_create(heavy_thread, &h[c], "heavy", PRIO_NORMAL, 1UL << c);
		missing |= !h[c].th;
	}
	if (missing) /* those made do nothing and end */
		for (u32 c = 0; c < n; c++)
			h[c].ops = 0;
	heavy_go = 1;
	for (u32 c = 0; c < n; c++)
		if (h[c].th)
			thread_join(h[c].th);
	if (missing) {
		console_printf("  preempt_heavy: cannot start its threads: no kernel stack or memory left\n");
		return -1;
	}
	console_printf("  preempt_heavy: W=%llu instructions of work, p=%llu preempt pairs per operation, a spinlock every %llu\n",
		       (unsigned long long)w, (unsigned long long)p, (unsigned long long)lock_every);
	for (u32 c = 0; c < n; c++) {
		u64 x100 = bench_ns_x100(h[c].ticks, ops);
		u64 ns = tsc_to_ns(h[c].ticks);
		u64 per_sec = ns ? ops * NSEC_PER_SEC / ns : 0;
		fmt_centi(a, sizeof(a), x100);
		console_printf("    CPU %u: %s ns per operation, %llu operations per second\n", c, a,
			       (unsigned long long)per_sec);
		console_printf("BENCH throughput %s test=preempt_heavy cpu=%u W=%llu p=%llu ops=%llu ns_per_op=%s ops_per_sec=%llu\n",
			       ctx, c, (unsigned long long)w, (unsigned long long)p, (unsigned long long)ops,
			       a, (unsigned long long)per_sec);
	}
	return 0;
}

struct pingpong {
	struct completion turn[2];
	u64 rounds;
	u64 ticks;
};

static struct pingpong pp;

static void pp_a(void *arg)
{
	(void)arg;
	u64 t0 = rdtsc();
	for (u64 i = 0; i < pp.rounds; i++)
		complete_and_wait(&pp.turn[1], &pp.turn[0]);
	pp.ticks = rdtsc() - t0;
}

static void pp_b(void *arg)
{
	(void)arg;
	if (!pp.rounds)
		return;
	wait_for_completion(&pp.turn[1]);
	for (u64 i = 1; i < pp.rounds; i++)
		complete_and_wait(&pp.turn[0], &pp.turn[1]);
	complete(&pp.turn[0]);
}

/* 0, or -1 if a thread could not be made (no kernel stack or memory). */
static int ctxsw(const char *ctx, const char *name, u32 cpu_a, u32 cpu_b, u64 rounds)
{
	char a[32];
	init_completion(&pp.turn[0]);
	init_completion(&pp.turn[1]);
	pp.rounds = rounds;
	struct thread *tb = thread_create(pp_b, NULL, "pp-b", PRIO_NORMAL, 1UL << cpu_b);
	struct thread *ta = tb ? thread_create(pp_a, NULL, "pp-a", PRIO_NORMAL, 1UL << cpu_a) : NULL;
	if (!ta) {
		console_printf("  %s: cannot start its threads: no kernel stack or memory left\n", name);
		if (tb) { /* B ends after the wait it is in */
			pp.rounds = 0;
			complete(&pp.turn[1]);
			thread_join(tb);
		}
		return -1;
	}
	thread_join(ta);
	thread_join(tb);
	fmt_centi(a, sizeof(a), bench_ns_x100(pp.ticks, rounds));
	console_printf("  %s (CPU %u <-> CPU %u): %s ns per round trip\n", name, cpu_a, cpu_b, a);
	console_printf("BENCH throughput %s test=%s cpus=%u,%u roundtrips=%llu ns_per_roundtrip=%s\n",
		       ctx, name, cpu_a, cpu_b, (unsigned long long)rounds, a);
	return 0;
}

int bench_throughput(int argc, char **argv)
{
	u64 ops = 200000, W = 100, p = 1, lock_every = 0, rounds = 10000;
	struct bench_opt opts[] = { BENCH_THROUGHPUT_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("throughput", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench throughput (%s)\n", ctx);
	int r = preempt_heavy(ctx, ops, W, p, lock_every);
	r |= ctxsw(ctx, "ctxsw_same", 0, 0, rounds);
	if (nr_cpus_online >= 2) {
		r |= ctxsw(ctx, "ctxsw_cross", 0, 1, rounds);
		bench_resched_ipi(ctx, rounds);
	} else {
		console_printf("  ctxsw_cross, resched_ipi: need 2 CPUs\n");
	}
	return r ? -1 : 0;
}
