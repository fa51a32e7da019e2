/* The name server's protocol (user/names.c), for its clients. */
#ifndef FOLD_USER_NAMES_H
#define FOLD_USER_NAMES_H
#include "user/lib/ipc.h"
#include "lib/string.h"

#define NAMES_EP        0   /* the name server's own endpoint: its handle 0 */
#define NAMES_MAX      16
#define NAME_LEN       32   /* with the NUL */
#define NAMES_REGISTER  1   /* labels */
#define NAMES_LOOKUP    2
#define NAMES_OK        0   /* the reply's w0 */
#define NAMES_NONE      1
#define NAMES_TAKEN     2
#define NAMES_FULL      3
#define NAMES_BAD       4

/* Register handle h under name with the name server at ns: NAMES_OK..., or
 * -errno. */
static inline long names_register(int ns, const char *name, int h)
{
	char buf[IPC_BUF_MAX];
	size_t n = strlcpy(buf, name, NAME_LEN) + 1;
	struct ipc_msg m = { IPC_TAG(NAMES_REGISTER, n) | IPC_TAG_GRANT, { 0, 0, (u64)h }, 0 };
	long r = ipc_call(ns, &m, buf);
	return r < 0 ? r : (long)m.w[0];
}

/* The handle the name server keeps under name, as a new handle of ours
 * (>= 0), or -1 - NAMES_NONE... (< 0: -errno or -1 - the server's code). */
static inline long names_lookup(int ns, const char *name)
{
	char buf[IPC_BUF_MAX];
	size_t n = strlcpy(buf, name, NAME_LEN) + 1;
	struct ipc_msg m = { IPC_TAG(NAMES_LOOKUP, n), { 0, 0, 0 }, 0 };
	long r = ipc_call(ns, &m, buf);
	if (r < 0)
		return r;
	if (m.w[0] != NAMES_OK || !(m.tag & IPC_TAG_GRANT))
		return -1 - (long)m.w[0];
	return (long)m.w[2];
}
#endif
