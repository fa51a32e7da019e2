/* serial_drv [prio=P]: the console's user-level driver, for the 16550
 * UART on COM1 (ports 0x3f8-0x3ff, IRQ 4). The kernel starts it at boot
 * with CAP_SYS_RAWIO (drivers/console_drv.c); any other process that tries
 * is refused (-EPERM).
 *
 * It takes the ports (ioperm), binds IRQ 4 to a notification (irq_bind)
 * and registers an endpoint as the console (console_register); from then
 * on every other process's write() to fd 1 or 2 arrives here as a call
 * (label CONSOLE_WRITE, the bytes as the payload), and it answers each
 * with the byte count once the bytes are in the UART. The transmitter is
 * interrupt-driven: it loads the 16-byte FIFO, then enables the
 * transmitter-empty interrupt (IER bit 1) and waits on the notification;
 * the kernel's handler masks the line and signals; the driver reads IIR
 * (which clears the interrupt), turns the interrupt off and irq_acks,
 * which unmasks the line. One interrupt per 16 bytes. PC16550D datasheet:
 * IER, IIR ("THR empty" has priority 3 and is cleared by reading IIR),
 * FIFO 16 bytes.
 *
 * prio=P runs it as SCHED_FIFO P (default: a normal thread). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"
#include "user/lib/ipc.h"
#include "user/lib/driver.h"

#define COM1 0x3f8
#define THR (COM1 + 0)
#define IER (COM1 + 1)
#define IIR (COM1 + 2)
#define IER_THRI 0x02
#define FIFO_SIZE 16

static int ntfn;
static unsigned room; /* bytes the FIFO takes before the next interrupt */

/* Wait for the transmitter to empty: its interrupt, through the kernel. */
static void wait_thr_empty(void)
{
	outb(IER, IER_THRI); /* raised at once if the THR is empty already */
	long bits = notify_wait(ntfn);
	(void)inb(IIR);      /* reading IIR clears the THR-empty interrupt */
	outb(IER, 0);
	if (bits > 0)
		irq_ack(IRQ_COM1);
	room = FIFO_SIZE;
}

static void put(char c)
{
	if (!room)
		wait_thr_empty();
	outb(THR, (u8)c);
	room--;
}

static void put_all(const char *s, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		if (s[i] == '\n')
			put('\r');
		put(s[i]);
	}
}

int main(int argc, char **argv)
{
	unsigned long prio = 0;
	for (int i = 1; i < argc; i++)
		if (parse_option(argv[i], "prio", &prio) != 1 || prio > SCHED_FIFO_PRIO_MAX) {
			dprintf(2, "serial_drv: usage: serial_drv [prio=0-99]\n");
			return 2;
		}
	if (prio) {
		struct sched_param sp = { (int)prio };
		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	int ep = (int)endpoint_create();
	ntfn = (int)notification_create();
	long r;
	if (ep < 0 || ntfn < 0) {
		dprintf(2, "serial_drv: no endpoint or notification (%d, %d)\n", ep, ntfn);
		return 1;
	}
	if ((r = ioperm(COM1, 8, 1))) {
		dprintf(2, "serial_drv: cannot take COM1's ports (error %ld)\n", r);
		return 1;
	}
	outb(IER, 0); /* quiet before the line is ours: a dead driver may have left THRI on */
	if ((r = irq_bind(IRQ_COM1, ntfn, 0))) {
		dprintf(2, "serial_drv: cannot bind IRQ 4 (error %ld)\n", r);
		return 1;
	}
	room = 0; /* the first byte waits for the transmitter: its interrupt */
	if ((r = console_register(ep))) {
		dprintf(2, "serial_drv: console_register: error %ld\n", r);
		return 1;
	}
	char buf[IPC_BUF_MAX];
	struct ipc_msg m = { 0 };
	r = ipc_recv(ep, &m, buf);
	for (;;) {
		unsigned long n = 0;
		if (r == 0 && IPC_TAG_LABEL(m.tag) == CONSOLE_WRITE) {
			n = IPC_TAG_LEN(m.tag);
			put_all(buf, n);
		}
		m.tag = IPC_TAG(0, 0);
		m.w[0] = n;
		m.w[1] = m.w[2] = 0;
		r = r == 0 ? ipc_reply_recv(ep, &m, buf) : ipc_recv(ep, &m, buf);
	}
}
