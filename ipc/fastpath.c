/* The IPC fast path, seL4's fastpath: a `call` that finds its server
 * waiting in recv on this CPU, and the server's `reply_recv` back to a
 * caller waiting on this CPU, each done in one function from the system
 * call entry (arch/x86_64/entry/syscall_64.asm) with IRQs off: check, move the
 * words, switch to the partner, and return to user mode from the
 * partner's saved registers. No message structure, no run queue, no
 * wake-up; a round trip is two system calls and two switches.
 *
 * The trick that makes it short is where a thread waits. One that blocks
 * here leaves nothing of its own on its kernel stack but its user
 * registers, the struct pt_regs at the top (it is "parked"). The partner
 * that ends its wait by the fast path writes the message straight into
 * those registers (where the return to ring 3 restores them: seL4's
 * message registers) and the entry code returns to user mode from them
 * (ipc_fastpath_finish). Anyone else may end its wait too (a sender on
 * the slow path, a kill, a server's death), and then the scheduler
 * switches to it as to any thread: for switch_to() a parked thread has a
 * frame that returns into ipc_fastpath_resume_entry, which finishes the
 * system call the slow path's way (ipc_fastpath_resume, process/sys_ipc.c).
 *
 * The partner need not be parked: one that waits on the slow path (its
 * first recv, or a call made while the server was busy) is switched to
 * with switch_to()'s frame and finds the message where the slow path puts
 * it. The next message comes back to a parked thread, so a ping-pong
 * settles on the short way after one round trip.
 *
 * A message takes the slow path (ipc/endpoint.c) when:
 *   - it has a payload or grants a handle (the tag is anything but a
 *     label), or the handle is bad or lacks the right;
 *   - work is pending for the sender: a reschedule (TIF_NEED_RESCHED or
 *     the lazy flag: the scheduler has a decision to make) or a signal;
 *   - call: no receiver waits on the endpoint, or the first one still
 *     owes an earlier caller its reply or holds a grant it never took;
 *   - reply_recv: there is no caller to answer, or anyone is queued on
 *     the endpoint (a sender: the recv half would not block; a receiver:
 *     the queue's priority order is the slow path's business), or the
 *     caller holds a grant it never took;
 *   - the partner last ran on another CPU or may not run on this one (a
 *     cross-CPU message: the wake-up sends the RESCHEDULE IPI there, which
 *     is what fold teaches), or its priority is below the sender's;
 *   - under the run-queue lock (sched_handoff_lock()): a thread queued here
 *     outranks the partner, the user FIFO band is throttled, or the
 *     partner is not asleep off every run queue (a kill woke it).
 * The slow path may still switch straight to a partner on this CPU (its
 * handoff, counted apart: ipc_handoff). */
#include "ipc/ipc.h"
#include "ipc/fastpath.h"
#include "process/process.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "process/syscall.h"
#include "kernel/trace/trace.h"
#include "kernel/entry/common.h"
#include "sched/sched.h"
#include "sched/handoff.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/entry/switch.h"
#include "uapi/syscall.h"

/* Any tag bit below the label: a payload length, a grant, or unknown. */
#define TAG_SLOW ((1UL << IPC_TAG_LABEL_SHIFT) - 1)

/* The words of me's message into the partner: its registers when it is
 * parked (it returns to user mode from them, the way deliver() in
 * process/sys_ipc.c would have written them), else its message, which its
 * own deliver() then takes. */
static __always_inline void move_words(const struct pt_regs *regs, struct ipc_state *to, u64 badge)
{
	if (to->parked) {
		struct pt_regs *d = task_pt_regs(to->t);
		d->rdi = badge;
		d->rsi = regs->rsi;
		d->rdx = regs->rdx;
		d->r10 = regs->r10;
		d->r8 = regs->r8;
		d->rax = 0;
	} else {
		struct ipc_msg *m = &to->msg;
		m->tag = regs->rsi;
		m->w[0] = regs->rdx;
		m->w[1] = regs->r10;
		m->w[2] = regs->r8;
		m->badge = badge;
	}
	to->result = 0;
	to->wait = IPC_RUNNING;
}

/* The partner, if this call can take the fast path (under ep's lock). */
static __always_inline struct ipc_state *call_partner(struct endpoint *ep)
{
	if (!ep->queue_recv || list_empty(&ep->queue))
		return NULL;
	struct ipc_state *r = list_first_entry(&ep->queue, struct ipc_state, node);
	/* reply_ep: it owes a caller, or has not yet dropped that link */
	return r->reply_ep || r->msg.grant ? NULL : r;
}

/* The reply link is ep's only if the call came through ep (reply_ep):
 * else it is under another endpoint's lock, and the slow path takes
 * both. */
static __always_inline struct ipc_state *reply_partner(struct ipc_state *s, struct endpoint *ep)
{
	struct ipc_state *c = s->reply_to;
	if (!c || s->reply_ep != ep || !list_empty(&ep->queue))
		return NULL;
	return c->msg.grant ? NULL : c;
}

struct ipc_fast_ret ipc_fastpath(struct pt_regs *regs)
{
	const struct ipc_fast_ret slow = { NULL, NULL };
	struct thread *me = current_thread();
	struct process *p = me->proc;
	struct ipc_state *s = p ? p->ipc : NULL;
	u64 h = regs->rdi;
	bool call = regs->error_code == __NR_ipc_call;
	if (!s || h >= HANDLE_MAX)
		return slow;
	/* LAB(L5) BEGIN: the sender's conditions: the slow path takes a
	 * message with anything but a label in its tag (a payload, a grant:
	 * TAG_SLOW), and a sender with work pending on its way back to user
	 * mode (EXIT_TO_USER_MODE_WORK in its flags: a reschedule, lazy or
	 * not, or a signal). */
	if ((regs->rsi & TAG_SLOW) || (READ_ONCE(me->flags) & EXIT_TO_USER_MODE_WORK))
		return slow;
	/* LAB(L5) END: return slow; */
	const struct handle *hd = &s->handles[h];
	if (!hd->obj || hd->obj->type != KOBJ_ENDPOINT ||
	    !(hd->rights & (call ? RIGHT_SEND : RIGHT_RECV)))
		return slow;
	struct endpoint *ep = (struct endpoint *)hd->obj;
	u32 cpu = raw_smp_processor_id();

	raw_spin_lock(&ep->obj.lock); /* the one IPC lock this path takes */
	struct ipc_state *to = call ? call_partner(ep) : reply_partner(s, ep);
	/* The partner's CPU read here is a hint (a cross-CPU message leaves
	 * without touching the run queue); sched_handoff_lock() checks it
	 * again under the lock. */
	if (!to || (call && !ep->receivers))
		goto out_ipc;
	/* LAB(L5) BEGIN: the partner's condition: it last ran on this CPU,
	 * may run here, and its priority is not below the sender's
	 * (ipc_partner_here(), ipc/ipc.h); else the slow path (out_ipc). */
	if (!ipc_partner_here(me, to->t, cpu))
		goto out_ipc;
	/* LAB(L5) END: (void)cpu; goto out_ipc; */
	struct rq *rq = sched_handoff_lock(me, to->t, cpu);
	if (!rq)
		goto out_ipc;

	/* Committed. The message, and who waits for what next. */
	trace_event(sys_enter, regs->error_code, regs);
	s->wait_obj = &ep->obj; /* what s waits on next: the reply, or a call */
	WRITE_ONCE(s->wait_id, ep->obj.id);
	if (call) {
		list_del_init(&to->node);
		to->ep = NULL;
		move_words(regs, to, hd->badge);
		/* the link's reference, as link_reply()'s kobject_get() */
		__atomic_fetch_add(&ep->obj.refs, 1, __ATOMIC_RELAXED);
		to->reply_ep = ep;
		to->reply_to = s;
		s->replier = to;
		WRITE_ONCE(s->replier_pid, to->proc ? to->proc->pid : 0);
		s->wait = IPC_WAIT_REPLY;
	} else {
		s->reply_to = NULL;
		s->reply_ep = NULL; /* its reference: put below, s's handle holds ep */
		to->replier = NULL;
		WRITE_ONCE(to->replier_pid, 0);
		move_words(regs, to, 0);
		list_add_tail(&s->node, &ep->queue); /* the queue was empty */
		ep->queue_recv = true;
		s->ep = ep;
		s->wait = IPC_WAIT_RECV;
	}
	this_cpu_stat_inc(syscalls);
	this_cpu_stat_inc(ipc_messages);
	this_cpu_stat_inc(ipc_fastpath);
	s->parked = true; /* its frame: PARK_FRAME, once off its stack */
	/* The lock's count stays: it is schedule()'s own, which a switch
	 * holds beside the run-queue lock's (SWITCH_PREEMPT_COUNT), and
	 * ipc_fastpath_finish() drops both at once. IRQs are off: nothing
	 * could preempt meanwhile anyway. */
	do_raw_spin_unlock(&ep->obj.lock);
	if (!call) /* never the last: s's handle hd holds ep */
		__atomic_fetch_sub(&ep->obj.refs, 1, __ATOMIC_RELEASE);

	/* The switch, as sched_handoff() makes it; `current` is next from
	 * here on, while this code still runs on me's stack. */
	struct thread *next = to->t;
	sched_handoff_prepare(rq, me, next);
	if (!to->parked) /* it waits inside switch_to(): it finishes there */
		switch_to_park(me, next);
	to->parked = false;
	return (struct ipc_fast_ret){ task_pt_regs(next), me };

out_ipc:
	raw_spin_unlock(&ep->obj.lock);
	return slow;
}

/* On the partner's stack, at its registers regs (syscall_64.asm): the
 * second half of the switch, then the partner's return to user mode. */
bool ipc_fastpath_finish(struct thread *prev, struct pt_regs *regs)
{
	/* the run-queue lock's count and the endpoint lock's, schedule()'s own */
	__finish_switch_irqs_off(prev, SWITCH_PREEMPT_COUNT);
	trace_event(sys_exit, regs->error_code, (long)regs->rax);
	return syscall_exit_to_user_mode(regs);
}

/* A parked thread that the scheduler switched to (syscall_64.asm): its
 * wait ended some other way. */
bool ipc_fastpath_resume(struct thread *prev, struct pt_regs *regs)
{
	finish_switch(prev);
	preempt_enable_no_resched(); /* schedule()'s own */
	current_process()->ipc->parked = false;
	this_cpu_stat_inc(ipc_unparked);
	regs->rax = (u64)ipc_syscall_resume(regs);
	trace_event(sys_exit, regs->error_code, (long)regs->rax);
	return syscall_exit_to_user_mode(regs);
}
