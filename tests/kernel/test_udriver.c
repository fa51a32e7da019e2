/* The udriver suite: the console's user-level driver (user/serial_drv.c,
 * drivers/console_drv.c, ipc/irq_notify.c, process/sys_irq.c), with
 * user/udtest.c on the other side.
 *   - after the takeover a process's output goes through the driver: the
 *     bytes it wrote are the bytes the driver answered for, and IRQ 4 fired
 *     (the driver transmits by interrupt), and they reach the console
 *     (the row greps its lines);
 *   - a process that does OUT to 0x3f8 without the ports dies of the #GP
 *     (SIGSEGV, a "trap general protection fault" line), on each CPU, and
 *     the driver and the kernel go on;
 *   - irq_bind, irq_ack, ioperm and console_register: -EPERM without
 *     CAP_SYS_RAWIO, and with it each bad argument its errno;
 *   - the driver killed: the kernel says so and writes the console itself,
 *     nothing lost, even of a write in flight.
 * A kernel panic after the takeover still reaching the port is the row
 * udriver-panic (tests/configs). Runs last-case-kills-the-driver: keep
 * driver_killed_fallback last. */
#include "tests/kernel/ktest.h"
#include "process/process.h"
#include "drivers/console_drv.h"
#include "ipc/irq_notify.h"
#include "process/syscall.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "kernel/smp.h"
#include "sched/sched.h"
#include "tests/kernel/user_run.h"
#include "uapi/syscall.h"
#include "uapi/irq.h"
#include "lib/string.h"
#include "lib/parse.h"
#include "arch/x86_64/kernel/apic/ioapic.h"

static char outbuf[USER_OUT_MAX];
static bool started_here; /* the boot did not start a driver: stop ours at the end */

/* Run "udtest ARGS..." with capabilities caps; what it wrote in outbuf
 * (quiet: kept off the console), its wait status. */
static int run_udtest(struct ktest *t, const char *args, u32 caps, bool quiet, u64 cpus)
{
	char line[128];
	char *argv[8];
	strlcpy(line, args, sizeof(line));
	int argc = (int)split_words(line, argv, ARRAY_SIZE(argv));
	struct printk_capture cap = { outbuf, sizeof(outbuf), 0, quiet };
	outbuf[0] = 0;
	struct spawn_args a = { "udtest", argc, (const char *const *)argv, NULL, false, cpus,
				NULL, 0, NULL };
	int err = 0;
	user_write_capture = &cap;
	struct process *p = process_spawn_caps(&a, caps, &err);
	int status = p ? process_wait(p) : -1;
	user_write_capture = NULL;
	KT_EXPECT_EQ(t, err, 0);
	return status;
}

static bool driver_up(struct ktest *t)
{
	if (!user_have(t, "serial_drv") || !user_have(t, "udtest"))
		return false;
	if (!ioapic_init()) {
		ktest_skip(t, "no I/O APIC: IRQ 4 cannot be bound");
		return false;
	}
	if (!console_drv_pid()) {
		console_drv_start(0, 0);
		started_here = true;
	}
	return KT_EXPECT(t, console_drv_pid() != 0);
}

static void takeover_output(struct ktest *t)
{
	if (!driver_up(t))
		return;
	struct console_drv_stats a, b;
	console_drv_stats(&a);
	u64 irqs = irq_notify_count(IRQ_COM1);
	/* Not quiet: the lines go to the console (through the driver), and
	 * the capture sees them too. KTAP comments, so the stream stays valid. */
	int status = run_udtest(t, "udtest print 5", 0, false, 0);
	console_drv_stats(&b);
	KT_EXPECT_EQ(t, status, W_EXITCODE(0));
	KT_EXPECT_STR_CONTAINS(t, outbuf, "# udtest: line 5 of 5\n");
	/* Every byte it wrote went by a call the driver answered. */
	KT_EXPECT_EQ(t, b.bytes - a.bytes, strlen(outbuf));
	KT_EXPECT_OP(t, b.writes - a.writes, >=, 5);
	KT_EXPECT_EQ(t, b.fallbacks, a.fallbacks);
	/* ~110 bytes with their \r: the driver waited for the UART's
	 * transmitter interrupt once per 16. */
	u64 got = irq_notify_count(IRQ_COM1) - irqs;
	KT_EXPECT_OP(t, got, >=, strlen(outbuf) / 16);
	ktest_diag(t, "driver pid %d: %llu bytes in %llu calls, IRQ 4 %llu times", console_drv_pid(),
		   (unsigned long long)(b.bytes - a.bytes), (unsigned long long)(b.writes - a.writes),
		   (unsigned long long)got);
}

static void out_killed(struct ktest *t)
{
	if (!driver_up(t))
		return;
	int drv = console_drv_pid();
	for_each_online_cpu(c) {
		u64 pos = log_head;
		char log[1024];
		int status = run_udtest(t, "udtest out", 0, true, 1UL << c);
		log_read(&pos, log, sizeof(log));
		KT_EXPECT(t, WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
		KT_EXPECT_STR_CONTAINS(t, log, "trap general protection fault");
		KT_EXPECT(t, !strstr(outbuf, "survived"));
		ktest_diag(t, "CPU %u: udtest killed by signal %d", c, WTERMSIG(status));
		/* the driver still serves (its output goes through it) */
		struct console_drv_stats a, b;
		console_drv_stats(&a);
		KT_EXPECT_EQ(t, run_udtest(t, "udtest print 1", 0, false, 1UL << c), W_EXITCODE(0));
		console_drv_stats(&b);
		KT_EXPECT_OP(t, b.bytes, >, a.bytes);
	}
	KT_EXPECT_EQ(t, console_drv_pid(), drv);
}

/* ioperm() off again: the next IN faults at once, with no switch in
 * between (the TSS holds the map's new version, not the one it copied
 * when the ports were taken), on every CPU. */
static void ioperm_given_up(struct ktest *t)
{
	if (!driver_up(t))
		return;
	for_each_online_cpu(c) {
		int status = run_udtest(t, "udtest giveup", CAP_SYS_RAWIO, true, 1UL << c);
		KT_EXPECT_STR_CONTAINS(t, outbuf, "udtest: read COM2's LSR with its ports");
		KT_EXPECT(t, WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
		KT_EXPECT(t, !strstr(outbuf, "survived"));
		if (!WIFSIGNALED(status))
			ktest_diag(t, "CPU %u: udtest giveup exited %d:\n%s", c, WEXITSTATUS(status),
				   outbuf);
	}
}

static void irq_bind_errors(struct ktest *t)
{
	if (!driver_up(t))
		return;
	int status = run_udtest(t, "udtest nocap", 0, true, 0);
	KT_EXPECT_EQ(t, status, W_EXITCODE(0));
	KT_EXPECT(t, !strstr(outbuf, "WRONG"));
	KT_EXPECT_STR_CONTAINS(t, outbuf, "console_register without CAP_SYS_RAWIO: -1 (want -1)");
	u64 pos = log_head;
	char log[2048];
	status = run_udtest(t, "udtest errors", CAP_SYS_RAWIO, true, 0);
	log_read(&pos, log, sizeof(log));
	KT_EXPECT_EQ(t, status, W_EXITCODE(0));
	KT_EXPECT(t, !strstr(outbuf, "WRONG"));
	KT_EXPECT_STR_CONTAINS(t, outbuf, "irq_bind IRQ 4, bound by the driver: -16 (want -16)");
	KT_EXPECT_STR_CONTAINS(t, log, "IRQ 3 unbound");
	if (strstr(outbuf, "WRONG"))
		ktest_diag(t, "udtest errors said:\n%s", outbuf);
	/* IRQ 3 is free again: bindable by the next one */
	KT_EXPECT_EQ(t, irq_notify_owner(IRQ_COM2), 0);
	KT_EXPECT_EQ(t, irq_notify_owner(IRQ_COM1), console_drv_pid());
}

/* The driver killed while a process writes through it: every byte the
 * process wrote was either answered for by the driver or written by the
 * kernel itself (a chunk in flight when the driver died: -EPIPE, then
 * the kernel), none lost. */
static void driver_dies_mid_write(struct ktest *t)
{
	/* When the kill lands is a matter of microseconds: under wall-clock
	 * TCG on a busy host the writer could finish first. */
	if (!clock_icount)
		KT_SKIP(t, "wall clock: the kill must land mid-stream (rows udriver-smp1, udriver-smp2)");
	if (!driver_up(t))
		return;
	struct console_drv_stats a, b;
	console_drv_stats(&a);
	const char *argv[] = { "udtest", "fill", "8000" };
	struct spawn_args sa = { "udtest", 3, argv, NULL, false,
				 nr_cpus_online > 1 ? 1UL << 1 : 0, NULL, 0, NULL };
	struct printk_capture cap = { outbuf, sizeof(outbuf), 0, false };
	int err = 0;
	user_write_capture = &cap;
	struct process *p = process_spawn(&sa, &err);
	KT_EXPECT(t, p != NULL);
	u64 deadline = ktime_get_ns() + 1000000000ULL;
	do {
		sleep_ns(10000);
		console_drv_stats(&b);
	} while (p && b.writes - a.writes < 10 && ktime_get_ns() < deadline);
	KT_EXPECT_EQ(t, console_drv_stop(), 0);
	int status = p ? process_wait(p) : -1;
	user_write_capture = NULL;
	console_drv_stats(&b);
	u64 via = b.bytes - a.bytes, direct = b.direct_bytes - a.direct_bytes;
	KT_EXPECT_EQ(t, status, W_EXITCODE(0));
	KT_EXPECT_EQ(t, cap.len, 8000);
	KT_EXPECT_EQ(t, via + direct, cap.len);
	KT_EXPECT_OP(t, via, >, 0);
	KT_EXPECT_OP(t, direct, >, 0);
	ktest_diag(t, "8000 bytes: %llu through the driver, %llu by the kernel after it died "
		   "(%llu failed calls)", (unsigned long long)via, (unsigned long long)direct,
		   (unsigned long long)(b.fallbacks - a.fallbacks));
	KT_EXPECT_EQ(t, console_drv_start(0, 0), 0);
}

static void driver_killed_fallback(struct ktest *t)
{
	if (!driver_up(t))
		return;
	int pid = console_drv_pid();
	u64 pos = log_head;
	KT_EXPECT_EQ(t, console_drv_stop(), 0);
	KT_ASSERT_EQ(t, console_drv_pid(), 0);
	char log[1024];
	log_read(&pos, log, sizeof(log));
	KT_EXPECT_STR_CONTAINS(t, log, "exited: the kernel writes the console itself again");
	KT_EXPECT_EQ(t, irq_notify_owner(IRQ_COM1), 0);
	struct console_drv_stats a, b;
	console_drv_stats(&a);
	int status = run_udtest(t, "udtest print 2", 0, false, 0);
	console_drv_stats(&b);
	KT_EXPECT_EQ(t, status, W_EXITCODE(0));
	KT_EXPECT_STR_CONTAINS(t, outbuf, "# udtest: line 2 of 2\n");
	KT_EXPECT_EQ(t, b.bytes, a.bytes); /* the kernel wrote them itself */
	/* and a new driver can take over again */
	KT_EXPECT_EQ(t, console_drv_start(0, 0), 0);
	KT_EXPECT(t, console_drv_pid() != 0 && console_drv_pid() != pid);
	/* test=all goes on with other suites: leave the console as it was */
	if (started_here)
		KT_EXPECT_EQ(t, console_drv_stop(), 0);
}

KTEST_SUITE(udriver,
	    KTEST_CASE(takeover_output),
	    KTEST_CASE(out_killed),
	    KTEST_CASE(ioperm_given_up),
	    KTEST_CASE(irq_bind_errors),
	    KTEST_CASE(driver_dies_mid_write),
	    KTEST_CASE(driver_killed_fallback));
