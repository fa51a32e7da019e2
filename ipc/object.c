/* IPC objects and handle tables (ipc/ipc.h).
 *
 * An object lives while something refers to it: a handle in some table,
 * or a message carrying it as a grant. A handle is a slot number in its
 * process's table, so a process names only what it holds: a number it
 * was not given is a free slot or another object (-EBADF), and a right
 * it was not given is -EPERM. Nothing a user passes indexes memory
 * outside its own table. */
#include "ipc/ipc.h"
#include "process/process.h"
#include "mm/mm.h"
#include "kernel/panic.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/debug/checks.h"
#include "sched/sched.h"
#include "lib/string.h"
#include "lib/format.h"
#include "uapi/errno.h"

static volatile u32 next_obj_id = 1;
static volatile u32 objects_live, handles_live; /* atomic */

/* endpoint_create() and notification_create() return NULL (the system
 * calls: -ENOMEM), with the boot option fail_kobject_alloc= (kernel/debug/
 * fault_inject.h): the objects' own failure, apart from failslab's. */
DEFINE_FAULT_ATTR(fail_kobject_alloc);

static void kobject_init(struct kobject *o, int type)
{
	o->type = type;
	o->id = __atomic_fetch_add(&next_obj_id, 1, __ATOMIC_RELAXED);
	o->refs = 1;
	__atomic_fetch_add(&objects_live, 1, __ATOMIC_RELAXED);
}

struct endpoint *endpoint_create(void)
{
	if (should_fail(&fail_kobject_alloc, sizeof(struct endpoint)))
		return NULL;
	struct endpoint *ep = kzalloc(sizeof(*ep));
	if (!ep)
		return NULL;
	kobject_init(&ep->obj, KOBJ_ENDPOINT);
	/* raw: the fast path switches with it held, IRQs off */
	raw_spin_lock_init(&ep->obj.lock, "endpoint");
	INIT_LIST_HEAD(&ep->queue);
	return ep;
}

struct notification *notification_create(void)
{
	if (should_fail(&fail_kobject_alloc, sizeof(struct notification)))
		return NULL;
	struct notification *n = kzalloc(sizeof(*n));
	if (!n)
		return NULL;
	kobject_init(&n->obj, KOBJ_NOTIFICATION);
	/* raw: an interrupt signals it (ipc/irq_notify.c) */
	raw_spin_lock_init(&n->obj.lock, "notification");
	return n;
}

void kobject_get(struct kobject *o)
{
	__atomic_fetch_add(&o->refs, 1, __ATOMIC_RELAXED);
}

/* The last reference: nothing can be queued on the object any more (a
 * queued thread holds a handle to it). */
void kobject_put(struct kobject *o)
{
	if (__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		__atomic_fetch_sub(&objects_live, 1, __ATOMIC_RELAXED);
		kfree(o);
	}
}

u32 ipc_objects_live(void)
{
	return __atomic_load_n(&objects_live, __ATOMIC_RELAXED);
}

u32 ipc_handles_live(void)
{
	return __atomic_load_n(&handles_live, __ATOMIC_RELAXED);
}

/* Under ep's lock: the last handle that could receive on ep is gone, so
 * every sender queued there (and every later one) gets -EPIPE. */
static void endpoint_kill_senders(struct endpoint *ep)
{
	while (!ep->queue_recv && !list_empty(&ep->queue)) {
		struct ipc_state *w = list_first_entry(&ep->queue, struct ipc_state, node);
		list_del_init(&w->node);
		w->ep = NULL;
		w->result = -EPIPE;
		__atomic_store_n(&w->wait, IPC_RUNNING, __ATOMIC_SEQ_CST);
		wake_up_thread(w->t);
	}
}

static void handle_release(struct handle *hd)
{
	struct kobject *o = hd->obj;
	if (o->type == KOBJ_ENDPOINT && (hd->rights & RIGHT_RECV)) {
		struct endpoint *ep = (struct endpoint *)o;
		u64 f = raw_spin_lock_irqsave(&ep->obj.lock);
		if (--ep->receivers == 0)
			endpoint_kill_senders(ep);
		raw_spin_unlock_irqrestore(&ep->obj.lock, f);
	}
	hd->obj = NULL;
	__atomic_fetch_sub(&handles_live, 1, __ATOMIC_RELAXED);
	kobject_put(o);
}

int handle_install(struct ipc_state *s, struct kobject *o, u64 badge, u32 rights)
{
	for (int h = 0; h < HANDLE_MAX; h++) {
		struct handle *hd = &s->handles[h];
		if (hd->obj)
			continue;
		if (o->type == KOBJ_ENDPOINT && (rights & RIGHT_RECV)) {
			u64 f = raw_spin_lock_irqsave(&o->lock);
			((struct endpoint *)o)->receivers++;
			raw_spin_unlock_irqrestore(&o->lock, f);
		}
		hd->badge = badge;
		hd->rights = rights;
		hd->obj = o;
		__atomic_fetch_add(&handles_live, 1, __ATOMIC_RELAXED);
		return h;
	}
	return -EMFILE;
}

struct handle *handle_lookup(struct ipc_state *s, long h, int type, u32 rights, int *err)
{
	/* One unsigned compare rejects negative numbers too. */
	if ((unsigned long)h >= HANDLE_MAX || !s->handles[h].obj ||
	    s->handles[h].obj->type != type) {
		*err = -EBADF;
		return NULL;
	}
	struct handle *hd = &s->handles[h];
	if ((hd->rights & rights) != rights) {
		*err = -EPERM;
		return NULL;
	}
	return hd;
}

int handle_close(struct ipc_state *s, long h)
{
	if ((unsigned long)h >= HANDLE_MAX || !s->handles[h].obj)
		return -EBADF;
	handle_release(&s->handles[h]);
	return 0;
}

/* seL4's mint: a copy with a subset of the rights and, from an unbadged
 * handle only, a badge (a badge cannot be changed once set, or a client
 * could pass for another). */
int handle_mint(struct ipc_state *s, long h, u64 badge, u32 rights)
{
	if ((unsigned long)h >= HANDLE_MAX || !s->handles[h].obj)
		return -EBADF;
	struct handle *hd = &s->handles[h];
	if (rights & ~RIGHTS_ALL)
		return -EINVAL;
	if ((rights & hd->rights) != rights)
		return -EPERM;
	if (badge && hd->badge)
		return -EPERM;
	kobject_get(hd->obj);
	int n = handle_install(s, hd->obj, badge ? badge : hd->badge, rights);
	if (n < 0)
		kobject_put(hd->obj);
	return n;
}

int handle_copy(struct ipc_state *from, long h, struct ipc_state *to)
{
	if ((unsigned long)h >= HANDLE_MAX || !from->handles[h].obj)
		return -EBADF;
	struct handle *hd = &from->handles[h];
	kobject_get(hd->obj);
	int n = handle_install(to, hd->obj, hd->badge, hd->rights);
	if (n < 0)
		kobject_put(hd->obj);
	return n;
}

struct ipc_state *ipc_state_create(struct process *p, struct thread *t)
{
	struct ipc_state *s = kzalloc(sizeof(*s));
	if (!s)
		return NULL;
	s->proc = p;
	s->t = t;
	INIT_LIST_HEAD(&s->node);
	return s;
}

void ipc_state_exit(struct ipc_state *s)
{
	/* A caller waiting for this process's reply: the server died. */
	ipc_reply_drop(s);
	/* ipc_block() took it off any queue before an exit could run. */
	BUG_ON(!list_empty(&s->node) || s->replier);
	if (s->msg.grant) {
		kobject_put(s->msg.grant);
		s->msg.grant = NULL;
	}
	for (int h = 0; h < HANDLE_MAX; h++)
		if (s->handles[h].obj)
			handle_release(&s->handles[h]);
}

void ipc_state_destroy(struct ipc_state *s)
{
	ipc_state_exit(s); /* a second time finds nothing to do */
	/* Debug builds poison it, as Linux's slab debugging does (POISON_FREE,
	 * include/linux/poison.h): whoever still reads it finds a
	 * non-canonical thread pointer and faults at once, rather than
	 * going on with a stale one. */
	if (DEBUG_CHECKS)
		memset(s, 0x6b, sizeof(*s));
	kfree(s);
}

/* No lock (ipc/ipc.h): the state's own copies, a moment's picture. */
void ipc_describe(struct ipc_state *s, char *buf, u64 len)
{
	u32 id = READ_ONCE(s->wait_id);
	int pid = READ_ONCE(s->replier_pid);
	switch (READ_ONCE(s->wait)) {
	case IPC_WAIT_SEND:
		snprintf(buf, len, "%s ep#%u", s->is_call ? "call" : "send", id);
		break;
	case IPC_WAIT_RECV:
		snprintf(buf, len, "recv ep#%u", id);
		break;
	case IPC_WAIT_REPLY:
		if (pid)
			snprintf(buf, len, "reply from %d", pid);
		else
			snprintf(buf, len, "reply");
		break;
	case IPC_WAIT_NOTIFY:
		snprintf(buf, len, "wait ntfn#%u", id);
		break;
	default:
		snprintf(buf, len, "-");
	}
}
