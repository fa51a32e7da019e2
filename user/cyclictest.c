/* cyclictest [loops=N] [interval=US] [prio=P] [nsecs=1]: wake-up latency seen from ring 3,
 * by cyclictest's method (rt-tests): sleep with clock_nanosleep
 * (CLOCK_MONOTONIC, TIMER_ABSTIME) to deadlines interval microseconds
 * apart (default 1000, for 1000 loops); each wake-up's latency is the time
 * read right after it minus the deadline. prio=P (cyclictest's -p) runs
 * the thread SCHED_FIFO at priority P (1..99) first; 0, the default, keeps
 * SCHED_OTHER. Prints cyclictest's own summary line, byte for byte as
 * rt-tests 2.4 prints it (lib/cyclictest_fmt.h; microseconds, each sample
 * cut to whole microseconds first, or nanoseconds with nsecs=1, its -N),
 * then, on a line of its own, the nanosecond figures for the host harness:
 *
 *   T: 0 (   12) P: 0 I:1000 C:   1000 Min:     10 Act:   14 Avg:   15 Max:      80
 *   cyclictest: loops=1000 prio=0 min_ns=10230 avg_ns=15112 max_ns=80124
 *
 * What it shows: the kernel's `bench latency` measured again with a
 * system call and a return to user space in the path. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"
#include "lib/cyclictest_fmt.h"

#define NSEC_PER_SEC 1000000000L
#define NSEC_PER_USEC 1000L

static long ts_ns(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static struct timespec ns_ts(long ns)
{
	return (struct timespec){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
}

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: cyclictest [loops=N] [interval=US] [prio=P] [nsecs=0|1]  "
		"(N >= 1, US 1-1000000, P 0-99)\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long loops = 1000, interval = 1000, prio = 0, nsecs = 0;
	for (int i = 1; i < argc; i++) {
		int a = parse_option(argv[i], "loops", &loops);
		int b = a ? 0 : parse_option(argv[i], "interval", &interval);
		int p = a || b ? 0 : parse_option(argv[i], "prio", &prio);
		int n = a || b || p ? 0 : parse_option(argv[i], "nsecs", &nsecs);
		if (a < 0 || b < 0 || p < 0 || n < 0)
			return usage();
		if (!a && !b && !p && !n) {
			dprintf(STDERR_FILENO, "cyclictest: unknown option '%s'\n", argv[i]);
			return usage();
		}
	}
	if (loops == 0 || interval == 0 || interval > 1000000 || prio > SCHED_FIFO_PRIO_MAX ||
	    nsecs > 1)
		return usage();
	if (prio) {
		struct sched_param sp = { (int)prio };
		long r = sched_setscheduler(0, SCHED_FIFO, &sp);
		if (r) {
			dprintf(STDERR_FILENO, "cyclictest: sched_setscheduler(SCHED_FIFO, %lu) returned %ld\n",
				prio, r);
			return 1;
		}
	}

	struct timespec now;
	long min = 0, max = 0, act = 0, sum = 0;
	/* cyclictest's figures: each sample in the unit first (calcdiff()
	 * truncates to microseconds), the average of those truncated. */
	long unit = nsecs ? 1 : NSEC_PER_USEC, umin = 0, umax = 0, uact = 0, usum = 0;
	if (clock_gettime(CLOCK_MONOTONIC, &now)) {
		dprintf(STDERR_FILENO, "cyclictest: clock_gettime failed\n");
		return 1;
	}
	long deadline = ts_ns(&now);
	for (unsigned long c = 0; c < loops; c++) {
		deadline += (long)interval * NSEC_PER_USEC;
		struct timespec next = ns_ts(deadline);
		long r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (r || clock_gettime(CLOCK_MONOTONIC, &now)) {
			dprintf(STDERR_FILENO, "cyclictest: loop %lu: clock_nanosleep returned %ld\n",
				c, r);
			return 1;
		}
		act = ts_ns(&now) - deadline;
		if (c == 0 || act < min)
			min = act;
		if (c == 0 || act > max)
			max = act;
		sum += act;
		uact = act / unit;
		if (c == 0 || uact < umin)
			umin = uact;
		if (c == 0 || uact > umax)
			umax = uact;
		usum += uact;
	}
	long avg = sum / (long)loops;
	printf(nsecs ? CYCLICTEST_STAT_NS "\n" : CYCLICTEST_STAT_US "\n", 0, (int)gettid(),
	       (int)prio, (long)interval, loops, umin, uact, usum / (long)loops, umax);
	printf("cyclictest: loops=%lu prio=%lu min_ns=%ld avg_ns=%ld max_ns=%ld\n", loops, prio, min,
	       avg, max);
	return 0;
}
