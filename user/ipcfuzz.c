/* ipcfuzz [ops=N] [seed=S] [spawn=PROG]: random IPC operations (defaults
 * 30000, 1, none).
 * Several of these run at once (the ipc suite's fuzz case starts four on
 * two CPUs, each with the same handles 0..3: two endpoints with every
 * right, a notification, a badged send-only copy of the first endpoint),
 * so the operations meet: a random call finds a random recv, a reply
 * goes to whoever called, a grant moves a handle into another process.
 * Each operation is drawn by an xorshift64 generator (Marsaglia, 2003):
 *   send, call, recv, reply, reply_recv, signal, wait, mint, close,
 *   endpoint_create, notification_create, spawn with handles (of a name
 *   no module has)
 * on a handle number that is mostly one it holds (0..7), sometimes not
 * (-1, HANDLE_MAX, huge) (for the ones that may wait, mostly not: see
 * wait_handle()), with a tag of random label, length (up to 300,
 * past IPC_BUF_MAX) and flag bits, random words and a buffer that is its
 * own, unmapped, a kernel address or NULL. At the end it prints
 *   ipcfuzz: N ops, seed S: X ok, Y failed
 * and exits 0. Some operations wait for a partner that never comes (all
 * four in recv): the suite kills a fuzzer when none has moved for a
 * while, which is itself a test, of the kill-while-blocked path.
 * spawn=PROG: one spawn in four (drawn) starts PROG for real (argv
 * { PROG }; `true` exits 0 at once, silently) with the handles drawn, and
 * waits for it: the handles copied into a process being made, for the
 * fault injection runs (tests/fault/fault_fuzz.c).
 * What it shows: the IPC boundary's checks, under concurrency.
 *
 * ipcfuzz storm [servers=3] [clients=8] [kills=100] [seed=1]: servers and
 * clients on one endpoint, one of them killed every 0 to 5 ms (drawn) and
 * started again, until `kills` kills; then a call of its own, which a
 * server must answer, and
 *   ipcfuzz storm: K kills, seed S: the endpoint still answers
 * and exit 0 (1 if that call fails). The servers (ipcfuzz storm-server)
 * loop in reply_recv, the clients (ipcfuzz storm-client) in call, each
 * message with a payload, so every one takes the slow path
 * (ipc/endpoint.c): a call that finds a server waiting on its CPU hands
 * the CPU straight to it (the direct switch), a reply likewise to its
 * caller. The victim, a server and a client in turn, dies wherever it
 * is: waiting, half-way through a call, or made runnable by a partner
 * that has yet to switch to it; the storm reaps it (wait4) and starts one
 * of the same side after the next draw, whose memory may be the dead
 * one's. What it shows: a partner dying inside another's IPC operation,
 * which a kernel that uses the partner after dropping the endpoint's lock
 * gets wrong; with ipc_handoff_delay= (debug builds) the kernel waits in
 * that gap, so that the storm's row (tests/configs) finds it every run. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/ipc.h"
#include "user/lib/syscall.h"
#include "uapi/layout.h"
#include "lib/string.h"

static u64 state;
static u8 buf[2 * IPC_BUF_MAX] __aligned(16);
static const char *child;       /* spawn=PROG */
static char child_name[32];

#define EP 0          /* the storm's endpoint: handle 0 of each of its processes */
#define MAX_PROCS 32
#define STORM_LABEL 7
#define PAYLOAD 8     /* a payload: the slow path */

static u64 xorshift64(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* For an operation that may wait: one of the four shared handles 1 time
 * in 8 (so that fuzzers meet: a call finds a recv), else one it does not
 * hold (so that a fuzzer runs a while between waits). */
static long wait_handle(void)
{
	return xorshift64() % 8 ? HANDLE_MAX + (long)(xorshift64() % 8) : (long)(xorshift64() % 4);
}

static long handle(void)
{
	switch (xorshift64() % 16) {
	case 0: return -1;
	case 1: return HANDLE_MAX + (long)(xorshift64() % 4);
	case 2: return (long)xorshift64();
	default: return (long)(xorshift64() % 8);
	}
}

static void *buffer(void)
{
	switch (xorshift64() % 8) {
	case 0: return NULL;
	case 1: return (void *)0x10000000UL;             /* unmapped */
	case 2: return (void *)0xffff800000000000UL;     /* the kernel's */
	case 3: return (void *)(USER_TOP - 8);           /* straddles the top */
	default: return buf + xorshift64() % IPC_BUF_MAX;
	}
}

static void message(struct ipc_msg *m)
{
	u64 len = xorshift64() % 16 ? xorshift64() % 65 : xorshift64() % 301;
	m->tag = IPC_TAG(xorshift64() % 1000, len);
	if (xorshift64() % 8 == 0)
		m->tag |= IPC_TAG_GRANT;
	if (xorshift64() % 32 == 0)
		m->tag |= 1UL << (9 + xorshift64() % 6); /* a bit no one defined */
	m->w[0] = xorshift64();
	m->w[1] = xorshift64();
	m->w[2] = xorshift64() % 2 ? xorshift64() % 10 : xorshift64();
}

static long one_op(void)
{
	struct ipc_msg m;
	message(&m);
	switch (xorshift64() % 13) {
	case 0:  return ipc_send((int)wait_handle(), &m, buffer());
	case 1:  return syscall6(__NR_ipc_call, wait_handle(), (long)m.tag, (long)m.w[0],
				 (long)m.w[1], (long)m.w[2], (long)buffer());
	case 2:  return syscall6(__NR_ipc_recv, wait_handle(), 0, 0, 0, 0, (long)buffer());
	case 3:  return ipc_reply(&m, buffer());
	case 4:  return syscall6(__NR_ipc_reply_recv, wait_handle(), (long)m.tag, (long)m.w[0],
				 (long)m.w[1], (long)m.w[2], (long)buffer());
	case 5:  return syscall2(__NR_notify_signal, handle(), (long)xorshift64() % 2 ?
				 (long)(xorshift64() & 0xff) : (long)xorshift64());
	case 6:  return syscall1(__NR_notify_wait, wait_handle());
	case 7:  return syscall3(__NR_handle_mint, handle(), (long)(xorshift64() % 3),
				 (long)(xorshift64() % 64));
	case 8:  return xorshift64() % 4 ? 0 : syscall1(__NR_handle_close, handle());
	case 9:  return endpoint_create();
	case 10: return notification_create();
	case 11: {
		int hv[2] = { (int)handle(), (int)handle() };
		if (child && xorshift64() % 4 == 0) {
			long pid = spawn_handles(child, NULL, hv, (int)(xorshift64() % 3));
			if (pid > 0)
				wait4(pid, NULL, 0, NULL);
			return pid;
		}
		return spawn_handles("ipcfuzz!none", NULL, hv, (int)(xorshift64() % 3));
	}
	default: return syscall6(__NR_ipc_call, wait_handle(), (long)m.tag, 0, 0, 0, (long)buf);
	}
}

/* ---- the storm */

static __noreturn void storm_server(void)
{
	struct ipc_msg m = { 0 };
	long r = ipc_recv(EP, &m, buf);
	for (;;) {
		if (r < 0) { /* the caller died: wait for the next */
			r = ipc_recv(EP, &m, buf);
			continue;
		}
		m.w[0]++;
		m.tag = IPC_TAG(STORM_LABEL, PAYLOAD);
		r = ipc_reply_recv(EP, &m, buf);
	}
}

static __noreturn void storm_client(void)
{
	for (u64 i = 0;; i++) {
		struct ipc_msg m = { .tag = IPC_TAG(STORM_LABEL, PAYLOAD), .w = { i } };
		ipc_call(EP, &m, buf); /* -EPIPE when its server dies: again */
	}
}

static long storm_start(bool server)
{
	char *argv[] = { "ipcfuzz", server ? "storm-server" : "storm-client", NULL };
	int h = EP;
	long pid = spawn_handles("ipcfuzz", argv, &h, 1);
	if (pid < 0)
		dprintf(STDERR_FILENO, "ipcfuzz storm: spawn %s: error %ld\n", argv[1], pid);
	return pid;
}

static void sleep_us(u64 us)
{
	struct timespec ts = { 0, (long)(us * 1000) };
	nanosleep(&ts, NULL);
}

static int storm_usage(void)
{
	dprintf(STDERR_FILENO, "usage: ipcfuzz storm [servers=N] [clients=N] [kills=N] [seed=S]"
		" (N processes: 1-%d in all)\n", MAX_PROCS);
	return 2;
}

static void storm_kill(long pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		wait4(pid, NULL, 0, NULL);
	}
}

static int storm(int argc, char **argv)
{
	unsigned long servers = 3, clients = 8, kills = 100, seed = 1;
	for (int i = 2; i < argc; i++)
		if (parse_option(argv[i], "servers", &servers) <= 0 &&
		    parse_option(argv[i], "clients", &clients) <= 0 &&
		    parse_option(argv[i], "kills", &kills) <= 0 &&
		    parse_option(argv[i], "seed", &seed) <= 0)
			return storm_usage();
	if (!servers || !clients || servers + clients > MAX_PROCS)
		return storm_usage();
	state = seed ? seed : 0x9E3779B97F4A7C15UL;
	long ep = endpoint_create();
	if (ep != EP) {
		dprintf(STDERR_FILENO, "ipcfuzz storm: endpoint_create: %ld, not handle %d\n", ep, EP);
		return 1;
	}
	long pids[MAX_PROCS];
	u32 n = (u32)(servers + clients);
	for (u32 i = 0; i < n; i++)
		pids[i] = storm_start(i < servers);
	for (unsigned long k = 0; k < kills; k++) {
		/* a server, then a client, in turn: either side of a call */
		u32 i = k % 2 ? (u32)servers + (u32)(xorshift64() % clients) :
				(u32)(xorshift64() % servers);
		storm_kill(pids[i]);
		sleep_us(xorshift64() % 5001); /* the dead one's memory free meanwhile */
		pids[i] = storm_start(i < servers);
	}
	for (u32 i = (u32)servers; i < n; i++) /* the clients: the servers stay */
		storm_kill(pids[i]);
	struct ipc_msg m = { .tag = IPC_TAG(STORM_LABEL, PAYLOAD), .w = { 41 } };
	long r = ipc_call(EP, &m, buf);
	for (u32 i = 0; i < servers; i++)
		storm_kill(pids[i]);
	if (r < 0 || m.w[0] != 42) {
		printf("ipcfuzz storm: %lu kills, seed %lu: the last call returned %ld, w0 %lu\n",
		       kills, seed, r, (unsigned long)m.w[0]);
		return 1;
	}
	printf("ipcfuzz storm: %lu kills, seed %lu: the endpoint still answers\n", kills, seed);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "storm-server"))
		storm_server();
	if (argc == 2 && !strcmp(argv[1], "storm-client"))
		storm_client();
	if (argc >= 2 && !strcmp(argv[1], "storm"))
		return storm(argc, argv);
	unsigned long ops = 30000, seed = 1;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "spawn=", 6) && argv[i][6]) {
			/* A copy: the fuzzing writes to the top of the stack,
			 * where argv's strings are. */
			strlcpy(child_name, argv[i] + 6, sizeof(child_name));
			child = child_name;
			continue;
		}
		int o = parse_option(argv[i], "ops", &ops);
		int s = o ? 0 : parse_option(argv[i], "seed", &seed);
		if (o <= 0 && s <= 0) {
			dprintf(STDERR_FILENO, "usage: ipcfuzz [ops=N] [seed=S] [spawn=PROG]\n");
			return 2;
		}
	}
	state = seed ? seed : 0x9E3779B97F4A7C15UL;
	unsigned long ok = 0, failed = 0;
	for (unsigned long i = 0; i < ops; i++) {
		if (one_op() >= 0)
			ok++;
		else
			failed++;
	}
	printf("ipcfuzz: %lu ops, seed %lu: %lu ok, %lu failed\n", ops, seed, ok, failed);
	return 0;
}
