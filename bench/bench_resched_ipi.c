/* bench throughput's resched_ipi: threads on CPUs 0 and 1 ask each other
 * to reschedule, in turn: resched_curr() on the other CPU sets its
 * thread's TIF_NEED_RESCHED and sends the RESCHEDULE IPI; that thread
 * sees the request arrive, honours it (full mode: the IPI's IRQ exit did;
 * none/voluntary: schedule() here), and asks back. ns per round trip.
 *
 * Every wait is bounded. The two threads meet before the first request
 * (a thread that started late would otherwise miss it and both would wait
 * for each other forever), and each request is also announced in a
 * counter, so that a request that sent no IPI (the target's flag was
 * still set: resched_curr() then sends none) is seen too, and counted. */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "lib/format.h"

#define WAIT_NS NSEC_PER_SEC    /* for the partner, a request, its IPI */

static struct {
	u64 rounds;
	volatile int stop;
	volatile int ready[2];
	volatile u64 asked[2];      /* requests sent to CPU i so far */
	volatile u64 asked_ipi[2];  /* ... and how many of them sent an IPI */
	u64 ticks;                  /* CPU 0's rounds, in TSC ticks */
	u64 done;                   /* CPU 0's rounds completed */
	u64 without_ipi;            /* requests that found the flag set */
	const char *why;            /* the wait that ran out, or NULL */
	u32 why_cpu;
	u64 why_round;
} ipi;

static void give_up(u32 me, u64 round, const char *why)
{
	if (!ipi.why) {
		ipi.why = why;
		ipi.why_cpu = me;
		ipi.why_round = round;
	}
	ipi.stop = 1;
}

/* Spin until *p >= want, another thread gave up, or WAIT_NS pass. */
static bool wait_for(volatile u64 *p, u64 want)
{
	u64 end = ktime_get_ns() + WAIT_NS;
	while (*p < want) {
		if (ipi.stop || ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

static void ask(u32 other)
{
	struct cpu_stats *mine = &this_cpu_ptr()->stats;
	u64 sent = mine->resched_ipi_sent;
	resched_curr(other);
	if (mine->resched_ipi_sent != sent)
		ipi.asked_ipi[other]++;
	else
		__atomic_fetch_add(&ipi.without_ipi, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&ipi.asked[other], ipi.asked[other] + 1, __ATOMIC_RELEASE);
}

static void ipi_thread(void *arg)
{
	u32 me = (u32)(u64)arg, other = 1 - me;
	volatile u64 *received = &per_cpu(stats.resched_ipi_received, me);
	u64 base = *received; /* IPIs this CPU's handler counts from here */
	/* Meet the partner: both running, both counting from here. */
	ipi.ready[me] = 1;
	u64 end = ktime_get_ns() + WAIT_NS;
	while (!ipi.ready[other] && !ipi.stop && ktime_get_ns() < end)
		cpu_relax();
	if (!ipi.ready[other]) {
		give_up(me, 0, "the other CPU's thread did not start");
		return;
	}
	u64 t0 = rdtsc();
	if (me == 0)
		ask(other);
	for (u64 i = 0; i < ipi.rounds && !ipi.stop; i++) {
		if (!wait_for(&ipi.asked[me], i + 1)) {
			give_up(me, i, "no request arrived");
			break;
		}
		/* And its IPI, if it sent one: the handler counts it. */
		if (!wait_for(received, base + ipi.asked_ipi[me])) {
			give_up(me, i, "a request's RESCHEDULE IPI did not arrive");
			break;
		}
		if (need_resched())
			schedule(); /* none/voluntary: honour and clear it */
		if (me == 1 || i + 1 < ipi.rounds)
			ask(other);
		if (me == 0)
			ipi.done = i + 1;
	}
	if (me == 0)
		ipi.ticks = rdtsc() - t0;
}

int bench_resched_ipi(const char *ctx, u64 rounds)
{
	char a[32];
	ipi.rounds = rounds;
	ipi.stop = 0;
	ipi.ready[0] = ipi.ready[1] = 0;
	ipi.asked[0] = ipi.asked[1] = 0;
	ipi.asked_ipi[0] = ipi.asked_ipi[1] = 0;
	ipi.done = ipi.without_ipi = 0;
	ipi.why = NULL;
	struct thread *t1 = thread_create(ipi_thread, (void *)1UL, "ipi-1", 50, 1UL << 1);
	struct thread *t0 = t1 ? thread_create(ipi_thread, (void *)0UL, "ipi-0", 50, 1UL << 0) : NULL;
	if (!t0) {
		console_printf("  resched_ipi: cannot start its threads: no kernel stack or memory left\n");
		ipi.stop = 1;
		if (t1)
			thread_join(t1);
		return -1;
	}
	thread_join(t0);
	ipi.stop = 1;
	thread_join(t1);
	if (ipi.why) {
		console_printf("  resched_ipi: stopped after %llu of %llu round trips: CPU %u: %s "
			       "within %llu ms (round %llu)\n",
			       (unsigned long long)ipi.done, (unsigned long long)rounds, ipi.why_cpu,
			       ipi.why, (unsigned long long)(WAIT_NS / NSEC_PER_MSEC),
			       (unsigned long long)ipi.why_round);
		return -1;
	}
	fmt_centi(a, sizeof(a), bench_ns_x100(ipi.ticks, rounds));
	console_printf("  resched_ipi (CPU 0 <-> CPU 1): %s ns per round trip "
		       "(%llu of %llu requests found a request pending and sent no IPI)\n",
		       a, (unsigned long long)ipi.without_ipi, (unsigned long long)(2 * rounds));
	console_printf("BENCH throughput %s test=resched_ipi cpus=0,1 roundtrips=%llu ns_per_roundtrip=%s\n",
		       ctx, (unsigned long long)rounds, a);
	return 0;
}
