/* ipctest ROLE: the user side of the ipc suite (tests/kernel/test_ipc.c),
 * which starts it with the handles a role needs and plays the other side
 * itself. Exit 0 when everything the role checks held; otherwise each
 * failure is printed and the exit code is 1.
 *   client     handle 0 (send, badged by the test): one call, label 7,
 *              words 1 2 3 and a 64-byte payload; the reply must be
 *              label 8, words 4 5 6 and the payload reversed
 *   send L P   handle 0 (send): at SCHED_FIFO priority P (0: normal), a
 *              send labelled L; exit 0 once a receiver took it
 *   recv-exit  handle 0 (recv): receive one call and exit without
 *              replying (the caller must get -EPIPE)
 *   forge      handle 0 (send only, badge 5), handle 1 (an unbadged
 *              notification): every handle it was not given, every right
 *              it lacks and every badge change is refused
 * What it shows: handles are capabilities: a process names only what it
 * was given, with the rights it was given. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/ipc.h"
#include "lib/string.h"

static u8 buf[IPC_BUF_MAX];
static int failures;

#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond)) {                                              \
			printf("ipctest: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                         \
		}                                                           \
	} while (0)

static int client(void)
{
	struct ipc_msg m = { IPC_TAG(7, 64), { 1, 2, 3 }, 0 };
	for (int i = 0; i < 64; i++)
		buf[i] = (u8)i;
	long r = ipc_call(0, &m, buf);
	CHECK(r == 0);
	CHECK(IPC_TAG_LABEL(m.tag) == 8 && IPC_TAG_LEN(m.tag) == 64);
	CHECK(m.w[0] == 4 && m.w[1] == 5 && m.w[2] == 6);
	CHECK(m.badge == 0); /* a reply carries none */
	for (int i = 0; i < 64; i++)
		CHECK(buf[i] == (u8)(63 - i));
	return failures != 0;
}

static int sender(unsigned long label, unsigned long prio)
{
	if (prio) {
		struct sched_param sp = { (int)prio };
		CHECK(sched_setscheduler(0, SCHED_FIFO, &sp) == 0);
	}
	struct ipc_msg m = { IPC_TAG(label, 0), { label, 0, 0 }, 0 };
	CHECK(ipc_send(0, &m, NULL) == 0);
	return failures != 0;
}

static int recv_exit(void)
{
	struct ipc_msg m = { 0 };
	CHECK(ipc_recv(0, &m, buf) == 0);
	return failures != 0;
}

static int forge(void)
{
	struct ipc_msg m = { IPC_TAG(1, 0), { 0 }, 0 };
	long bad[] = { 2, 3, HANDLE_MAX - 1, HANDLE_MAX, HANDLE_MAX + 5, -1, -HANDLE_MAX,
		       0x100000000L, (long)0x8000000000000000UL };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(syscall6(__NR_ipc_call, bad[i], (long)m.tag, 0, 0, 0, 0) == -EBADF);
		CHECK(syscall6(__NR_ipc_recv, bad[i], 0, 0, 0, 0, 0) == -EBADF);
		CHECK(syscall1(__NR_handle_close, bad[i]) == -EBADF);
		CHECK(syscall2(__NR_notify_signal, bad[i], 1) == -EBADF);
	}
	CHECK(ipc_recv(0, &m, buf) == -EPERM);               /* send right only */
	CHECK(ipc_reply_recv(0, &m, buf) == -EPERM);
	CHECK(handle_mint(0, 0, RIGHT_SEND | RIGHT_RECV) == -EPERM); /* more rights */
	CHECK(handle_mint(0, 9, RIGHT_SEND) == -EPERM);     /* a new badge on a badged one */
	CHECK(handle_mint(0, 0, 1U << 7) == -EINVAL);       /* no such right */
	m.tag = IPC_TAG(1, 0) | IPC_TAG_GRANT;              /* no grant right */
	m.w[2] = 1;
	CHECK(ipc_call(0, &m, NULL) == -EPERM);
	m.tag = IPC_TAG(1, IPC_BUF_MAX + 1);                 /* too long */
	CHECK(ipc_call(0, &m, buf) == -EINVAL);
	m.tag = (1UL << 10);                                 /* an unknown tag bit */
	CHECK(ipc_call(0, &m, NULL) == -EINVAL);
	CHECK(ipc_call(1, &m, NULL) == -EBADF);             /* a notification */
	CHECK(notify_wait(0) == -EBADF);                    /* an endpoint */
	m.tag = IPC_TAG(1, 8);
	CHECK(ipc_call(0, &m, (void *)0xffff800000000000UL) == -EFAULT);
	long h = handle_mint(0, 0, RIGHT_SEND);             /* fewer or equal: fine */
	CHECK(h == 2);
	CHECK(handle_close(2) == 0 && handle_close(2) == -EBADF);
	return failures != 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "client"))
		return client();
	if (argc == 4 && !strcmp(argv[1], "send"))
		return sender(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10));
	if (argc >= 2 && !strcmp(argv[1], "recv-exit"))
		return recv_exit();
	if (argc >= 2 && !strcmp(argv[1], "forge"))
		return forge();
	dprintf(STDERR_FILENO, "usage: ipctest client | send LABEL PRIO | recv-exit | forge\n");
	return 2;
}
