/* names: a name server. It receives on the endpoint in its handle 0 and
 * keeps up to NAMES_MAX (name, handle) pairs:
 *   register: label NAMES_REGISTER, the name as the payload, a handle
 *             granted in w2 (IPC_TAG_GRANT): kept under that name;
 *             reply w0 = 0, or -EEXIST-like 1 (taken), 2 (full), 3 (bad)
 *   lookup:   label NAMES_LOOKUP, the name as the payload: the reply
 *             grants a copy of the handle kept (w0 = 0), or w0 = 1 (no
 *             such name)
 * A client can thus reach a server it was never given a handle to, and
 * only through one it was given: the name server's.
 * What it shows: handles moving between processes inside messages (seL4's
 * capability transfer), and a server loop with reply_recv. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/ipc.h"
#include "user/lib/names.h"
#include "lib/string.h"

struct entry {
	char name[NAME_LEN];
	int handle;
};
static struct entry table[NAMES_MAX];
static int used;
static char buf[IPC_BUF_MAX];

static struct entry *find(const char *name)
{
	for (int i = 0; i < used; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* m is the request; it becomes the reply. */
static void serve(struct ipc_msg *m)
{
	u64 len = IPC_TAG_LEN(m->tag), label = IPC_TAG_LABEL(m->tag);
	bool granted = m->tag & IPC_TAG_GRANT;
	int h = (int)m->w[2];
	m->tag = IPC_TAG(label, 0);
	m->w[0] = NAMES_BAD;
	if (len == 0 || len > NAME_LEN || strnlen(buf, len) != len - 1) {
		if (granted)
			handle_close(h);
		return;
	}
	if (label == NAMES_REGISTER && granted) {
		if (find(buf)) {
			m->w[0] = NAMES_TAKEN;
			handle_close(h);
		} else if (used == NAMES_MAX) {
			m->w[0] = NAMES_FULL;
			handle_close(h);
		} else {
			strlcpy(table[used].name, buf, NAME_LEN);
			table[used++].handle = h;
			printf("names: %s registered (handle %d here)\n", buf, h);
			m->w[0] = NAMES_OK;
		}
	} else if (label == NAMES_LOOKUP) {
		struct entry *e = find(buf);
		m->w[0] = e ? NAMES_OK : NAMES_NONE;
		if (e) { /* the reply grants our handle; the kernel copies it */
			m->tag |= IPC_TAG_GRANT;
			m->w[2] = (u64)e->handle;
		}
	} else if (granted) {
		handle_close(h);
	}
}

int main(int argc, char **argv)
{
	(void)argc; (void)argv;
	struct ipc_msg m = { 0 };
	long r = ipc_recv(NAMES_EP, &m, buf);
	for (;;) {
		if (r < 0) {
			dprintf(STDERR_FILENO, "names: recv: error %ld\n", r);
			return 1;
		}
		serve(&m);
		r = ipc_reply_recv(NAMES_EP, &m, buf);
	}
}
