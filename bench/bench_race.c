/* bench race: what the article's first idea loses. A thread on CPU 1
 * updates its preempt count as fast as it can (preempt_disable/enable:
 * unlocked incl/decl); CPU 0 asks CPU 1 to reschedule `rounds` times,
 * waiting for each RESCHEDULE IPI to arrive and for CPU 1 to take the
 * request (its flag clear again), so that the next one sends an IPI too. With COUNT=racy, CPU 0 clears
 * CPU 1's bit 31 itself with a locked and, and an incl/decl that spans it
 * writes the bit back: the IPI handler finds the request lost and counts
 * it (stats.lost_resched). With folded, only CPU 1 ever writes its count,
 * so nothing can be lost: the same run reports 0. Under -icount QEMU never
 * interleaves two vCPUs inside one instruction, so losses show only with
 * plain TCG's parallel vCPU threads (or real hardware). */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
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

/* A request is raced when it reached CPU 1 while the hammer was its
 * current thread: an IPI was sent and arrived. Fewer than this share of
 * the rounds raced (CPU 1 busy with something else, or its vCPU starved by
 * the host) and "0 lost" would mean nothing: the report says inconclusive. */
#define RACE_MIN_RACED_PERCENT 50

/* Has CPU 1 taken the last request (schedule() clears the flag)? */
static bool flag_clear(struct thread *h)
{
	return !(__atomic_load_n(&h->flags, __ATOMIC_RELAXED) & _TIF_NEED_RESCHED);
}

/* Wait, until end, for CPU 1 to take the RESCHEDULE IPI (its received
 * count moves past recv; recv = -1: no IPI to wait for) and then to clear
 * its thread's flag (schedule() does), so that the next request finds the
 * flag clear and sends an IPI of its own. False if the time ran out. */
static bool race_wait(u64 recv, struct thread *h, u64 end)
{
	while ((recv != (u64)-1 && READ_ONCE(per_cpu(stats.resched_ipi_received, 1)) == recv) ||
	       !flag_clear(h)) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

/* Wait, until end, for the hammer to be CPU 1's current thread. Right
 * after thread_create() CPU 1 may still be halted in its idle loop (a
 * busy host is slow to run a woken vCPU), and a tick's thread may hold it
 * for a moment later: without the wait, rounds would be spent in a few
 * microseconds on finding "another thread" and the run would test
 * nothing. False if the time ran out. */
static bool hammer_wait(struct thread *h, u64 end)
{
	while (rq_curr(1) != h) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

/* Each wait has 10 ms; the whole run has RACE_BUDGET_NS, so that a CPU 1
 * starved by a busy host ends the run (reported) instead of stretching it
 * to rounds x 10 ms. */
#define RACE_WAIT_NS (10 * NSEC_PER_MSEC)
#define RACE_BUDGET_NS (5 * NSEC_PER_SEC)

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
	if (!h) {
		console_printf("bench race: cannot start the hammer: no kernel stack or memory left\n");
		return -1;
	}
	sleep_ns(NSEC_PER_MSEC);
	u64 lost0 = per_cpu(stats.lost_resched, 1);
	u64 sent = 0, raced = 0, timeouts = 0, pending = 0, elsewhere = 0, done = 0;
	u64 budget_end = ktime_get_ns() + RACE_BUDGET_NS;
	for (; done < rounds && ktime_get_ns() < budget_end; done++) {
		/* The last request taken first (a timed-out one may still be
		 * pending): otherwise every later round finds the flag set and
		 * sends nothing, and the run tests nothing. */
		if (!race_wait((u64)-1, h, ktime_get_ns() + RACE_WAIT_NS)) {
			timeouts++;
			continue;
		}
		if (!hammer_wait(h, ktime_get_ns() + RACE_WAIT_NS)) {
			elsewhere++; /* CPU 1 ran another thread all along: nothing to race */
			continue;
		}
		u64 recv = READ_ONCE(per_cpu(stats.resched_ipi_received, 1));
		preempt_disable();
		u64 before = this_cpu_ptr()->stats.resched_ipi_sent;
		resched_curr(1);
		bool ipi = this_cpu_ptr()->stats.resched_ipi_sent != before;
		preempt_enable();
		if (!ipi) {
			pending++; /* set again since our look: no new IPI */
			continue;
		}
		sent++;
		if (race_wait(recv, h, ktime_get_ns() + RACE_WAIT_NS))
			raced++;
		else
			timeouts++;
	}
	race_stop = 1;
	thread_join(h);
	u64 lost = per_cpu(stats.lost_resched, 1) - lost0;
	bool conclusive = raced * 100 >= rounds * RACE_MIN_RACED_PERCENT;
	if (conclusive)
		console_printf("bench race: %llu reschedule requests to CPU 1 raced its count updates: %llu lost (%s)\n",
			       (unsigned long long)raced, (unsigned long long)lost, ctx);
	else
		console_printf("bench race: inconclusive: only %llu of %llu requests raced CPU 1's count updates "
			       "(%llu lost among them; %llu found CPU 1 running another thread for 10 ms, %llu no new IPI, "
			       "%llu no answer in 10 ms%s) (%s)\n",
			       (unsigned long long)raced, (unsigned long long)rounds, (unsigned long long)lost,
			       (unsigned long long)elsewhere, (unsigned long long)pending,
			       (unsigned long long)timeouts,
			       done < rounds ? "; out of time after 5 s: is the host busy?" : "", ctx);
	console_printf("BENCH race %s rounds=%llu done=%llu ipis=%llu raced=%llu lost=%llu pending=%llu elsewhere=%llu timeouts=%llu result=%s\n",
		       ctx, (unsigned long long)rounds, (unsigned long long)done, (unsigned long long)sent, (unsigned long long)raced,
		       (unsigned long long)lost, (unsigned long long)pending, (unsigned long long)elsewhere,
		       (unsigned long long)timeouts, conclusive ? "conclusive" : "inconclusive");
	return 0;
}
