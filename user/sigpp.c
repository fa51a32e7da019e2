/* sigpp [rounds=N] [measure]: a notification ping-pong between two
 * processes. Each holds two notifications: it signals its handle 0 and
 * waits on its handle 1; the other process was given the same two the
 * other way round (the kernel's `bench ipc` starts them so). The one
 * started with `measure` signals first and, after N rounds (default
 * 10000), prints
 *   sigpp: N rounds: X ns per signal-to-wake
 * (half a round: one signal and the wake-up of the process waiting for
 * it). The other answers N rounds and exits.
 * What it shows: notifications, the asynchronous half of IPC: a signal
 * never blocks, and the waiter's wake-up is an ordinary one (on another
 * CPU: the RESCHEDULE IPI). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/ipc.h"
#include "lib/string.h"

static u64 now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000UL + (u64)t.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 10000;
	bool measure = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "measure")) {
			measure = true;
			continue;
		}
		if (parse_option(argv[i], "rounds", &rounds) <= 0 || !rounds) {
			dprintf(STDERR_FILENO, "usage: sigpp [rounds=N] [measure]\n");
			return 2;
		}
	}
	u64 t0 = now_ns();
	for (unsigned long i = 0; i < rounds; i++) {
		long r = 0;
		if (measure)
			r = notify_signal(0, 1);
		long w = r < 0 ? r : notify_wait(1);
		if (!measure && w > 0)
			r = notify_signal(0, 1);
		if (r < 0 || w < 0) {
			dprintf(STDERR_FILENO, "sigpp: round %lu: error %ld\n", i, r < 0 ? r : w);
			return 1;
		}
	}
	u64 per = (now_ns() - t0) * 100 / (2 * rounds);
	if (measure)
		printf("sigpp: %lu rounds: %lu.%02lu ns per signal-to-wake\n", rounds,
		       (unsigned long)(per / 100), (unsigned long)(per % 100));
	return 0;
}
