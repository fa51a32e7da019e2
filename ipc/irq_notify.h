/* Interrupts bound to notifications (ipc/irq_notify.c): how a
 * user-level driver takes its device's IRQ. The system calls are
 * process/sys_irq.c's; the user's view uapi/irq.h. */
#ifndef FOLD_KERNEL_IRQ_NOTIFY_H
#define FOLD_KERNEL_IRQ_NOTIFY_H
#include "lib/types.h"

struct notification;
struct process;

/* Bind ISA line irq to bit `bit` of n for process p (which holds a
 * reference the binding now keeps): 0, -EINVAL, -EBUSY, -ENODEV. */
long irq_bind_notification(u32 irq, struct notification *n, u32 bit, struct process *p);
/* p has served the line: unmask it. 0, -EINVAL (not bound), -EPERM. */
long irq_ack(u32 irq, struct process *p);
/* p exits: every line it bound is masked and unbound. */
void irq_release_process(struct process *p);
/* The thread waiting on n runs again (ipc/notification.c): if an IRQ
 * signalled n (n->irq_stamp set: by irq_notify's handler, or by bench
 * udriver's timer), record the time from the interrupt to now. */
void irq_notify_woken(struct notification *n);

/* IRQ-to-driver latency, over the lines: what bench udriver reports. */
struct irq_latency {
	u64 irqs;          /* interrupts taken on bound lines */
	u64 samples;       /* wake-ups measured */
	u64 sum_ns, max_ns;
};
void irq_latency_snapshot(struct irq_latency *out);
void irq_latency_reset(void);  /* bench udriver, before each case */
/* The number of interrupts on line irq since boot (0 if never bound). */
u64 irq_notify_count(u32 irq);
/* The pid of the process that bound line irq, 0 if none. */
int irq_notify_owner(u32 irq);
#endif
