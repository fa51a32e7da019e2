/* sysabi: the system call ABI's error answers, one check per line
 * (`ok N - ...` or `not ok N - ...`), exit status = the number of
 * failures. The kernel's syscall suite runs it.
 *
 * What it shows: an unknown number is -ENOSYS (including numbers beyond
 * the table and "negative" ones), each call refuses a bad argument with
 * Linux's errno, and a call's registers come back as the ABI says: every
 * register but rax, rcx and r11 preserved (SysV AMD64 ABI A.2.1). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/syscall.h"
#include "uapi/errno.h"

static int checks, failures;

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got == want) {
		printf("ok %d - %s: %ld\n", checks, what, got);
	} else {
		failures++;
		printf("not ok %d - %s: got %ld, expected %ld\n", checks, what, got, want);
	}
}

/* A syscall with known values in every callee-saved and argument
 * register; returns how many of them came back changed. */
static long clobbered_registers(void)
{
	long bad;
	__asm__ __volatile__(
		"push %%rbx; push %%rbp; push %%r12; push %%r13; push %%r14; push %%r15\n\t"
		"mov $0x1111, %%rbx; mov $0x2222, %%rbp; mov $0x3333, %%r12\n\t"
		"mov $0x4444, %%r13; mov $0x5555, %%r14; mov $0x6666, %%r15\n\t"
		"mov $0x7777, %%rdi; mov $0x8888, %%rsi; mov $0x9999, %%rdx\n\t"
		"mov $0xaaaa, %%r10; mov $0xbbbb, %%r8; mov $0xcccc, %%r9\n\t"
		"mov $39, %%eax\n\t" /* getpid */
		"syscall\n\t"
		"xor %%eax, %%eax\n\t"
		"cmp $0x1111, %%rbx; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x2222, %%rbp; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x3333, %%r12; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x4444, %%r13; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x5555, %%r14; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x6666, %%r15; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x7777, %%rdi; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x8888, %%rsi; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0x9999, %%rdx; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0xaaaa, %%r10; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0xbbbb, %%r8; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"cmp $0xcccc, %%r9; setne %%cl; movzbl %%cl, %%ecx; add %%rcx, %%rax\n\t"
		"pop %%r15; pop %%r14; pop %%r13; pop %%r12; pop %%rbp; pop %%rbx"
		: "=a"(bad)
		:
		: "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory", "cc");
	return bad;
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct timespec ts = { 0, 0 }, bad_nsec = { 0, 1000000000 }, neg = { -1, 0 };
	int status;
	expect("syscall(499) (unused number)", syscall0(499), -ENOSYS);
	expect("syscall(NR_SYSCALLS) (past the table)", syscall0(NR_SYSCALLS), -ENOSYS);
	expect("syscall(100000)", syscall0(100000), -ENOSYS);
	expect("syscall(-1)", syscall0(-1), -ENOSYS);
	expect("write(3, ...) (no such fd)", write(3, "x", 1), -EBADF);
	expect("write(-1, ...)", write(-1, "x", 1), -EBADF);
	expect("write(1, buf, 0)", write(1, "x", 0), 0);
	expect("clock_gettime(7, ...) (no such clock)", clock_gettime(7, &ts), -EINVAL);
	expect("nanosleep(tv_nsec = 1e9)", nanosleep(&bad_nsec, 0), -EINVAL);
	expect("nanosleep(tv_sec = -1)", nanosleep(&neg, 0), -EINVAL);
	expect("nanosleep(0 s)", nanosleep(&ts, 0), 0);
	expect("clock_nanosleep(flags = 2)", clock_nanosleep(CLOCK_MONOTONIC, 2, &ts, 0), -EINVAL);
	expect("clock_nanosleep(abstime in the past)",
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0), 0);
	expect("wait4(-1) with no children", wait4(-1, &status, 0, 0), -ECHILD);
	expect("wait4(0) (process groups: none)", wait4(0, &status, 0, 0), -EINVAL);
	expect("wait4(-1, options = 8)", wait4(-1, &status, 8, 0), -EINVAL);
	expect("kill(getpid(), 3) (a signal fold lacks)", kill(getpid(), 3), -EINVAL);
	expect("kill(0, SIGKILL)", kill(0, SIGKILL), -EINVAL);
	expect("kill(1, 0) (idle/00: a kernel thread)", kill(1, 0), -EPERM);
	expect("kill(1000000, 0)", kill(1000000, 0), -ESRCH);
	expect("kill(getpid(), 0)", kill(getpid(), 0), 0);
	expect("spawn(\"nosuch\")", spawn("nosuch", 0), -ENOENT);
	expect("spawn(33-character name)", spawn("abcdefghijklmnopqrstuvwxyz0123456", 0),
	       -ENAMETOOLONG);
	struct sched_param fifo50 = { 50 }, fifo0 = { 0 }, fifo100 = { 100 }, got = { -1 };
	expect("sched_setscheduler(0, 7, ...) (no such policy)", sched_setscheduler(0, 7, &fifo50),
	       -EINVAL);
	expect("sched_setscheduler(0, SCHED_RR, ...) (not fold's)", sched_setscheduler(0, 2, &fifo50),
	       -EINVAL);
	expect("sched_setscheduler(SCHED_FIFO, prio 0)", sched_setscheduler(0, SCHED_FIFO, &fifo0),
	       -EINVAL);
	expect("sched_setscheduler(SCHED_FIFO, prio 100)",
	       sched_setscheduler(0, SCHED_FIFO, &fifo100), -EINVAL);
	expect("sched_setscheduler(SCHED_OTHER, prio 50)",
	       sched_setscheduler(0, SCHED_OTHER, &fifo50), -EINVAL);
	expect("sched_setscheduler(..., NULL)", sched_setscheduler(0, SCHED_FIFO, 0), -EINVAL);
	expect("sched_setscheduler(-1, ...)", sched_setscheduler(-1, SCHED_FIFO, &fifo50), -EINVAL);
	expect("sched_setscheduler(..., kernel pointer)",
	       sched_setscheduler(0, SCHED_FIFO, (const struct sched_param *)0xffffffff80000000UL),
	       -EFAULT);
	expect("sched_setscheduler(1000000, ...)", sched_setscheduler(1000000, SCHED_FIFO, &fifo50),
	       -ESRCH);
	expect("sched_setscheduler(1, ...) (another thread)", sched_setscheduler(1, SCHED_FIFO, &fifo50),
	       -EPERM);
	expect("sched_getscheduler(0) (SCHED_OTHER at start)", sched_getscheduler(0), SCHED_OTHER);
	expect("sched_setscheduler(0, SCHED_FIFO, 50)", sched_setscheduler(0, SCHED_FIFO, &fifo50), 0);
	expect("sched_getscheduler(gettid())", sched_getscheduler(gettid()), SCHED_FIFO);
	expect("sched_getparam(0, ...)", sched_getparam(0, &got), 0);
	expect("sched_getparam's priority", got.sched_priority, 50);
	expect("sched_getparam(0, unmapped)", sched_getparam(0, (struct sched_param *)0x1000), -EFAULT);
	expect("sched_getscheduler(1000000)", sched_getscheduler(1000000), -ESRCH);
	expect("sched_setscheduler(0, SCHED_OTHER, 0)", sched_setscheduler(0, SCHED_OTHER, &fifo0), 0);
	expect("sched_getscheduler(0) (back to SCHED_OTHER)", sched_getscheduler(0), SCHED_OTHER);
	expect("registers changed by a syscall (besides rax, rcx, r11)", clobbered_registers(), 0);
	expect("gettid() == getpid() (one thread)", gettid(), getpid());
	printf("sysabi: %d checks, %d failed\n", checks, failures);
	return failures;
}
