/* Endpoints: seL4's synchronous IPC (ipc/ipc.h, uapi/ipc.h).
 *
 * An endpoint holds no messages, only threads: senders waiting for a
 * receiver, or receivers waiting for a sender. Whoever comes second finds
 * the other queued, the message moves from one IPC state to the other
 * under the endpoint's lock, and the one that waited is made runnable. A
 * call is a send whose sender then waits for the reply: the receiver gets
 * the one-shot reply capability (s->reply_to, guarded by the lock of the
 * endpoint the call came through, s->reply_ep), and `reply` uses it up.
 *
 * Lock order (ipc/ipc.h): an endpoint, then a run-queue lock
 * (wake_up_thread() inside it). Nothing takes an endpoint's lock under a
 * run-queue lock. */
#include "ipc/ipc.h"
#include "process/process.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "kernel/cmdline.h"
#include "kernel/debug/checks.h"
#include "kernel/time/time.h"
#include "lib/string.h"
#include "uapi/errno.h"

/* ipc_handoff_delay=US, debug builds only: the slow path's direct switch
 * first sleeps that long once the endpoint's lock is dropped, the gap in
 * which a kill may wake the partner, which may then exit and be reaped
 * (switch_or_wake()). Asleep, not spinning, so that the partner, its
 * reaper and whoever is started in its place have the CPU meanwhile: a
 * storm of kills (ipcfuzz storm, user/ipcfuzz.c; ipc-storm in
 * tests/configs) then finds the gap every run instead of once in many. A
 * wake-up (the partner's death fails the call) does not end the sleep. */
static u32 ipc_handoff_delay;
static int set_ipc_handoff_delay(const char *v)
{
	return cmdline_u32(v, &ipc_handoff_delay, 0, 100000);
}
early_param(ipc_handoff_delay, set_ipc_handoff_delay, ipc_handoff_delay,
	    "microseconds, 0 to 100000 (debug builds)", "0");

static void handoff_delay(void)
{
	if (!DEBUG_CHECKS || likely(!READ_ONCE(ipc_handoff_delay)))
		return;
	u64 end = ktime_get_ns() + ipc_handoff_delay * 1000ULL;
	while (ktime_get_ns() < end)
		sleep_until(end);
}

/* Highest priority first, FIFO within one priority: before the first
 * waiter of a lower priority. */
static void ipc_enqueue(struct endpoint *ep, struct ipc_state *s, int wait, bool recv)
{
	struct list_head *pos = &ep->queue;
	struct ipc_state *it;
	list_for_each_entry(it, &ep->queue, node)
		if (it->t->prio < s->t->prio) {
			pos = &it->node;
			break;
		}
	list_add_tail(&s->node, pos);
	ep->queue_recv = recv;
	s->ep = ep;
	s->wait = wait;
}

static struct ipc_state *ipc_dequeue(struct endpoint *ep, bool recv)
{
	if (ep->queue_recv != recv || list_empty(&ep->queue))
		return NULL;
	struct ipc_state *w = list_first_entry(&ep->queue, struct ipc_state, node);
	list_del_init(&w->node);
	w->ep = NULL;
	return w;
}

/* The message from `from` to `to`: registers, payload, grant. */
static void transfer(struct ipc_state *from, struct ipc_state *to, u64 badge)
{
	struct ipc_msg *m = &from->msg, *d = &to->msg;
	d->tag = m->tag;
	for (int i = 0; i < IPC_WORDS; i++)
		d->w[i] = m->w[i];
	d->badge = badge;
	u64 len = IPC_TAG_LEN(m->tag);
	if (len)
		memcpy(d->buf, m->buf, len);
	if (d->grant) /* one the receiver never took: dropped */
		kobject_put(d->grant);
	d->grant = m->grant;
	d->grant_badge = m->grant_badge;
	d->grant_rights = m->grant_rights;
	m->grant = NULL;
	this_cpu_stat_inc(ipc_messages);
}

/* Under ep's lock: a call from c through ep has reached server s, which
 * owes no earlier caller (a receiver drops that link first). */
static void link_reply(struct ipc_state *s, struct ipc_state *c, struct endpoint *ep)
{
	BUG_ON(s->reply_to || s->reply_ep);
	kobject_get(&ep->obj);
	s->reply_ep = ep;
	s->reply_to = c;
	c->replier = s;
	WRITE_ONCE(c->replier_pid, s->proc ? s->proc->pid : 0);
	c->wait = IPC_WAIT_REPLY;
}

/* The slow path's direct switch. s is about to block for a reply or a
 * message, and `to` has just been given one by s: on this CPU, with a
 * priority no lower than s's and nothing pending for s (the conditions
 * the endpoint's lock can see; sched_handoff() checks the run queue's), s
 * hands its CPU straight to `to` instead of waking it onto the run queue.
 * A payload or a grant is why most messages come this way rather than by
 * the fast path (ipc/fastpath.c). */
static bool ipc_handoff_ok(const struct ipc_state *s, const struct ipc_state *to)
{
	const struct thread *me = s->t, *t = to->t;
	u32 cpu = raw_smp_processor_id();
	if (!ipc_partner_here(me, t, cpu))
		return false;
	if (READ_ONCE(me->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY | _TIF_SIGPENDING))
		return false;
	return !to->msg.grant; /* the receiver installs it itself, either way */
}

/* The direct switch comes after the endpoint's lock is dropped, and the
 * partner's wait ended under it: from then on a kill may wake the
 * partner, which returns, exits and is reaped, its ipc_state and thread
 * freed, before this CPU gets here. So the caller takes the partner's
 * thread, and a reference to it, under the lock and before the wait ends
 * (pin_partner()): Linux's rule for a waker that uses a task past the
 * lock that kept it from exiting (get_task_struct(): wake_q_add(),
 * ipc/mqueue.c's pipelined_send()). A dead thread says THREAD_DEAD: the
 * handoff and the wake-up then do nothing. The fast path has no such gap:
 * it ends the wait under the run-queue lock that a kill's wake-up needs,
 * and switches before that lock is dropped. */
static struct thread *pin_partner(struct ipc_state *to)
{
	get_task_struct(to->t);
	return to->t;
}

/* Under the lock that ends to's wait: s will sleep, and hands its CPU to
 * to if it may. SLEEPING before the test of s's flags, the order of
 * sched/wait.h: a kill before the store is seen by the test, and one
 * after it finds s SLEEPING and wakes it (sched_handoff() switches only
 * from a sleeping thread, so the switch becomes a wake-up). Tested first,
 * a kill between the two would find s RUNNING, wake nothing, and s would
 * sleep with it pending. */
static struct thread *handoff_prepare(struct ipc_state *s, struct ipc_state *to)
{
	__atomic_store_n(&s->t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	if (ipc_handoff_ok(s, to))
		return pin_partner(to);
	__atomic_store_n(&s->t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	return NULL;
}

static void switch_or_wake(struct thread *next)
{
	handoff_delay();
	if (sched_handoff(next))
		this_cpu_stat_inc(ipc_handoff);
	else
		wake_up_thread(next);
	put_task_struct(next);
}

static void make_runnable(struct ipc_state *w, long result)
{
	w->result = result;
	__atomic_store_n(&w->wait, IPC_RUNNING, __ATOMIC_SEQ_CST);
}

/* s is about to wait on o (its own fields: nobody else writes them). */
static void wait_on(struct ipc_state *s, struct kobject *o)
{
	s->wait_obj = o;
	WRITE_ONCE(s->wait_id, o->id);
}

long ipc_send(struct ipc_state *s, struct endpoint *ep, u64 badge, bool call)
{
	u64 f = raw_spin_lock_irqsave(&ep->obj.lock);
	if (!ep->receivers) {
		raw_spin_unlock_irqrestore(&ep->obj.lock, f);
		return -EPIPE;
	}
	s->is_call = call;
	wait_on(s, &ep->obj); /* the send, and a call's reply */
	struct ipc_state *r = ipc_dequeue(ep, true);
	if (!r) {
		s->msg.badge = badge;
		ipc_enqueue(ep, s, IPC_WAIT_SEND, false);
		raw_spin_unlock_irqrestore(&ep->obj.lock, f);
		return ipc_block(s);
	}
	transfer(s, r, badge);
	if (!call) {
		make_runnable(r, 0);
		wake_up_thread(r->t);
		raw_spin_unlock_irqrestore(&ep->obj.lock, f);
		return 0;
	}
	link_reply(r, s, ep);
	/* the reply can only come from r, which runs next */
	struct thread *next = handoff_prepare(s, r);
	make_runnable(r, 0); /* r may run; exit once the lock is dropped */
	if (!next)
		wake_up_thread(r->t);
	raw_spin_unlock_irqrestore(&ep->obj.lock, f);
	if (next)
		switch_or_wake(next);
	return ipc_block(s);
}

/* Under ep's lock: take a queued sender's message, if there is one. */
static bool recv_queued(struct ipc_state *s, struct endpoint *ep)
{
	struct ipc_state *w = ipc_dequeue(ep, false);
	if (!w)
		return false;
	transfer(w, s, w->msg.badge);
	s->result = 0;
	if (w->is_call) {
		link_reply(s, w, ep); /* w waits on, for the reply */
	} else {
		make_runnable(w, 0);
		wake_up_thread(w->t);
	}
	return true;
}

long ipc_recv(struct ipc_state *s, struct endpoint *ep)
{
	ipc_reply_drop(s);
	u64 f = raw_spin_lock_irqsave(&ep->obj.lock);
	if (recv_queued(s, ep)) {
		raw_spin_unlock_irqrestore(&ep->obj.lock, f);
		return 0;
	}
	wait_on(s, &ep->obj);
	ipc_enqueue(ep, s, IPC_WAIT_RECV, true);
	raw_spin_unlock_irqrestore(&ep->obj.lock, f);
	return ipc_block(s);
}

/* Under s->reply_ep's lock: the reply to s's caller, if it still waits
 * (a caller killed meanwhile cleared reply_to), for the caller of this to
 * make runnable. The link is used up; the caller puts s's reference to
 * reply_ep once the lock is dropped. */
static struct ipc_state *reply_locked(struct ipc_state *s)
{
	struct ipc_state *c = s->reply_to;
	s->reply_ep = NULL;
	if (!c)
		return NULL;
	s->reply_to = NULL;
	c->replier = NULL;
	WRITE_ONCE(c->replier_pid, 0);
	transfer(s, c, 0);
	return c;
}

long ipc_reply(struct ipc_state *s)
{
	struct endpoint *e = s->reply_ep;
	if (!e)
		return -ESRCH;
	u64 f = raw_spin_lock_irqsave(&e->obj.lock);
	struct ipc_state *c = reply_locked(s);
	if (c) {
		make_runnable(c, 0);
		wake_up_thread(c->t);
	}
	raw_spin_unlock_irqrestore(&e->obj.lock, f);
	kobject_put(&e->obj);
	return c ? 0 : -ESRCH;
}

void ipc_reply_drop(struct ipc_state *s)
{
	struct endpoint *e = s->reply_ep;
	if (!e)
		return;
	u64 f = raw_spin_lock_irqsave(&e->obj.lock);
	struct ipc_state *c = s->reply_to;
	s->reply_ep = NULL;
	if (c) {
		s->reply_to = NULL;
		c->replier = NULL;
		WRITE_ONCE(c->replier_pid, 0);
		make_runnable(c, -EPIPE);
		wake_up_thread(c->t);
	}
	raw_spin_unlock_irqrestore(&e->obj.lock, f);
	kobject_put(&e->obj);
}

/* reply, then recv, as one step under the locks: the caller is made
 * runnable and the server is queued as a receiver before either runs, so
 * the client's next call finds the server waiting (the fast path's
 * condition) however the two are scheduled. The reply takes the lock of
 * the endpoint the call came through: ep's own, as a rule; else both,
 * the lower address first. */
long ipc_reply_recv(struct ipc_state *s, struct endpoint *ep)
{
	struct endpoint *e = s->reply_ep;
	struct endpoint *first = e && e < ep ? e : ep, *second = e && e != ep ? (e < ep ? ep : e) : NULL;
	u64 f = raw_spin_lock_irqsave(&first->obj.lock);
	if (second)
		raw_spin_lock(&second->obj.lock);
	struct ipc_state *c = e ? reply_locked(s) : NULL;
	bool queued = recv_queued(s, ep);
	struct thread *next = NULL;
	if (!queued) {
		wait_on(s, &ep->obj);
		ipc_enqueue(ep, s, IPC_WAIT_RECV, true);
		if (c) /* a sender would wake s from now on: it is queued */
			next = handoff_prepare(s, c);
	}
	if (c) {
		make_runnable(c, 0); /* c may run; exit once the lock is dropped */
		if (!next)
			wake_up_thread(c->t);
	}
	if (second)
		raw_spin_unlock(&second->obj.lock);
	raw_spin_unlock_irqrestore(&first->obj.lock, f);
	if (e)
		kobject_put(&e->obj);
	if (queued)
		return 0;
	if (next)
		switch_or_wake(next);
	return ipc_block(s);
}

/* Under s->wait_obj's lock: s stops waiting, killed. */
static void ipc_leave(struct ipc_state *s)
{
	if (!list_empty(&s->node))
		list_del_init(&s->node);
	s->ep = NULL;
	if (s->replier) { /* the link came through wait_obj: its lock is held */
		s->replier->reply_to = NULL;
		s->replier = NULL;
		WRITE_ONCE(s->replier_pid, 0);
	}
	if (s->ntfn) {
		if (s->ntfn->waiter == s)
			s->ntfn->waiter = NULL;
		s->ntfn = NULL;
	}
	make_runnable(s, -EINTR);
}

long ipc_block(struct ipc_state *s)
{
	struct thread *t = s->t;
	for (;;) {
		/* SLEEPING before the test: a partner sets wait, then wakes
		 * (the order of sched/wait.h). */
		__atomic_store_n(&t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&s->wait, __ATOMIC_SEQ_CST) == IPC_RUNNING) {
			/* s may see its wait ended before its waker, on another
			 * CPU, has called wake_up_thread(s->t) (s never slept, or
			 * a kill woke it): s must not return, exit and be freed
			 * under it. Every waker ends the wait and wakes under
			 * wait_obj's lock, so one pass through it waits it out. */
			u64 f = raw_spin_lock_irqsave(&s->wait_obj->lock);
			raw_spin_unlock_irqrestore(&s->wait_obj->lock, f);
			break;
		}
		if (fatal_signal_pending(s->proc)) {
			/* wait_obj is alive: s holds a handle to it while it
			 * waits, and only s closes its handles. */
			raw_spinlock_t *l = &s->wait_obj->lock;
			u64 f = raw_spin_lock_irqsave(l);
			if (s->wait != IPC_RUNNING)
				ipc_leave(s);
			raw_spin_unlock_irqrestore(l, f);
			break;
		}
		schedule();
	}
	__atomic_store_n(&t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	return s->result;
}
