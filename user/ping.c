/* ping [calls=N] [bytes=B] [quit=0|1] [name=NAME] [prio=P] [window=0|1]: calls an echo server
 * (user/pong.c) N times (default 10000) with a B-byte payload (default 0,
 * at most IPC_BUF_MAX), checks every reply, then tells the server to quit
 * (unless quit=0: another client still needs it) and prints
 *   ping: N calls of B bytes: X ns per round trip
 * Under clock=icount a nanosecond is an instruction. It talks to the
 * endpoint in its handle 0 when it was given one at spawn (the kernel's
 * `bench ipc` and the ipc tests start the two that way, each pinned to a
 * CPU); run alone (`run ping` in the shell) it makes an endpoint and
 * spawns pong with it itself. With name=NAME its handle 0 is a name
 * server's (user/names.c) instead: it looks NAME up there and calls the
 * endpoint the reply grants it. With prio=P (1..99) it calls as a
 * SCHED_FIFO thread of priority P (lab L5: a partner of lower priority
 * is the slow path's). With window=1 it also prints when its calls began
 * and ended, "ping: window T0 T1" in ns of CLOCK_MONOTONIC (`bench ipc`'s
 * pairs add up several pings' windows). Exit 0 if every reply was right.
 *
 * What it shows: a client's call, the send and the wait for the reply in
 * one system call, and what a round trip costs. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"
#include "user/lib/ipc.h"
#include "user/lib/pingpong.h"
#include "user/lib/names.h"

static u8 out[IPC_BUF_MAX], in[IPC_BUF_MAX];

/* The payload goes out of and comes back into the same buffer. */
static bool pattern_ok(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (out[i] != (u8)(i * 7 + 1))
			return false;
	return true;
}

static u64 now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000UL + (u64)t.tv_nsec;
}

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: ping [calls=N] [bytes=0..%d] [quit=0|1] [name=NAME] "
		"[prio=1..99] [window=0|1]\n", IPC_BUF_MAX);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long calls = 10000, bytes = 0, quit = 1, prio = 0, window = 0;
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "name=", 5)) {
			name = argv[i] + 5;
			continue;
		}
		int c = parse_option(argv[i], "calls", &calls);
		int b = c ? 0 : parse_option(argv[i], "bytes", &bytes);
		int q = c || b ? 0 : parse_option(argv[i], "quit", &quit);
		int p = c || b || q ? 0 : parse_option(argv[i], "prio", &prio);
		int w = c || b || q || p ? 0 : parse_option(argv[i], "window", &window);
		if (c < 0 || b < 0 || q < 0 || p < 0 || w < 0 || quit > 1 || window > 1 ||
		    (p && (prio < SCHED_FIFO_PRIO_MIN || prio > SCHED_FIFO_PRIO_MAX)))
			return usage();
		if (!c && !b && !q && !p && !w) {
			dprintf(STDERR_FILENO, "ping: unknown option '%s'\n", argv[i]);
			return usage();
		}
	}
	if (bytes > IPC_BUF_MAX || !calls)
		return usage();
	if (prio) {
		struct sched_param sp = { (int)prio };
		long r = sched_setscheduler(0, SCHED_FIFO, &sp);
		if (r) {
			dprintf(STDERR_FILENO, "ping: sched_setscheduler returned %ld\n", r);
			return 1;
		}
	}
	int ep = PINGPONG_EP;
	long server = 0;
	if (name) {
		long h = names_lookup(NAMES_EP, name);
		if (h < 0) {
			dprintf(STDERR_FILENO, "ping: no server named '%s' (%ld)\n", name, h);
			return 1;
		}
		printf("ping: the name server gave '%s' as handle %ld\n", name, h);
		ep = (int)h;
	}
	struct ipc_msg m = { IPC_TAG(PONG_ECHO, 0), { 0, 0, 0 }, 0 };
	long probe = ipc_call(ep, &m, in);
	if (probe < 0 && name) {
		dprintf(STDERR_FILENO, "ping: the handle for '%s' does not work (%ld)\n", name, probe);
		return 1;
	}
	if (probe == -EBADF) { /* alone: start our own server */
		long h = endpoint_create();
		if (h < 0) {
			dprintf(STDERR_FILENO, "ping: endpoint_create: error %ld\n", h);
			return 1;
		}
		ep = (int)h;
		server = spawn_handles("pong", NULL, &ep, 1);
		if (server < 0) {
			dprintf(STDERR_FILENO, "ping: spawn pong: error %ld\n", server);
			return 1;
		}
	}
	for (unsigned long i = 0; i < bytes; i++)
		out[i] = (u8)(i * 7 + 1);
	unsigned long bad = 0;
	u64 t0 = now_ns();
	for (unsigned long i = 0; i < calls; i++) {
		m.tag = IPC_TAG(PONG_ECHO, bytes);
		m.w[0] = i;
		m.w[1] = ~i;
		m.w[2] = i * 3;
		long r = ipc_call(ep, &m, bytes ? out : NULL);
		if (r < 0) {
			dprintf(STDERR_FILENO, "ping: call %lu: error %ld\n", i, r);
			return 1;
		}
		if (m.w[0] != i + 1 || m.w[1] != ~i + 1 || m.w[2] != i * 3 + 1 ||
		    IPC_TAG_LEN(m.tag) != bytes || !pattern_ok(bytes))
			bad++;
	}
	u64 t1 = now_ns();
	m.tag = IPC_TAG(PONG_QUIT, 0);
	if (quit)
		ipc_call(ep, &m, NULL);
	if (server > 0)
		wait4(server, NULL, 0, NULL);
	u64 per = (t1 - t0) * 100 / calls;
	printf("ping: %lu calls of %lu bytes: %lu.%02lu ns per round trip\n", calls, bytes,
	       (unsigned long)(per / 100), (unsigned long)(per % 100));
	if (window)
		printf("ping: window %lu %lu\n", (unsigned long)t0, (unsigned long)t1);
	if (bad) {
		printf("ping: %lu replies were wrong\n", bad);
		return 1;
	}
	return 0;
}
