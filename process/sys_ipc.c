/* The IPC system calls (uapi/ipc.h): handles and registers in, the
 * operations of ipc/ipc.h, registers and the payload out.
 *
 * A receive writes the message into the caller's saved user registers
 * (task_pt_regs), which the return to ring 3 restores: the words travel
 * in registers both ways, as seL4's message registers do. The payload is
 * copied twice, into the sender's kernel message and out of the
 * receiver's, each in its own address space; with at most IPC_BUF_MAX
 * bytes a copy costs less than mapping one space into the other. */
#include "process/syscall.h"
#include "process/process.h"
#include "mm/uaccess.h"
#include "ipc/ipc.h"
#include "sched/sched.h"
#include "arch/x86_64/regs.h"
#include "uapi/errno.h"

#define TAG_KNOWN (IPC_TAG_LEN_MASK | IPC_TAG_GRANT | (~0UL << IPC_TAG_LABEL_SHIFT))

static struct ipc_state *self(void)
{
	return current_process()->ipc;
}

/* The message s sends: the registers, the payload from ubuf, a grant. */
static long load_msg(struct ipc_state *s, u32 rights, u64 tag, u64 w0, u64 w1, u64 w2,
		     const void __user *ubuf)
{
	u64 len = IPC_TAG_LEN(tag);
	if ((tag & ~TAG_KNOWN) || len > IPC_BUF_MAX)
		return -EINVAL;
	struct ipc_msg *m = &s->msg;
	m->tag = tag;
	m->w[0] = w0;
	m->w[1] = w1;
	m->w[2] = w2;
	if (len && copy_from_user(m->buf, ubuf, len))
		return -EFAULT;
	if (tag & IPC_TAG_GRANT) {
		if (!(rights & RIGHT_GRANT))
			return -EPERM;
		if (w2 >= HANDLE_MAX || !s->handles[w2].obj)
			return -EBADF;
		struct handle *g = &s->handles[w2];
		kobject_get(g->obj);
		m->grant = g->obj;
		m->grant_badge = g->badge;
		m->grant_rights = g->rights;
	}
	return 0;
}

/* A grant the message still carries (it did not go): dropped. */
static void drop_grant(struct ipc_state *s)
{
	if (s->msg.grant) {
		kobject_put(s->msg.grant);
		s->msg.grant = NULL;
	}
}

/* The message s received, into its registers and ubuf. */
static long deliver(struct ipc_state *s, void __user *ubuf)
{
	struct ipc_msg *m = &s->msg;
	struct pt_regs *regs = task_pt_regs(s->t);
	long ret = 0;
	if (m->grant) {
		int n = handle_install(s, m->grant, m->grant_badge, m->grant_rights);
		if (n < 0) {
			kobject_put(m->grant);
			m->tag &= ~IPC_TAG_GRANT;
			ret = n;
		}
		m->w[2] = n < 0 ? (u64)-1 : (u64)n;
		m->grant = NULL;
	}
	regs->rdi = m->badge;
	regs->rsi = m->tag;
	regs->rdx = m->w[0];
	regs->r10 = m->w[1];
	regs->r8 = m->w[2];
	u64 len = IPC_TAG_LEN(m->tag);
	if (len && (!ubuf || copy_to_user(ubuf, m->buf, len)))
		ret = -EFAULT;
	return ret;
}

static struct endpoint *lookup_ep(struct ipc_state *s, long h, u32 rights, u64 *badge,
				  u32 *has, int *err)
{
	struct handle *hd = handle_lookup(s, h, KOBJ_ENDPOINT, rights, err);
	if (!hd)
		return NULL;
	*badge = hd->badge;
	*has = hd->rights;
	return (struct endpoint *)hd->obj;
}

static long do_send(SYSCALL_ARGS, bool call)
{
	struct ipc_state *s = self();
	int err = 0;
	u64 badge;
	u32 rights;
	struct endpoint *ep = lookup_ep(s, (long)a0, RIGHT_SEND, &badge, &rights, &err);
	if (!ep)
		return err;
	long ret = load_msg(s, rights, a1, a2, a3, a4, (const void __user *)a5);
	if (!ret)
		ret = ipc_send(s, ep, badge, call);
	if (ret) /* not sent: the grant is still ours (once sent, s->msg.grant is the reply's) */
		drop_grant(s);
	else if (call)
		ret = deliver(s, (void __user *)a5);
	return ret;
}

long sys_ipc_send(SYSCALL_ARGS)
{
	return do_send(a0, a1, a2, a3, a4, a5, false);
}

long sys_ipc_call(SYSCALL_ARGS)
{
	return do_send(a0, a1, a2, a3, a4, a5, true);
}

/* recv(h, -, -, -, -, buf): buf is the sixth argument, as for the others. */
long sys_ipc_recv(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4;
	struct ipc_state *s = self();
	int err = 0;
	u64 badge;
	u32 rights;
	struct endpoint *ep = lookup_ep(s, (long)a0, RIGHT_RECV, &badge, &rights, &err);
	if (!ep)
		return err;
	long ret = ipc_recv(s, ep);
	return ret ? ret : deliver(s, (void __user *)a5);
}

/* A reply may grant a handle whatever the endpoint's rights: the reply
 * capability is the server's own, made by the call. */
long sys_ipc_reply(SYSCALL_ARGS)
{
	(void)a5;
	struct ipc_state *s = self();
	long ret = load_msg(s, RIGHT_GRANT, a0, a1, a2, a3, (const void __user *)a4);
	if (!ret)
		ret = ipc_reply(s);
	drop_grant(s);
	return ret;
}

long sys_ipc_reply_recv(SYSCALL_ARGS)
{
	struct ipc_state *s = self();
	int err = 0;
	u64 badge;
	u32 rights;
	struct endpoint *ep = lookup_ep(s, (long)a0, RIGHT_RECV, &badge, &rights, &err);
	if (!ep)
		return err;
	long ret = load_msg(s, RIGHT_GRANT, a1, a2, a3, a4, (const void __user *)a5);
	if (ret) {
		drop_grant(s);
		return ret;
	}
	ret = ipc_reply_recv(s, ep);
	return ret ? ret : deliver(s, (void __user *)a5);
}

long ipc_syscall_resume(struct pt_regs *regs)
{
	struct ipc_state *s = self();
	long ret = ipc_block(s);
	if (ret) {
		drop_grant(s);
		return ret;
	}
	return deliver(s, (void __user *)regs->r9);
}

long sys_endpoint_create(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	struct endpoint *ep = endpoint_create();
	if (!ep)
		return -ENOMEM;
	int h = handle_install(self(), &ep->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	if (h < 0)
		kobject_put(&ep->obj);
	return h;
}

long sys_notification_create(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	struct notification *n = notification_create();
	if (!n)
		return -ENOMEM;
	int h = handle_install(self(), &n->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	if (h < 0)
		kobject_put(&n->obj);
	return h;
}

long sys_handle_mint(SYSCALL_ARGS)
{
	(void)a3; (void)a4; (void)a5;
	if (a2 > RIGHTS_ALL)
		return -EINVAL;
	return handle_mint(self(), (long)a0, a1, (u32)a2);
}

long sys_handle_close(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	return handle_close(self(), (long)a0);
}

long sys_notify_signal(SYSCALL_ARGS)
{
	(void)a2; (void)a3; (void)a4; (void)a5;
	int err = 0;
	struct handle *hd = handle_lookup(self(), (long)a0, KOBJ_NOTIFICATION, RIGHT_SIGNAL, &err);
	if (!hd)
		return err;
	if (a1 >> NOTIFY_BITS)
		return -EINVAL;
	return notify_signal((struct notification *)hd->obj, (u32)(a1 | hd->badge));
}

long sys_notify_wait(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	int err = 0;
	struct ipc_state *s = self();
	struct handle *hd = handle_lookup(s, (long)a0, KOBJ_NOTIFICATION, RIGHT_WAIT, &err);
	if (!hd)
		return err;
	return notify_wait(s, (struct notification *)hd->obj);
}
