/* The process calls: getpid, gettid, exit, wait4, kill, spawn. */
#include "process/syscall.h"
#include "process/process.h"
#include "mm/uaccess.h"
#include "mm/mm.h"
#include "ipc/ipc.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "uapi/layout.h"

#define WNOHANG 1

long sys_getpid(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	return current_process()->pid;
}

long sys_gettid(SYSCALL_ARGS)
{
	(void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	return current_thread()->id;
}

long sys_exit(SYSCALL_ARGS)
{
	(void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	do_exit(W_EXITCODE((int)a0));
}

/* wait4(pid, status, options, rusage): pid -1 (any child) or > 0; options
 * 0 or WNOHANG; rusage must be NULL (fold keeps none). */
long sys_wait4(SYSCALL_ARGS)
{
	(void)a4; (void)a5;
	int pid = (int)a0;
	int __user *ustatus = (int __user *)a1;
	if ((pid != -1 && pid <= 0) || (a2 & ~(u64)WNOHANG) || a3)
		return -EINVAL;
	if (ustatus && !access_ok(ustatus, sizeof(int)))
		return -EFAULT;
	int status = 0;
	int ret = process_wait_child(pid, &status, a2 & WNOHANG);
	if (ret > 0 && ustatus && put_user(status, ustatus))
		return -EFAULT; /* the child is reaped all the same, as in Linux */
	return ret;
}

long sys_kill(SYSCALL_ARGS)
{
	(void)a2; (void)a3; (void)a4; (void)a5;
	return process_kill((int)a0, (int)a1);
}

/* spawn(name, argv, handles, n): start boot module `name` as a child;
 * argv is a NULL-terminated array of strings (NULL: argv = { name }).
 * Strings are copied into one buffer of USER_ARGS_MAX bytes. The child
 * starts with copies of the caller's handles handles[0..n) in its slots
 * 0..n-1 (n <= SPAWN_HANDLES_MAX; -EBADF for one the caller lacks). */
long sys_spawn(SYSCALL_ARGS)
{
	(void)a4; (void)a5;
	int handles[SPAWN_HANDLES_MAX];
	if (a3 > SPAWN_HANDLES_MAX)
		return -EINVAL;
	if (a3 && copy_from_user(handles, (const void __user *)a2, a3 * sizeof(int)))
		return -EFAULT;
	for (u64 i = 0; i < a3; i++)
		if ((unsigned)handles[i] >= HANDLE_MAX || !current_process()->ipc->handles[handles[i]].obj)
			return -EBADF;
	char name[PROC_NAME_LEN];
	long n = strncpy_from_user(name, (const char __user *)a0, sizeof(name));
	if (n < 0)
		return n;
	if (n == sizeof(name))
		return -ENAMETOOLONG;
	char *buf = kmalloc(USER_ARGS_MAX);
	if (!buf)
		return -ENOMEM;
	const char *argv[USER_ARGC_MAX];
	const char __user *const __user *uargv = (const char __user *const __user *)a1;
	int argc = 0;
	long used = 0, err = 0;
	if (!uargv) {
		argv[argc++] = name;
	} else {
		for (;;) {
			const char __user *s;
			if (get_user(s, uargv + argc)) {
				err = -EFAULT;
				break;
			}
			if (!s)
				break;
			if (argc == USER_ARGC_MAX) {
				err = -E2BIG;
				break;
			}
			long len = strncpy_from_user(buf + used, s, USER_ARGS_MAX - used);
			if (len < 0) {
				err = len;
				break;
			}
			if (len == USER_ARGS_MAX - used) {
				err = -E2BIG;
				break;
			}
			argv[argc++] = buf + used;
			used += len + 1;
		}
	}
	long ret = err;
	if (!err) {
		int e = 0;
		struct spawn_args sa = { name, argc, argv, current_process(), false, 0,
					 current_process()->ipc, (int)a3, handles };
		struct process *p = process_spawn(&sa, &e);
		ret = p ? p->pid : e;
	}
	kfree(buf);
	return ret;
}
