/* The console's output through a user-level driver (user/serial_drv.c).
 *
 * What goes where once the driver has taken over:
 *   - write() to fd 1 or 2 by any other process: an IPC call on the
 *     driver's endpoint (label CONSOLE_WRITE, up to IPC_BUF_MAX bytes a
 *     call), made by the kernel on the writer's behalf with the writer's
 *     own IPC state, so the writer blocks until the driver has put the
 *     bytes in the UART and replied: the fast path when both are on one
 *     CPU (ipc/fastpath.c), a cross-CPU wake-up otherwise.
 *   - printk (the kernel log, the shell's own output): the kernel's
 *     console, straight to the port, as before (arch/x86_64/kernel/serial.c).
 *     As in Linux, the kernel's console stays the kernel's: a log line
 *     must get out from any context, IRQs off, a lock held, in a panic,
 *     where an IPC call cannot be made. Lines of the two may interleave
 *     at line granularity, as printk and a tty do on a Linux console.
 *   - the driver's own writes: straight to the port (it would be calling
 *     itself).
 * When the driver exits (killed, crashed), console_drv_exit() takes the
 * console back with a log line; a writer blocked in a call to it gets
 * -EPIPE (ipc/endpoint.c: the endpoint's last receiver is gone) and
 * writes the rest itself, so no output is lost. */
#include "drivers/console_drv.h"
#include "process/process.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "boot/module.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "ipc/ipc.h"
#include "uapi/irq.h"
#include "uapi/errno.h"
#include "lib/string.h"
#include "lib/format.h"
#include "uapi/syscall.h"
#include "kernel/cmdline.h"
#include "lib/parse.h"

int serial_drv_option = -1;

static int set_serial_drv(const char *v)
{
	static const char *const w[] = { "off", "on", "auto" };
	int i = match_word(v, w, 3);
	if (i < 0)
		return -1;
	serial_drv_option = i == 2 ? -1 : i;
	return 0;
}
early_param(serial_drv, set_serial_drv, serial_drv_option,
	    "on, off or auto (the user-level serial driver; auto: on unless test=)", "auto");

static DEFINE_SPINLOCK(drv_lock); /* spinlock_t: process context only; sleeps on PREEMPT_RT */
static struct endpoint *drv_ep;     /* a reference, under drv_lock */
static struct process *drv;
static int drv_pid;                /* set with drv; cleared after the exit's log line */
static struct console_drv_stats st;

long console_drv_register(struct process *p, struct endpoint *ep)
{
	u64 f = spin_lock_irqsave(&drv_lock);
	if (drv) {
		spin_unlock_irqrestore(&drv_lock, f);
		return -EBUSY;
	}
	kobject_get(&ep->obj);
	drv_ep = ep;
	drv = p;
	drv_pid = p->pid;
	st.takeovers++;
	spin_unlock_irqrestore(&drv_lock, f);
	pr_info("serial: user-level driver %s (pid %d) took over the console: user output "
		"goes through it (ep#%u), printk stays on the kernel's path\n",
		p->name, p->pid, ep->obj.id);
	return 0;
}

/* The endpoint, with a reference, unless there is no driver or the
 * writer is the driver. */
static struct endpoint *get_ep(struct process *self)
{
	u64 f = spin_lock_irqsave(&drv_lock);
	struct endpoint *ep = drv && self != drv ? drv_ep : NULL;
	if (ep)
		kobject_get(&ep->obj);
	spin_unlock_irqrestore(&drv_lock, f);
	return ep;
}

static bool drv_write(const char *s, u64 n, u64 *done)
{
	struct process *self = current_process();
	*done = 0;
	if (!self || !self->ipc || !READ_ONCE(drv))
		return false;
	struct endpoint *ep = get_ep(self);
	if (!ep)
		return false;
	struct ipc_state *is = self->ipc;
	bool ok = true;
	while (*done < n) {
		u64 k = MIN(n - *done, (u64)IPC_BUF_MAX);
		struct ipc_msg *m = &is->msg;
		m->tag = IPC_TAG(CONSOLE_WRITE, k);
		m->w[0] = m->w[1] = m->w[2] = 0;
		m->grant = NULL;
		memcpy(m->buf, s + *done, k);
		long ret = ipc_send(is, ep, (u64)self->pid, true);
		if (m->grant) { /* the driver has no business granting: dropped */
			kobject_put(m->grant);
			m->grant = NULL;
		}
		if (ret) {
			ok = false;
			break;
		}
		u64 f = spin_lock_irqsave(&drv_lock);
		st.writes++;
		st.bytes += k;
		spin_unlock_irqrestore(&drv_lock, f);
		*done += k;
	}
	kobject_put(&ep->obj);
	if (!ok) {
		u64 f = spin_lock_irqsave(&drv_lock);
		st.fallbacks++;
		spin_unlock_irqrestore(&drv_lock, f);
	}
	return ok;
}

void console_user_write(const char *s, u64 n)
{
	u64 done = 0;
	if (drv_write(s, n, &done))
		return;
	console_write(s + done, n - done);
	u64 f = spin_lock_irqsave(&drv_lock);
	st.direct_bytes += n - done;
	spin_unlock_irqrestore(&drv_lock, f);
}

void console_drv_exit(struct process *p)
{
	u64 f = spin_lock_irqsave(&drv_lock);
	struct endpoint *ep = drv == p ? drv_ep : NULL;
	if (ep) {
		drv = NULL;
		drv_ep = NULL;
		st.exits++;
	}
	spin_unlock_irqrestore(&drv_lock, f);
	if (!ep)
		return;
	kobject_put(&ep->obj);
	pr_warn("serial: user-level driver %s (pid %d) exited: the kernel writes the console "
		"itself again\n", p->name, p->pid);
	/* drv_pid last: console_drv_stop() returns when it reads 0, and its
	 * caller must find the line above in the log by then (the udriver
	 * suite read the log in between once, on a loaded 4-CPU host). Unless
	 * a new driver registered in the meantime: its pid stays. */
	f = spin_lock_irqsave(&drv_lock);
	if (!drv && drv_pid == p->pid)
		drv_pid = 0;
	spin_unlock_irqrestore(&drv_lock, f);
}

int console_drv_pid(void)
{
	return READ_ONCE(drv_pid);
}

void console_drv_stats(struct console_drv_stats *out)
{
	u64 f = spin_lock_irqsave(&drv_lock);
	*out = st;
	spin_unlock_irqrestore(&drv_lock, f);
}

static bool wait_pid(int pid, u64 ns)
{
	u64 deadline = ktime_get_ns() + ns;
	while (console_drv_pid() != pid && ktime_get_ns() < deadline)
		sleep_ns(1000000);
	return console_drv_pid() == pid;
}

int console_drv_stop(void)
{
	int pid = console_drv_pid();
	if (pid && !process_kill(pid, SIGKILL) && !wait_pid(0, 5000000000ULL)) {
		pr_warn("serial: driver pid %d did not exit within 5 s\n", pid);
		return -ETIMEDOUT;
	}
	return 0;
}

int console_drv_start(u64 cpus, u32 prio)
{
	if (!module_find("serial_drv")) {
		pr_warn("serial: no serial_drv program in this ISO: the kernel keeps the console\n");
		return -ENOENT;
	}
	char pr[24];
	snprintf(pr, sizeof(pr), "prio=%u", prio);
	const char *argv[] = { "serial_drv", pr };
	struct spawn_args a = { "serial_drv", 2, argv, NULL, true, cpus, NULL, 0, NULL };
	int err = 0;
	struct process *p = process_spawn_caps(&a, CAP_SYS_RAWIO, &err);
	if (!p) {
		pr_warn("serial: cannot start serial_drv (error %d): the kernel keeps the console\n",
			err);
		return err;
	}
	int pid = p->pid; /* p is detached: it may be gone by the time the wait ends */
	if (!wait_pid(pid, 5000000000ULL)) {
		pr_warn("serial: serial_drv (pid %d) did not register within 5 s: the kernel "
			"keeps the console\n", pid);
		return -ETIMEDOUT;
	}
	return 0;
}
