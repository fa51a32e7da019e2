/* IPC from user space (uapi/ipc.h): one wrapper per call. A message is
 * struct ipc_msg: the tag and three words travel in registers (rsi, rdx,
 * r10, r8 both ways; the badge comes back in rdi), the payload in buf,
 * which must have room for IPC_BUF_MAX bytes when a reply or message
 * may carry one. Each returns 0 or -errno (uapi/errno.h). */
#ifndef FOLD_USER_IPC_H
#define FOLD_USER_IPC_H
#include "lib/types.h"
#include "uapi/syscall.h"
#include "uapi/ipc.h"
#include "uapi/errno.h"
#include "user/lib/syscall.h"

struct ipc_msg {
	u64 tag;
	u64 w[IPC_WORDS];
	u64 badge;            /* a received message's: its sender's handle's */
};

/* The message in m out, and a message back into m (call, recv and
 * reply_recv): every register the kernel writes is an output here. */
static inline long ipc_syscall(long nr, long h, struct ipc_msg *m, void *buf)
{
	register long r10 __asm__("r10") = (long)m->w[1];
	register long r8 __asm__("r8") = (long)m->w[2];
	register long r9 __asm__("r9") = (long)buf;
	long ret, rdi = h, rsi = (long)m->tag, rdx = (long)m->w[0];
	__asm__ volatile("syscall"
			 : "=a"(ret), "+D"(rdi), "+S"(rsi), "+d"(rdx), "+r"(r10), "+r"(r8)
			 : "a"(nr), "r"(r9)
			 : "rcx", "r11", "memory");
	if (ret >= 0 || ret == -EFAULT || ret == -EMFILE) {
		m->badge = (u64)rdi;
		m->tag = (u64)rsi;
		m->w[0] = (u64)rdx;
		m->w[1] = (u64)r10;
		m->w[2] = (u64)r8;
	}
	return ret;
}

static inline long endpoint_create(void)
{
	return syscall0(__NR_endpoint_create);
}

static inline long notification_create(void)
{
	return syscall0(__NR_notification_create);
}

static inline long handle_mint(int h, u64 badge, unsigned rights)
{
	return syscall3(__NR_handle_mint, h, (long)badge, rights);
}

static inline long handle_close(int h)
{
	return syscall1(__NR_handle_close, h);
}

static inline long ipc_send(int h, const struct ipc_msg *m, const void *buf)
{
	return syscall6(__NR_ipc_send, h, (long)m->tag, (long)m->w[0], (long)m->w[1],
			(long)m->w[2], (long)buf);
}

static inline long ipc_call(int h, struct ipc_msg *m, void *buf)
{
	return ipc_syscall(__NR_ipc_call, h, m, buf);
}

/* recv reads only h and buf (the words in are ignored). */
static inline long ipc_recv(int h, struct ipc_msg *m, void *buf)
{
	return ipc_syscall(__NR_ipc_recv, h, m, buf);
}

/* reply takes no handle: its arguments start one register earlier. */
static inline long ipc_reply(const struct ipc_msg *m, const void *buf)
{
	return syscall5(__NR_ipc_reply, (long)m->tag, (long)m->w[0], (long)m->w[1],
			(long)m->w[2], (long)buf);
}

static inline long ipc_reply_recv(int h, struct ipc_msg *m, void *buf)
{
	return ipc_syscall(__NR_ipc_reply_recv, h, m, buf);
}

static inline long notify_signal(int h, u32 bits)
{
	return syscall2(__NR_notify_signal, h, bits);
}

/* The bits (> 0), or -errno. */
static inline long notify_wait(int h)
{
	return syscall1(__NR_notify_wait, h);
}
#endif
