/* flipper [MS] [prio=P]: changes its own policy in a loop, SCHED_FIFO at
 * priority P (default 99) and back to SCHED_OTHER, two system calls a
 * round, and never blocks. With no MS it never returns (kill it); with MS
 * it stops after MS milliseconds of CLOCK_MONOTONIC and prints how many
 * rounds it made.
 *
 * What it shows: the RT throttle and the round-robin slice hold against a
 * program that spends part of each tick in each band. Any program may set
 * its own policy (fold has no capabilities), so the scheduler must count
 * the FIFO time it takes however often it changes (sched/rt.c); `spawn
 * flipper` once per CPU must leave the shell answering. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"

#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_SEC 1000000000L

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: flipper [MS] [prio=P]  (flip for MS milliseconds, none: "
		"forever; P 1-99, default 99: the SCHED_FIFO priority)\n");
	return 2;
}

static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int set_policy(int policy, int prio)
{
	struct sched_param sp = { prio };
	long r = sched_setscheduler(0, policy, &sp);
	if (r)
		dprintf(STDERR_FILENO, "flipper: sched_setscheduler(%s, %d) returned %ld\n",
			policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_OTHER", prio, r);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long ms = 0, prio = SCHED_FIFO_PRIO_MAX;
	bool forever = true;
	for (int i = 1; i < argc; i++) {
		int p = parse_option(argv[i], "prio", &prio);
		if (p < 0 || (p > 0 && (prio < SCHED_FIFO_PRIO_MIN || prio > SCHED_FIFO_PRIO_MAX)))
			return usage();
		if (p)
			continue;
		if (!forever || parse_ulong(argv[i], &ms) || ms == 0 || ms > 3600 * 1000UL)
			return usage();
		forever = false;
	}
	printf("flipper: pid %ld flipping between SCHED_FIFO %lu and SCHED_OTHER\n", getpid(), prio);
	long end = now_ns() + (long)ms * NSEC_PER_MSEC;
	unsigned long rounds = 0;
	do {
		/* Several rounds between clock reads: the flips are the load. */
		for (int i = 0; i < 64; i++, rounds++)
			if (set_policy(SCHED_FIFO, (int)prio) || set_policy(SCHED_OTHER, 0))
				return 1;
	} while (forever || now_ns() < end);
	printf("flipper: pid %ld done: %lu rounds in %lu ms\n", getpid(), rounds, ms);
	return 0;
}
