/* sysfuzz [calls=N] [seed=S] [spawn=PROG]: a system call fuzzer (defaults
 * 100000, 1, none).
 * An xorshift64 generator (Marsaglia, "Xorshift RNGs", 2003) picks a
 * number in 0..NR_SYSCALLS+100 and six arguments from a pool of values
 * that have broken kernels before: random 64-bit values, small integers,
 * 0, -1, kernel addresses (the direct map 0xffff800000000000 and the
 * image 0xffffffff80000000), non-canonical 0x0000800000000000 and
 * 0x8000000000000000, unmapped user memory 0x10000000, a pointer whose
 * first 8 bytes are the top of its stack or of its data page and the rest
 * unmapped, one straddling USER_TOP (0x7ffffffffff8), and pointers into
 * its own buffer filled with random bytes. Then it prints
 *   sysfuzz: N calls, seed S: X ok, Y -EFAULT, Z -EINVAL, W -ENOSYS, V other
 * and exits 0: the kernel survived it, and so did the fuzzer.
 *
 * The fuzzer must live to report, so some calls are tamed (each rule is
 * in tame() below):
 *   - exit and exit_group are never called (another number is drawn);
 *   - kill only with a pid that is not its own, not 0 and not negative
 *     (0 is its own group, -1 everyone, -N a group), judged on the low 32
 *     bits, since the kernel takes pid as an int as Linux does;
 *   - spawn only with a name pointer that cannot be read or with a name no
 *     module can have ('!' is not allowed in one: scripts/mkiso.sh), so
 *     it never starts a program (not even itself);
 *   - nanosleep and clock_nanosleep with a readable time: at most 1 ms;
 *   - write to fd 1 or 2 from readable memory: at most 8 bytes;
 *   - sched_setscheduler never with SCHED_FIFO (a fuzzer at a real-time
 *     priority would hold the CPU's normal threads off for 95% of a second);
 *   - the IPC calls that wait (send, call, recv, reply_recv, notify_wait)
 *     only on a handle number no process has (HANDLE_MAX and up): alone,
 *     nobody would ever answer it. The ones that do not wait (create,
 *     mint, close, reply, signal) take any argument.
 * A new system call that can block or end the caller needs a rule here.
 *
 * spawn=PROG: one call in SPAWN_EVERY (drawn) is instead a real
 * spawn(PROG) (argv { PROG }; `true` exits 0 at once, silently), waited
 * for with wait4: a process's whole making and unmaking, for the fault
 * injection runs (tests/fault/fault_fuzz.c), which fail its allocations
 * at random. One more line then:
 *   sysfuzz: spawned PROG N times: X exited 0, Y -ENOMEM, Z other
 *
 * What it shows: the system call boundary's checks, under load. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "uapi/ipc.h"
#include "lib/string.h"

#define BUF_SIZE 4096
#define RAND_RUN 64                    /* bytes made random at a buffer pointer */
#define NOT_A_MODULE "sysfuzz!none"
#define SPAWN_EVERY 64

static u64 state;
static u8 buf[BUF_SIZE] __aligned(16);

static u64 xorshift64(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

enum arg_kind {
	A_RANDOM, A_SMALL, A_ZERO, A_MINUS1, A_KDIRECT, A_KIMAGE, A_NONCANON_LO,
	A_NONCANON_HI, A_UNMAPPED, A_STACK_END, A_DATA_END, A_USER_TOP, A_BUF,
	A_KINDS
};

/* Readable by the kernel, at least in part, or (a random value) not
 * known not to be: these get the tame rules. */
static bool readable(enum arg_kind k)
{
	return k == A_BUF || k == A_STACK_END || k == A_DATA_END || k == A_RANDOM;
}

static long make_arg(enum arg_kind k)
{
	switch (k) {
	case A_RANDOM:      return (long)xorshift64();
	case A_SMALL:       return (long)(xorshift64() % 256);
	case A_ZERO:        return 0;
	case A_MINUS1:      return -1;
	case A_KDIRECT:     return (long)0xffff800000000000UL;
	case A_KIMAGE:      return (long)0xffffffff80000000UL;
	case A_NONCANON_LO: return (long)0x0000800000000000UL;
	case A_NONCANON_HI: return (long)0x8000000000000000UL;
	case A_UNMAPPED:    return 0x10000000L;
	case A_STACK_END:   return (long)(USER_STACK_TOP - 8);
	case A_DATA_END:    return (long)(ALIGN_UP((u64)_end, 4096) - 8);
	case A_USER_TOP:    return (long)(USER_TOP - 8);
	case A_BUF: default: {
		u64 off = xorshift64() % (BUF_SIZE - RAND_RUN);
		for (int i = 0; i < RAND_RUN; i++)
			buf[off + i] = (u8)xorshift64();
		return (long)(buf + off);
	}
	}
}

/* The rules of the header comment, on one drawn call. */
static void tame(long nr, long a[6], const enum arg_kind kind[6], long self)
{
	switch (nr) {
	case __NR_kill: {
		int pid = (int)a[0];
		if (pid <= 0 || pid == self)
			a[0] = self + 1 + (long)(xorshift64() % 1000);
		break;
	}
	case __NR_spawn:
		if (readable(kind[0])) {
			strlcpy((char *)buf, NOT_A_MODULE, BUF_SIZE);
			a[0] = (long)buf;
		}
		break;
	case __NR_nanosleep:
	case __NR_clock_nanosleep: {
		int req = nr == __NR_nanosleep ? 0 : 2;
		if (readable(kind[req])) {
			struct timespec t = { 0, (long)(xorshift64() % 1000001) };
			memcpy(buf, &t, sizeof(t));
			a[req] = (long)buf;
		}
		break;
	}
	case __NR_write:
		if (((int)a[0] == 1 || (int)a[0] == 2) && readable(kind[1]))
			a[2] = (long)(xorshift64() % 9);
		break;
	case __NR_sched_setscheduler:
		if (a[1] == SCHED_FIFO)
			a[1] = SCHED_OTHER;
		break;
	case __NR_ipc_send:
	case __NR_ipc_call:
	case __NR_ipc_recv:
	case __NR_ipc_reply_recv:
	case __NR_notify_wait:
		if ((unsigned long)a[0] < HANDLE_MAX)
			a[0] = HANDLE_MAX + (long)(xorshift64() % 64);
		break;
	}
}

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: sysfuzz [calls=N] [seed=S] [spawn=PROG]\n");
	return 2;
}

static const char *child;                /* spawn=PROG */
static char child_name[32];
static unsigned long spawned, exited0, nomem, spawn_other;

/* spawn=PROG's call: start it, wait for it. A random wait4 of the fuzzer
 * may have reaped it first, and a random kill ended it: both "other". */
static void spawn_child(void)
{
	long pid = spawn(child, NULL);
	spawned++;
	if (pid == -ENOMEM) {
		nomem++;
		return;
	}
	int status = 0;
	if (pid > 0 && wait4(pid, &status, 0, NULL) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		exited0++;
	else
		spawn_other++;
}

int main(int argc, char **argv)
{
	unsigned long calls = 100000, seed = 1;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "spawn=", 6) && argv[i][6]) {
			/* A copy: the fuzzing writes to the top of the stack,
			 * where argv's strings are. */
			strlcpy(child_name, argv[i] + 6, sizeof(child_name));
			child = child_name;
			continue;
		}
		int c = parse_option(argv[i], "calls", &calls);
		int s = c ? 0 : parse_option(argv[i], "seed", &seed);
		if (c < 0 || s < 0)
			return usage();
		if (!c && !s) {
			dprintf(STDERR_FILENO, "sysfuzz: unknown option '%s'\n", argv[i]);
			return usage();
		}
	}
	state = seed ? seed : 0x9E3779B97F4A7C15UL;   /* xorshift's state must not be 0 */
	long self = getpid();
	unsigned long ok = 0, efault = 0, einval = 0, enosys = 0, other = 0;

	for (unsigned long i = 0; i < calls; i++) {
		if (child && xorshift64() % SPAWN_EVERY == 0) {
			spawn_child();
			continue;
		}
		long nr, a[6];
		enum arg_kind kind[6];
		do
			nr = (long)(xorshift64() % (NR_SYSCALLS + 101));
		while (nr == __NR_exit || nr == __NR_exit_group);
		for (int j = 0; j < 6; j++) {
			kind[j] = (enum arg_kind)(xorshift64() % A_KINDS);
			a[j] = make_arg(kind[j]);
		}
		tame(nr, a, kind, self);
		long r = syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (r >= 0)
			ok++;
		else if (r == -EFAULT)
			efault++;
		else if (r == -EINVAL)
			einval++;
		else if (r == -ENOSYS)
			enosys++;
		else
			other++;
	}
	printf("\nsysfuzz: %lu calls, seed %lu: %lu ok, %lu -EFAULT, %lu -EINVAL, "
	       "%lu -ENOSYS, %lu other\n", calls, seed, ok, efault, einval, enosys, other);
	if (child)
		printf("sysfuzz: spawned %s %lu times: %lu exited 0, %lu -ENOMEM, %lu other\n",
		       child, spawned, exited0, nomem, spawn_other);
	return 0;
}
