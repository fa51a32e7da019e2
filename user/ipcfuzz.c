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
 * What it shows: the IPC boundary's checks, under concurrency. */
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

int main(int argc, char **argv)
{
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
