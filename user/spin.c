/* spin [N] [prio=P]: burns CPU in ring 3. With no N it never returns (kill
 * it, or watch the scheduler preempt it: a timer interrupt taken in user
 * mode); with N it runs N rounds of a 1,000,000-iteration inner loop and
 * exits 0. prio=P (1..99) spins as SCHED_FIFO at priority P: then only a
 * higher FIFO thread, or the throttle that keeps user FIFO threads to 95%
 * of each second, lets anything else run on its CPU.
 *
 * What it shows: user time that only the timer interrupt can take back,
 * since the program makes no system call while it spins. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"

#define INNER 1000000UL

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: spin [N] [prio=P]  (N rounds of %lu iterations; none: "
		"forever; P 1-99: SCHED_FIFO)\n", INNER);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 0, prio = 0;
	bool forever = true;
	for (int i = 1; i < argc; i++) {
		int p = parse_option(argv[i], "prio", &prio);
		if (p < 0 || (p > 0 && (prio < SCHED_FIFO_PRIO_MIN || prio > SCHED_FIFO_PRIO_MAX)))
			return usage();
		if (p)
			continue;
		if (!forever || parse_ulong(argv[i], &rounds))
			return usage();
		forever = false;
	}
	if (prio) {
		struct sched_param sp = { (int)prio };
		long r = sched_setscheduler(0, SCHED_FIFO, &sp);
		if (r) {
			dprintf(STDERR_FILENO, "spin: sched_setscheduler returned %ld\n", r);
			return 1;
		}
	}
	printf("spin: pid %ld spinning%s\n", getpid(), prio ? " (SCHED_FIFO)" : "");
	for (unsigned long r = 0; forever || r < rounds; r++)
		for (volatile unsigned long i = 0; i < INNER; i++)
			;
	printf("spin: pid %ld done after %lu rounds\n", getpid(), rounds);
	return 0;
}
