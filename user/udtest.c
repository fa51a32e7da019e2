/* udtest MODE: the udriver suite's user side (tests/kernel/test_udriver.c).
 *   print N    N lines "# udtest: line I of N" on stdout (KTAP comments):
 *              through the serial driver when it is up
 *   out        OUT to the UART's data port 0x3f8 without ioperm: the #GP
 *              must kill it (SIGSEGV); it prints "udtest: survived" and
 *              exits 3 if not
 *   fill N     N bytes on stdout as lines "# udtest fill ....." (bench
 *              udriver's load for the driver)
 *   wait N [prio=P]  notify_wait() on handle 0 until bit 1 comes (bench
 *              udriver's timer-driven waiter, bench/bench_udriver.c),
 *              N times at most, as SCHED_FIFO P if P > 0
 *   giveup     with CAP_SYS_RAWIO: take COM2's ports and read one, give
 *              them up and read again: the #GP must kill it; it prints
 *              "udtest: survived" and exits 3 if not
 *   nocap      without CAP_SYS_RAWIO every driver call is -EPERM
 *   errors     with CAP_SYS_RAWIO (the test gives it), while the serial
 *              driver holds IRQ 4 and the console: each bad argument gets
 *              its errno (uapi/irq.h), then IRQ 3 binds and acks
 * nocap and errors print one line per check and exit 0 if every one
 * gave what it should, 1 if not. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "lib/string.h"
#include "user/lib/syscall.h"
#include "user/lib/ipc.h"
#include "user/lib/driver.h"

static int bad;

static void check(const char *what, long got, long want)
{
	printf("udtest: %s: %ld (want %ld)%s\n", what, got, want, got == want ? "" : " WRONG");
	bad += got != want;
}

static int nocap(void)
{
	int n = (int)notification_create(), ep = (int)endpoint_create();
	check("irq_bind without CAP_SYS_RAWIO", irq_bind(IRQ_COM1, n, 0), -EPERM);
	check("irq_ack without CAP_SYS_RAWIO", irq_ack(IRQ_COM1), -EPERM);
	check("ioperm without CAP_SYS_RAWIO", ioperm(0x3f8, 8, 1), -EPERM);
	check("console_register without CAP_SYS_RAWIO", console_register(ep), -EPERM);
	return bad ? 1 : 0;
}

static int errors(void)
{
	int n = (int)notification_create(), ep = (int)endpoint_create();
	int n_nosig = (int)handle_mint(n, 0, RIGHT_WAIT);
	check("irq_bind unknown IRQ 99", irq_bind(99, n, 0), -EINVAL);
	check("irq_bind IRQ 0 (the kernel's)", irq_bind(0, n, 0), -EINVAL);
	check("irq_bind bit 32", irq_bind(IRQ_COM2, n, 32), -EINVAL);
	check("irq_bind bad handle 31", irq_bind(IRQ_COM2, 31, 0), -EBADF);
	check("irq_bind an endpoint handle", irq_bind(IRQ_COM2, ep, 0), -EBADF);
	check("irq_bind a handle without RIGHT_SIGNAL", irq_bind(IRQ_COM2, n_nosig, 0), -EPERM);
	check("irq_bind IRQ 4, bound by the driver", irq_bind(IRQ_COM1, n, 0), -EBUSY);
	check("irq_ack IRQ 4, another process's", irq_ack(IRQ_COM1), -EPERM);
	check("irq_ack IRQ 3, bound by nobody", irq_ack(IRQ_COM2), -EINVAL);
	check("irq_ack IRQ 99", irq_ack(99), -EINVAL);
	check("irq_bind IRQ 3", irq_bind(IRQ_COM2, n, 5), 0);
	check("irq_bind IRQ 3 again", irq_bind(IRQ_COM2, n, 6), -EBUSY);
	check("irq_ack IRQ 3", irq_ack(IRQ_COM2), 0);
	check("ioperm past 0x3ff", ioperm(0x3f8, 16, 1), -EINVAL);
	check("ioperm 0 ports", ioperm(0x2f8, 0, 1), -EINVAL);
	check("ioperm COM2's ports", ioperm(0x2f8, 8, 1), 0);
	(void)inb(0x2fd); /* allowed now: COM2's LSR (0xff if there is no COM2) */
	check("console_register while the driver holds it", console_register(ep), -EBUSY);
	check("console_register a notification", console_register(n), -EBADF);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		dprintf(2, "usage: udtest print N | fill N | wait N [prio=P] | out | giveup | nocap | errors\n");
		return 2;
	}
	if (!strcmp(argv[1], "print")) {
		unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
		for (unsigned long i = 1; i <= n; i++)
			printf("# udtest: line %lu of %lu\n", i, n);
		return 0;
	}
	if (!strcmp(argv[1], "fill")) {
		unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 64;
		char line[64];
		while (n >= 16) {
			unsigned long k = n < sizeof(line) ? n : sizeof(line);
			memset(line, '.', k);
			memcpy(line, "# udtest fill ", 14);
			line[k - 1] = '\n';
			write(1, line, k);
			n -= k;
		}
		return 0;
	}
	if (!strcmp(argv[1], "wait")) {
		unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1, prio = 0;
		if (argc > 3 && parse_option(argv[3], "prio", &prio) == 1 && prio) {
			struct sched_param sp = { (int)prio };
			sched_setscheduler(0, SCHED_FIFO, &sp);
		}
		for (unsigned long i = 0; i < n; i++) {
			long bits = notify_wait(0);
			if (bits < 0)
				return 1;
			if (bits & 2) /* the last round */
				return 0;
		}
		return 0;
	}
	if (!strcmp(argv[1], "out")) {
		printf("udtest: out to port 0x3f8 from pid %ld\n", getpid());
		outb(0x3f8, 'X');
		printf("udtest: survived\n");
		return 3;
	}
	if (!strcmp(argv[1], "giveup")) {
		if (ioperm(0x2f8, 8, 1) != 0)
			return 1;
		(void)inb(0x2fd);
		printf("udtest: read COM2's LSR with its ports\n");
		if (ioperm(0x2f8, 8, 0) != 0)
			return 1;
		(void)inb(0x2fd);
		printf("udtest: survived\n");
		return 3;
	}
	if (!strcmp(argv[1], "nocap"))
		return nocap();
	if (!strcmp(argv[1], "errors"))
		return errors();
	dprintf(2, "udtest: unknown mode %s\n", argv[1]);
	return 2;
}
