/* The scheduling-policy calls: sched_setscheduler, sched_getscheduler,
 * sched_getparam, with Linux's numbers, policies (SCHED_OTHER, SCHED_FIFO)
 * and errors (man 2 sched_setscheduler). The pid argument names a thread
 * (0: the caller), as in Linux. fold has no users or capabilities; its one
 * rule is that a thread may change only its own policy (-EPERM for any
 * other), while any thread's policy may be read. SCHED_RR, SCHED_BATCH,
 * SCHED_IDLE and SCHED_DEADLINE are not fold's: -EINVAL. */
#include "process/syscall.h"
#include "mm/uaccess.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"

/* The priority of thread `pid` (0: the caller), or -ESRCH / -EINVAL. An
 * idle thread (priority -1 inside the scheduler) reads as SCHED_OTHER 0. */
static long prio_of(long pid)
{
	if (pid < 0)
		return -EINVAL;
	int prio = current_thread()->prio;
	if (pid != 0 && (pid > 0xffffffffL || !thread_prio_of((u32)pid, &prio)))
		return -ESRCH;
	return prio < 0 ? 0 : prio;
}

long sys_sched_setscheduler(SYSCALL_ARGS)
{
	(void)a3; (void)a4; (void)a5;
	long pid = (long)a0;
	long policy = (long)a1;
	const struct sched_param __user *uparam = (const struct sched_param __user *)a2;
	if (pid < 0 || !uparam)
		return -EINVAL;
	int prio;
	if (get_user(prio, &uparam->sched_priority))
		return -EFAULT;
	long found = prio_of(pid);
	if (found < 0)
		return found;
	if (policy == SCHED_FIFO) {
		if (prio < SCHED_FIFO_PRIO_MIN || prio > SCHED_FIFO_PRIO_MAX)
			return -EINVAL;
	} else if (policy == SCHED_OTHER) {
		if (prio != 0)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	struct thread *self = current_thread();
	if (pid != 0 && (u64)pid != self->id)
		return -EPERM;
	return sched_setscheduler(self, prio);
}

long sys_sched_getscheduler(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	long prio = prio_of((long)a0);
	if (prio < 0)
		return prio;
	return prio > 0 ? SCHED_FIFO : SCHED_OTHER;
}

long sys_sched_getparam(SYSCALL_ARGS)
{
	(void)a2; (void)a3; (void)a4; (void)a5;
	struct sched_param __user *uparam = (struct sched_param __user *)a1;
	if ((long)a0 < 0 || !uparam)
		return -EINVAL;
	long prio = prio_of((long)a0);
	if (prio < 0)
		return prio;
	if (put_user((int)prio, &uparam->sched_priority))
		return -EFAULT;
	return 0;
}
