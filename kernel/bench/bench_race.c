/* bench race: what the article's first idea loses. A thread on CPU 1
 * updates its preempt count as fast as it can (preempt_disable/enable:
 * unlocked incl/decl); CPU 0 asks CPU 1 to reschedule `rounds` times,
 * waiting for each RESCHEDULE IPI to arrive. With COUNT=racy, CPU 0 clears
 * CPU 1's bit 31 itself with a locked and, and an incl/decl that spans it
 * writes the bit back: the IPI handler finds the request lost and counts
 * it (stats.lost_resched). With folded, only CPU 1 ever writes its count,
 * so nothing can be lost: the same run reports 0. Under -icount QEMU never
 * interleaves two vCPUs inside one instruction, so losses show only with
 * plain TCG's parallel vCPU threads (or real hardware). */
#include "kernel/bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"

static volatile int race_stop;

static void hammer(void *arg)
{
	(void)arg;
	while (!READ_ONCE(race_stop)) {
		for (int i = 0; i < 64; i++) {
			preempt_disable();
			preempt_enable();
		}
		if (need_resched())
			schedule(); /* none/voluntary: clear the request */
	}
}

int bench_race(int argc, char **argv)
{
	u64 rounds = 20000;
	struct bench_opt opts[] = { BENCH_RACE_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("race", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	if (nr_cpus_online < 2) {
		console_printf("bench race: needs 2 CPUs\n");
		return -1;
	}
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	race_stop = 0;
	struct thread *h = thread_create(hammer, NULL, "hammer", PRIO_NORMAL, 1UL << 1);
	sleep_ns(NSEC_PER_MSEC);
	u64 lost0 = per_cpu(stats.lost_resched, 1);
	u64 sent = 0, timeouts = 0, pending = 0;
	for (u64 i = 0; i < rounds; i++) {
		u64 recv = READ_ONCE(per_cpu(stats.resched_ipi_received, 1));
		preempt_disable();
		u64 before = this_cpu_ptr()->stats.resched_ipi_sent;
		resched_curr(1);
		bool ipi = this_cpu_ptr()->stats.resched_ipi_sent != before;
		preempt_enable();
		if (!ipi) {
			pending++; /* CPU 1 had not taken the last one yet: no new IPI */
			continue;
		}
		sent++;
		u64 end = ktime_get_ns() + 10 * NSEC_PER_MSEC;
		while (READ_ONCE(per_cpu(stats.resched_ipi_received, 1)) == recv) {
			if (ktime_get_ns() > end) {
				timeouts++;
				break;
			}
			cpu_relax();
		}
	}
	race_stop = 1;
	thread_join(h);
	u64 lost = per_cpu(stats.lost_resched, 1) - lost0;
	console_printf("bench race: %llu reschedule requests to CPU 1 (%llu IPIs) while it updates its count: %llu lost (%s)\n",
		       (unsigned long long)rounds, (unsigned long long)sent, (unsigned long long)lost, ctx);
	console_printf("BENCH race %s rounds=%llu ipis=%llu lost=%llu pending=%llu timeouts=%llu\n", ctx,
		       (unsigned long long)rounds, (unsigned long long)sent, (unsigned long long)lost,
		       (unsigned long long)pending, (unsigned long long)timeouts);
	return 0;
}
