/* pong: an echo server. It receives on the endpoint it was given at
 * spawn (handle 0, with the recv right) and answers every call with the
 * same message, each word plus one and the payload as it came, until a
 * message labelled PONG_QUIT (uapi/ipc.h's IPC_TAG label field), which it
 * answers before it exits 0. Badges are echoed in w2 when a call asks for
 * it (label PONG_BADGE), so a test can see which client the kernel says
 * called.
 *
 * What it shows: a server's loop, recv once and then reply_recv, which
 * answers the last caller and waits for the next in one system call (and,
 * on one CPU, switches straight back to the caller: ipc/fastpath.c). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/ipc.h"
#include "user/lib/pingpong.h"

static u8 buf[IPC_BUF_MAX];

int main(int argc, char **argv)
{
	(void)argc; (void)argv;
	struct ipc_msg m = { 0 };
	long r = ipc_recv(PINGPONG_EP, &m, buf);
	for (;;) {
		if (r < 0) {
			dprintf(STDERR_FILENO, "pong: recv: error %ld\n", r);
			return 1;
		}
		u64 label = IPC_TAG_LABEL(m.tag);
		u64 badge = m.badge;
		m.tag &= ~IPC_TAG_GRANT;
		m.w[0]++;
		m.w[1]++;
		m.w[2] = label == PONG_BADGE ? badge : m.w[2] + 1;
		if (label == PONG_QUIT) {
			ipc_reply(&m, buf);
			return 0;
		}
		r = ipc_reply_recv(PINGPONG_EP, &m, buf);
	}
}
