/* Endpoints: seL4's synchronous IPC (ipc/ipc.h, uapi/ipc.h).
 *
 * An endpoint holds no messages, only threads: senders waiting for a
 * receiver, or receivers waiting for a sender. Whoever comes second finds
 * the other queued, the message moves from one IPC state to the other
 * under ipc_lock, and the one that waited is made runnable. A call is a
 * send whose sender then waits for the reply: the receiver gets the
 * one-shot reply capability (s->reply_to), and `reply` uses it up.
 *
 * Lock order: ipc_lock, then a run-queue lock (wake_up_thread() inside
 * ipc_lock). Nothing takes ipc_lock under a run-queue lock. */
#include "ipc/ipc.h"
#include "process/process.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "lib/string.h"
#include "uapi/errno.h"

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

/* Under ipc_lock: a call from c has reached server s. */
static void link_reply(struct ipc_state *s, struct ipc_state *c)
{
	if (s->reply_to) { /* an unanswered call before this one */
		struct ipc_state *old = s->reply_to;
		old->replier = NULL;
		old->result = -EPIPE;
		__atomic_store_n(&old->wait, IPC_RUNNING, __ATOMIC_SEQ_CST);
		wake_up_thread(old->t);
	}
	s->reply_to = c;
	c->replier = s;
	c->wait = IPC_WAIT_REPLY;
}

/* The slow path's direct switch. s is about to block for a reply or a
 * message, and `to` has just been given one by s: on this CPU, with a
 * priority no lower than s's and nothing pending for s (the conditions
 * ipc_lock can see; sched_handoff() checks the run queue's), s hands its
 * CPU straight to `to` instead of waking it onto the run queue. A payload
 * or a grant is why most messages come this way rather than by the fast
 * path (ipc/fastpath.c). */
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

static void switch_or_wake(struct ipc_state *to)
{
	if (sched_handoff(to->t)) {
		this_cpu_stat_inc(ipc_handoff);
		return;
	}
	wake_up_thread(to->t);
}

static void make_runnable(struct ipc_state *w, long result)
{
	w->result = result;
	__atomic_store_n(&w->wait, IPC_RUNNING, __ATOMIC_SEQ_CST);
}

long ipc_send(struct ipc_state *s, struct endpoint *ep, u64 badge, bool call)
{
	u64 f = raw_spin_lock_irqsave(&ipc_lock);
	if (!ep->receivers) {
		raw_spin_unlock_irqrestore(&ipc_lock, f);
		return -EPIPE;
	}
	s->is_call = call;
	struct ipc_state *r = ipc_dequeue(ep, true);
	if (!r) {
		s->msg.badge = badge;
		ipc_enqueue(ep, s, IPC_WAIT_SEND, false);
		raw_spin_unlock_irqrestore(&ipc_lock, f);
		return ipc_block(s);
	}
	transfer(s, r, badge);
	make_runnable(r, 0);
	if (!call) {
		wake_up_thread(r->t);
		raw_spin_unlock_irqrestore(&ipc_lock, f);
		return 0;
	}
	link_reply(r, s);
	bool direct = ipc_handoff_ok(s, r);
	if (direct) /* the reply can only come from r, which runs next */
		__atomic_store_n(&s->t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	else
		wake_up_thread(r->t);
	raw_spin_unlock_irqrestore(&ipc_lock, f);
	if (direct)
		switch_or_wake(r);
	return ipc_block(s);
}

/* Under ipc_lock: take a queued sender's message, if there is one. */
static bool recv_queued(struct ipc_state *s, struct endpoint *ep)
{
	struct ipc_state *w = ipc_dequeue(ep, false);
	if (!w)
		return false;
	transfer(w, s, w->msg.badge);
	s->result = 0;
	if (w->is_call) {
		link_reply(s, w); /* w waits on, for the reply */
	} else {
		make_runnable(w, 0);
		wake_up_thread(w->t);
	}
	return true;
}

long ipc_recv(struct ipc_state *s, struct endpoint *ep)
{
	u64 f = raw_spin_lock_irqsave(&ipc_lock);
	if (recv_queued(s, ep)) {
		raw_spin_unlock_irqrestore(&ipc_lock, f);
		return 0;
	}
	ipc_enqueue(ep, s, IPC_WAIT_RECV, true);
	raw_spin_unlock_irqrestore(&ipc_lock, f);
	return ipc_block(s);
}

/* Under ipc_lock: the reply to s's caller, if it still waits. */
static struct ipc_state *reply_locked(struct ipc_state *s)
{
	struct ipc_state *c = s->reply_to;
	if (!c)
		return NULL;
	s->reply_to = NULL;
	c->replier = NULL;
	transfer(s, c, 0);
	make_runnable(c, 0);
	return c;
}

long ipc_reply(struct ipc_state *s)
{
	u64 f = raw_spin_lock_irqsave(&ipc_lock);
	struct ipc_state *c = reply_locked(s);
	if (c)
		wake_up_thread(c->t);
	raw_spin_unlock_irqrestore(&ipc_lock, f);
	return c ? 0 : -ESRCH;
}

/* reply, then recv, as one step under the lock: the caller is made
 * runnable and the server is queued as a receiver before either runs, so
 * the client's next call finds the server waiting (the fast path's
 * condition) however the two are scheduled. */
long ipc_reply_recv(struct ipc_state *s, struct endpoint *ep)
{
	u64 f = raw_spin_lock_irqsave(&ipc_lock);
	struct ipc_state *c = reply_locked(s);
	if (recv_queued(s, ep)) {
		if (c)
			wake_up_thread(c->t);
		raw_spin_unlock_irqrestore(&ipc_lock, f);
		return 0;
	}
	ipc_enqueue(ep, s, IPC_WAIT_RECV, true);
	bool direct = c && ipc_handoff_ok(s, c);
	if (direct) /* a sender would wake s from now on: it is queued */
		__atomic_store_n(&s->t->state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
	else if (c)
		wake_up_thread(c->t);
	raw_spin_unlock_irqrestore(&ipc_lock, f);
	if (direct)
		switch_or_wake(c);
	return ipc_block(s);
}

/* Under ipc_lock: s stops waiting, killed. */
static void ipc_leave(struct ipc_state *s)
{
	if (!list_empty(&s->node))
		list_del_init(&s->node);
	s->ep = NULL;
	if (s->replier) {
		s->replier->reply_to = NULL;
		s->replier = NULL;
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
		if (__atomic_load_n(&s->wait, __ATOMIC_SEQ_CST) == IPC_RUNNING)
			break;
		if (fatal_signal_pending(s->proc)) {
			u64 f = raw_spin_lock_irqsave(&ipc_lock);
			if (s->wait != IPC_RUNNING)
				ipc_leave(s);
			raw_spin_unlock_irqrestore(&ipc_lock, f);
			break;
		}
		schedule();
	}
	__atomic_store_n(&t->state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
	return s->result;
}
