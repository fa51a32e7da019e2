/* The system calls of user-level drivers (uapi/irq.h): ioperm, irq_bind,
 * irq_ack, console_register. Each needs CAP_SYS_RAWIO, which only the
 * kernel gives (process/process.h); the checks come in this order, so a
 * process without it learns nothing else: the capability (-EPERM), the
 * numbers (-EINVAL), the handle (-EBADF, or -EPERM for a missing right),
 * then the state (-EBUSY). */
#include "process/syscall.h"
#include "process/process.h"
#include "ipc/irq_notify.h"
#include "drivers/console_drv.h"
#include "mm/user_mm.h"
#include "mm/mm.h"
#include "kernel/printk.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/kernel/apic/ioapic.h"
#include "arch/x86_64/cpu.h"
#include "ipc/ipc.h"
#include "uapi/irq.h"
#include "uapi/errno.h"
#include "lib/string.h"

/* ioperm(from, num, on), Linux's call and semantics
 * (arch/x86/kernel/ioport.c): clear (on) or set the bits of ports
 * from..from+num-1 in the process's I/O permission bit map, made all-set
 * on first use; this CPU's TSS takes it at once, the others at their next
 * switch to the process (a process has one thread: it runs here). Linux
 * covers all 65536 ports; fold's map stops at IOPERM_PORTS (the UART and
 * the other legacy ports are below it), past which -EINVAL. */
long sys_ioperm(SYSCALL_ARGS)
{
	(void)a3; (void)a4; (void)a5;
	u64 from = a0, num = a1;
	struct process *p = current_process();
	if (!process_capable(p, CAP_SYS_RAWIO))
		return -EPERM;
	if (num == 0 || from >= IOPERM_PORTS || num > IOPERM_PORTS - from)
		return -EINVAL;
	struct mm *mm = p->mm;
	if (!mm->io_bitmap) {
		if (!a2)
			return 0; /* nothing to turn off */
		u8 *bm = kmalloc(IO_BITMAP_BYTES);
		if (!bm)
			return -ENOMEM;
		memset(bm, 0xff, IO_BITMAP_BYTES);
		mm->io_bitmap = bm;
	}
	for (u64 port = from; port < from + num; port++) {
		if (a2)
			mm->io_bitmap[port / 8] &= (u8)~(1U << (port % 8));
		else
			mm->io_bitmap[port / 8] |= (u8)(1U << (port % 8));
	}
	/* The map's new version: every CPU that switches to this process
	 * copies it in (its TSS holds another number), this one now. */
	u64 f = local_irq_save();
	__atomic_store_n(&mm->io_bitmap_seq, io_bitmap_next_seq(), __ATOMIC_RELEASE);
	tss_load_io_bitmap(mm->io_bitmap, mm->io_bitmap_seq);
	local_irq_restore(f);
	pr_info("ioperm: %s[%d] %s ports %#llx-%#llx\n", p->name, p->pid, a2 ? "takes" : "gives up",
		(unsigned long long)from, (unsigned long long)(from + num - 1));
	return 0;
}

long sys_irq_bind(SYSCALL_ARGS)
{
	(void)a3; (void)a4; (void)a5;
	struct process *p = current_process();
	if (!process_capable(p, CAP_SYS_RAWIO))
		return -EPERM;
	if (a0 >= NR_ISA_IRQS || !IRQ_BINDABLE(a0) || a2 >= NOTIFY_BITS)
		return -EINVAL;
	int err = 0;
	struct handle *hd = handle_lookup(p->ipc, (long)a1, KOBJ_NOTIFICATION, RIGHT_SIGNAL, &err);
	if (!hd)
		return err;
	return irq_bind_notification((u32)a0, (struct notification *)hd->obj, (u32)a2, p);
}

long sys_irq_ack(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	struct process *p = current_process();
	if (!process_capable(p, CAP_SYS_RAWIO))
		return -EPERM;
	if (a0 >= NR_ISA_IRQS)
		return -EINVAL;
	return irq_ack((u32)a0, p);
}

long sys_console_register(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	struct process *p = current_process();
	if (!process_capable(p, CAP_SYS_RAWIO))
		return -EPERM;
	int err = 0;
	struct handle *hd = handle_lookup(p->ipc, (long)a0, KOBJ_ENDPOINT, RIGHT_RECV, &err);
	if (!hd)
		return err;
	return console_drv_register(p, (struct endpoint *)hd->obj);
}
