/* The clock and sleeping calls: clock_gettime, nanosleep,
 * clock_nanosleep, and sched_yield. fold has one clock, monotonic since
 * boot (kernel/time/time.h); CLOCK_REALTIME reads the same. A sleep ends early
 * with -EINTR when a fatal signal arrives; then *rem gets the time left. */
#include "process/syscall.h"
#include "mm/uaccess.h"
#include "kernel/time/time.h"
#include "process/process.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"

#define NSEC_PER_SEC 1000000000ULL
/* Longer sleeps are clamped (about 292 years would overflow the ns). */
#define SLEEP_MAX_SEC (1ULL << 32)

static bool valid_clock(u64 clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC;
}

long sys_clock_gettime(SYSCALL_ARGS)
{
	(void)a2; (void)a3; (void)a4; (void)a5;
	if (!valid_clock(a0))
		return -EINVAL;
	u64 now = ktime_get_ns();
	struct timespec ts = { (long)(now / NSEC_PER_SEC), (long)(now % NSEC_PER_SEC) };
	return copy_to_user((void __user *)a1, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* A user timespec as ns: 0, -EFAULT or -EINVAL (Linux's rules: tv_nsec in
 * [0, 1e9), tv_sec >= 0). */
static int get_timespec_ns(const struct timespec __user *uts, u64 *ns)
{
	struct timespec ts;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NSEC_PER_SEC)
		return -EINVAL;
	u64 sec = MIN((u64)ts.tv_sec, SLEEP_MAX_SEC);
	*ns = sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
	return 0;
}

static long sleep_to(u64 deadline, struct timespec __user *rem)
{
	if (!sleep_until_interruptible(deadline))
		return 0;
	u64 now = ktime_get_ns(), left = deadline > now ? deadline - now : 0;
	if (rem) {
		struct timespec ts = { (long)(left / NSEC_PER_SEC), (long)(left % NSEC_PER_SEC) };
		if (copy_to_user(rem, &ts, sizeof(ts)))
			return -EFAULT;
	}
	return -EINTR;
}

long sys_nanosleep(SYSCALL_ARGS)
{
	(void)a2; (void)a3; (void)a4; (void)a5;
	u64 ns;
	int err = get_timespec_ns((const struct timespec __user *)a0, &ns);
	if (err)
		return err;
	return sleep_to(ktime_get_ns() + ns, (struct timespec __user *)a1);
}

long sys_clock_nanosleep(SYSCALL_ARGS)
{
	(void)a4; (void)a5;
	if (!valid_clock(a0) || (a1 & ~(u64)TIMER_ABSTIME))
		return -EINVAL;
	u64 ns;
	int err = get_timespec_ns((const struct timespec __user *)a2, &ns);
	if (err)
		return err;
	if (a1 & TIMER_ABSTIME) /* rem is not written for an absolute sleep (POSIX) */
		return sleep_to(ns, NULL);
	return sleep_to(ktime_get_ns() + ns, (struct timespec __user *)a3);
}

long sys_sched_yield(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	yield();
	return 0;
}
