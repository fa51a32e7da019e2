/* IPC inside the kernel: objects, handle tables, the per-process IPC
 * state, and the operations the system calls (process/sys_ipc.c) and the
 * tests use. The user's view and the errors are uapi/ipc.h's.
 *
 *   ipc/object.c        objects (endpoints, notifications) and handles
 *   ipc/endpoint.c      send, recv, call, reply, reply_recv: the slow path
 *   ipc/fastpath.c      call and reply_recv from the system call entry,
 *                       straight to the partner on this CPU (seL4's
 *                       fastpath)
 *   ipc/notification.c  signal and wait
 *
 * Locking: a lock per object (struct kobject's `lock`, a raw spinlock:
 * the fast path switches with it held, IRQs off), so that IPC on one
 * endpoint never waits for IPC on another. An IPC operation touches two
 * threads and one object, and the object's lock covers all three:
 *
 *   - an endpoint's lock (class "endpoint") guards its queue, queue_recv
 *     and receivers; the wait of every thread queued on it; and every
 *     reply link made by a call through it: the server's reply_to, the
 *     caller's replier, and the caller's wait for the reply. The server
 *     keeps the endpoint of its link in reply_ep (a reference: the caller
 *     may close its handle once it is gone), the caller in wait_obj;
 *   - a notification's lock (class "notification") guards its bits, its
 *     waiter, and that waiter's ntfn and wait.
 *
 * A waiting thread's wait_obj, set by itself before it blocks, names the
 * object whose lock guards its wait: a kill (ipc_block()) takes that one.
 * A server that receives again while it still owes a reply fails that
 * caller first (-EPIPE, under the old link's lock), so a queued receiver
 * never owes one and a new link never has to undo an old one elsewhere.
 *
 * Lock order (lockdep-lite checks it, LOCKDEP=1): an endpoint, then a
 * run-queue lock (wake_up_thread(), sched_handoff_lock()); a notification,
 * then a run-queue lock; irq_notify.c's bind_lock, then a notification.
 * Two endpoints nest only in reply_recv's slow path, when the caller came
 * through another endpoint than the one received on: the lower address
 * first. No endpoint and notification are held together. The same-CPU
 * fast path takes one IPC lock: the endpoint's. ipc_describe() (ps) takes
 * none: it prints ids and a pid the IPC code copies into the state.
 * Handle tables need no lock: only their process changes its own table,
 * and the kernel writes into a receiver's table only from the receiver's
 * own system call (process/sys_ipc.c). */
#ifndef FOLD_IPC_IPC_H
#define FOLD_IPC_IPC_H
#include "lib/types.h"
#include "lib/list.h"
#include "kernel/locking/spinlock.h"
#include "uapi/ipc.h"
#include "sched/thread.h"

struct process;
struct thread;
struct fault_attr;

enum kobj_type { KOBJ_NONE, KOBJ_ENDPOINT, KOBJ_NOTIFICATION };

struct kobject {
	int type;
	u32 id;                  /* for ps and the log: ep#N, ntfn#N */
	volatile u32 refs;       /* handles, messages in flight, reply links */
	raw_spinlock_t lock;     /* the object's state: see the top */
};

struct endpoint {
	struct kobject obj;
	/* Threads waiting here, highest priority first, FIFO within one
	 * priority. All senders or all receivers: never both at once (a
	 * sender that finds a receiver hands over, and vice versa). */
	struct list_head queue;
	bool queue_recv;         /* the queue holds receivers */
	u32 receivers;           /* handles with RIGHT_RECV; 0: dead (-EPIPE) */
};

struct notification {
	struct kobject obj;
	u32 bits;
	struct ipc_state *waiter;
	/* Bound to an interrupt (ipc/irq_notify.c): when the first
	 * interrupt since the waiter last woke came (ktime_get_ns), 0 if
	 * none; the IRQ-to-driver latency is measured from it. */
	volatile u64 irq_stamp;
};

struct handle {
	struct kobject *obj;     /* NULL: a free slot */
	u64 badge;
	u32 rights;
};

/* A message in the kernel: what travels in registers, the payload, and
 * a granted object (a reference, or NULL). */
struct ipc_msg {
	u64 tag;
	u64 w[IPC_WORDS];
	u64 badge;
	struct kobject *grant;   /* a granted object: a reference, or NULL */
	u64 grant_badge;
	u32 grant_rights;
	u8 buf[IPC_BUF_MAX];
};

enum ipc_wait {
	IPC_RUNNING,             /* not waiting */
	IPC_WAIT_SEND,           /* queued on `ep` as a sender (call: then REPLY) */
	IPC_WAIT_RECV,           /* queued on `ep` as a receiver */
	IPC_WAIT_REPLY,          /* a call delivered: waiting for `replier` */
	IPC_WAIT_NOTIFY,         /* waiting on notification `ntfn` */
};

/* Each process's IPC state (fold processes have one thread). */
struct ipc_state {
	struct thread *t;
	struct process *proc;
	struct handle handles[HANDLE_MAX];
	/* Under the lock of the object it waits on (the top says which): */
	volatile int wait;       /* enum ipc_wait; back to IPC_RUNNING by the partner */
	bool parked;             /* blocked in the fast path (ipc/fastpath.c) */
	bool is_call;            /* a queued sender wants a reply */
	long result;             /* what the partner says: 0 or -errno */
	struct endpoint *ep;     /* where it is queued */
	struct notification *ntfn;
	struct list_head node;   /* on ep->queue */
	struct ipc_state *reply_to;  /* a server: the caller it owes a reply */
	struct ipc_state *replier;   /* a caller: the server holding its reply */
	/* Its own, set before it blocks: whose lock guards its wait. */
	struct kobject *wait_obj;
	/* A server: the endpoint its reply_to came through, a reference;
	 * set with reply_to, cleared only by the server itself. */
	struct endpoint *reply_ep;
	/* For ps, copied so that it reads no other object: the id of what
	 * it waits on, and its replier's pid. */
	volatile u32 wait_id;
	volatile int replier_pid;
	struct ipc_msg msg;      /* in: what it sends; out: what it received */
};

/* May `me`, sending to t, give this CPU straight to t (the fast path, or
 * the slow path's handoff)? t last ran here and may run here, and its
 * priority is no lower than me's. The CPU is a hint read under the
 * endpoint's lock; the run-queue lock's check (sched/handoff.c) is the
 * one that counts. */
static inline bool ipc_partner_here(const struct thread *me, const struct thread *t, u32 cpu)
{
	return READ_ONCE(t->cpu) == (int)cpu && (t->allowed_cpus & (1UL << cpu)) &&
	       t->prio >= me->prio;
}

/* ipc/object.c */
struct ipc_state *ipc_state_create(struct process *p, struct thread *t);
/* At exit, from the process itself: fail its caller, close every handle
 * (it is on no queue: ipc_block() leaves them). The memory stays until
 * the process is freed, for ps (ipc_state_destroy then). */
void ipc_state_exit(struct ipc_state *s);
void ipc_state_destroy(struct ipc_state *s);   /* exit (if not yet) and free */
struct endpoint *endpoint_create(void);
struct notification *notification_create(void);
void kobject_get(struct kobject *o);
void kobject_put(struct kobject *o);
/* Endpoints and notifications alive, and handles in every table (the
 * leak check, tests/fault/leak_check.h). */
u32 ipc_objects_live(void);
u32 ipc_handles_live(void);
extern struct fault_attr fail_kobject_alloc;
/* A free slot for o (the reference passes to the table): its number, or
 * -EMFILE. */
int handle_install(struct ipc_state *s, struct kobject *o, u64 badge, u32 rights);
/* Handle h of type `type` with all of `rights`: the slot, or NULL with
 * *err = -EBADF (no such handle, another type) or -EPERM (rights). */
struct handle *handle_lookup(struct ipc_state *s, long h, int type, u32 rights, int *err);
int handle_close(struct ipc_state *s, long h);
int handle_mint(struct ipc_state *s, long h, u64 badge, u32 rights);
/* A copy of the parent's handle h in the child's next slot (spawn). */
int handle_copy(struct ipc_state *from, long h, struct ipc_state *to);
/* "recv ep#3", "reply pid 12", "-" ...: what s waits for, for ps. */
void ipc_describe(struct ipc_state *s, char *buf, u64 len);

/* ipc/endpoint.c: each returns 0 or -errno; s->msg holds the message in
 * and out (a receive fills it, badge included). The caller copies the
 * payload in and out (process/sys_ipc.c). */
long ipc_send(struct ipc_state *s, struct endpoint *ep, u64 badge, bool call);
long ipc_recv(struct ipc_state *s, struct endpoint *ep);
long ipc_reply(struct ipc_state *s);
long ipc_reply_recv(struct ipc_state *s, struct endpoint *ep);
/* Sleep until s->wait is IPC_RUNNING (or a fatal signal: -EINTR, and s
 * leaves whatever it waited on). Returns s->result. */
long ipc_block(struct ipc_state *s);
/* A server that will not reply (it receives again, or exits): its caller,
 * if one still waits, gets -EPIPE. */
void ipc_reply_drop(struct ipc_state *s);

/* ipc/notification.c */
long notify_signal(struct notification *n, u32 bits);
long notify_wait(struct ipc_state *s, struct notification *n);
#endif
