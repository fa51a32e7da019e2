/* An interrupt line bound to a notification: seL4's IRQHandler with
 * IRQHandler_SetNotification and IRQHandler_Ack, fold-sized. The kernel's
 * handler for the line does the least it can: it masks the line at the
 * I/O APIC (the device keeps asserting until the driver serves it, and
 * the driver runs later, in ring 3), sends the local APIC its EOI
 * (first, as the timer's and the IPIs' handlers do), and
 * signals the bound bit. The driver serves the device through its ports,
 * then irq_ack()s, which unmasks the line. Linux's equivalent for a
 * user-space driver is VFIO's or UIO's: the line masked in the kernel's
 * handler, unmasked by a write from user space (Documentation/driver-api/
 * uio-howto.rst, "irqcontrol").
 *
 * With threaded interrupts (PREEMPT_RT, or the threadirqs option:
 * kernel/irq/irq_thread.h) the hard handler masks the line, notes the
 * time and wakes the line's thread, irq/N-notify, which signals the bit.
 *
 * Each line is bound at most once, by a process with CAP_SYS_RAWIO, and
 * unbound when that process exits. One lock, bind_lock, orders the
 * handler against bind and unbind on another CPU (the handler then takes
 * the notification's lock inside it, through notify_signal()). */
#include "ipc/irq_notify.h"
#include "process/process.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/time.h"
#include "kernel/irq/irq_thread.h"
#include "kernel/percpu.h"
#include "arch/x86_64/kernel/apic/ioapic.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/regs.h"
#include "ipc/ipc.h"
#include "uapi/irq.h"
#include "uapi/errno.h"

struct irq_binding {
	struct notification *n;  /* NULL: unbound */
	u32 bit;
	struct process *owner;
	int pid;
	u64 count;               /* interrupts since boot */
	bool routed;             /* the I/O APIC entry and the vector are set */
	u64 stamp;               /* the hard handler's time, for the thread */
	struct irq_thread thread; /* threaded interrupts only */
};

static struct irq_binding bindings[NR_ISA_IRQS];
static DEFINE_RAW_SPINLOCK(bind_lock); /* raw: the hard handler takes it */
static struct irq_latency lat; /* under bind_lock */

/* The handler's work, in hard interrupt context or in the line's thread:
 * signal the bound bit. */
static void irq_notify_work(u32 irq, u64 stamp)
{
	struct irq_binding *b = &bindings[irq];
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	struct notification *n = b->n;
	if (n) {
		b->count++;
		lat.irqs++;
		if (!n->irq_stamp)  /* the first interrupt the waiter has not seen */
			n->irq_stamp = stamp;
		notify_signal(n, 1U << b->bit);
	}
	raw_spin_unlock_irqrestore(&bind_lock, f);
}

static void irq_notify_thread_fn(void *arg)
{
	u32 irq = (u32)(u64)arg;
	irq_notify_work(irq, READ_ONCE(bindings[irq].stamp));
}

static void irq_notify_handler(struct pt_regs *regs)
{
	u32 irq = (u32)(regs->vector - IRQ_VECTOR_BASE);
	struct irq_binding *b = &bindings[irq];
	apic_eoi();
	u64 now = ktime_get_ns();
	raw_spin_lock(&bind_lock);
	/* Masked until the driver acks: an edge line would not fire again
	 * before then anyway, but a level one (or a device raising its line
	 * again at once) would storm. */
	ioapic_mask(irq);
	b->stamp = now;
	bool threaded = force_irqthreads && b->thread.t;
	raw_spin_unlock(&bind_lock);
	if (threaded)
		irq_thread_wake(&b->thread);
	else
		irq_notify_work(irq, now);
}

long irq_bind_notification(u32 irq, struct notification *n, u32 bit, struct process *p)
{
	if (irq >= NR_ISA_IRQS || !IRQ_BINDABLE(irq) || bit >= NOTIFY_BITS)
		return -EINVAL;
	if (!ioapic_init())
		return -ENODEV;
	struct irq_binding *b = &bindings[irq];
	/* The thread first: making it may sleep. */
	if (force_irqthreads && irq_thread_start(&b->thread, irq, "notify",
						 irq_notify_thread_fn, (void *)(u64)irq))
		return -ENOMEM;
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	if (b->n) {
		raw_spin_unlock_irqrestore(&bind_lock, f);
		return -EBUSY;
	}
	if (!b->routed) {
		irq_register(IRQ_VECTOR_BASE + (int)irq, irq_notify_handler, "irq-notify");
		/* CPU 0 takes it: the driver's latency is measured there. */
		b->routed = ioapic_route_isa(irq, IRQ_VECTOR_BASE + irq, per_cpu(apic_id, 0));
	}
	if (!b->routed) {
		raw_spin_unlock_irqrestore(&bind_lock, f);
		return -ENODEV;
	}
	kobject_get(&n->obj);
	n->irq_stamp = 0;
	b->n = n;
	b->bit = bit;
	b->owner = p;
	b->pid = p ? p->pid : 0;
	ioapic_unmask(irq);
	raw_spin_unlock_irqrestore(&bind_lock, f);
	pr_info("irq: IRQ %u bound to %s[%d]'s ntfn#%u bit %u (vector %#x)\n", irq,
		p ? p->name : "kernel", b->pid, n->obj.id, bit, IRQ_VECTOR_BASE + irq);
	return 0;
}

long irq_ack(u32 irq, struct process *p)
{
	if (irq >= NR_ISA_IRQS)
		return -EINVAL;
	struct irq_binding *b = &bindings[irq];
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	long ret = 0;
	if (!b->n)
		ret = -EINVAL;
	else if (b->owner != p)
		ret = -EPERM;
	else
		ioapic_unmask(irq);
	raw_spin_unlock_irqrestore(&bind_lock, f);
	return ret;
}

void irq_release_process(struct process *p)
{
	for (u32 irq = 0; irq < NR_ISA_IRQS; irq++) {
		struct irq_binding *b = &bindings[irq];
		/* Only p's own irq_bind() makes p an owner, and p is exiting:
		 * a line that is not p's now never will be. Most processes own
		 * none, and their exits on two CPUs must not meet on bind_lock. */
		if (READ_ONCE(b->owner) != p)
			continue;
		u64 f = raw_spin_lock_irqsave(&bind_lock);
		struct notification *n = b->owner == p ? b->n : NULL;
		if (n) {
			ioapic_mask(irq);
			b->n = NULL;
			b->owner = NULL;
			b->pid = 0;
		}
		raw_spin_unlock_irqrestore(&bind_lock, f);
		if (n) {
			pr_info("irq: IRQ %u unbound (%s[%d] exits)\n", irq, p->name, p->pid);
			kobject_put(&n->obj);
		}
	}
}

void irq_notify_woken(struct notification *n)
{
	u64 now = ktime_get_ns();
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	u64 stamp = n->irq_stamp;
	n->irq_stamp = 0;
	if (stamp && now >= stamp) {
		u64 d = now - stamp;
		lat.samples++;
		lat.sum_ns += d;
		if (d > lat.max_ns)
			lat.max_ns = d;
	}
	raw_spin_unlock_irqrestore(&bind_lock, f);
}

void irq_latency_snapshot(struct irq_latency *out)
{
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	*out = lat;
	raw_spin_unlock_irqrestore(&bind_lock, f);
}

u64 irq_notify_count(u32 irq)
{
	return irq < NR_ISA_IRQS ? READ_ONCE(bindings[irq].count) : 0;
}

int irq_notify_owner(u32 irq)
{
	return irq < NR_ISA_IRQS ? READ_ONCE(bindings[irq].pid) : 0;
}

void irq_latency_reset(void)
{
	u64 f = raw_spin_lock_irqsave(&bind_lock);
	lat.samples = lat.sum_ns = lat.max_ns = 0;
	raw_spin_unlock_irqrestore(&bind_lock, f);
}
