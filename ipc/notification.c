/* Notifications: seL4's asynchronous half of IPC. A word of bits that
 * signal() ORs in without blocking (from a process or, for a driver, from
 * an interrupt) and wait() takes all at once, blocking while it is 0.
 * Signals coalesce: two signals of one bit before a wait are one. Each
 * notification has its own lock (ipc/ipc.h), taken from interrupts too. */
#include "ipc/ipc.h"
#include "process/process.h"
#include "sched/sched.h"
#include "uapi/errno.h"
#include "ipc/irq_notify.h"

long notify_signal(struct notification *n, u32 bits)
{
	if (!bits)
		return 0;
	u64 f = raw_spin_lock_irqsave(&n->obj.lock);
	n->bits |= bits;
	struct ipc_state *w = n->waiter;
	if (w) {
		n->waiter = NULL;
		w->ntfn = NULL;
		w->result = n->bits;
		n->bits = 0;
		__atomic_store_n(&w->wait, IPC_RUNNING, __ATOMIC_SEQ_CST);
		wake_up_thread(w->t);
	}
	raw_spin_unlock_irqrestore(&n->obj.lock, f);
	return 0;
}

long notify_wait(struct ipc_state *s, struct notification *n)
{
	u64 f = raw_spin_lock_irqsave(&n->obj.lock);
	if (n->bits) {
		long bits = n->bits;
		n->bits = 0;
		raw_spin_unlock_irqrestore(&n->obj.lock, f);
		if (n->irq_stamp)
			irq_notify_woken(n);
		return bits;
	}
	if (n->waiter) {
		raw_spin_unlock_irqrestore(&n->obj.lock, f);
		return -EBUSY;
	}
	n->waiter = s;
	s->ntfn = n;
	s->wait_obj = &n->obj; /* a kill takes n's lock (ipc_block()) */
	WRITE_ONCE(s->wait_id, n->obj.id);
	s->wait = IPC_WAIT_NOTIFY;
	raw_spin_unlock_irqrestore(&n->obj.lock, f);
	long ret = ipc_block(s);
	if (ret > 0 && n->irq_stamp) /* a driver woken by its interrupt runs */
		irq_notify_woken(n);
	return ret;
}
