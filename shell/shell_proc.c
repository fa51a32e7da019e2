/* The shell's process commands: run, spawn, kill, sleep, and the
 * programs list. `run` waits for the program; Ctrl-C on the serial line
 * kills it (the shell polls the line while it waits, as it polls it for
 * input). `spawn` starts it in the background: `ps` shows it, and an
 * exited one is reaped at the next spawn or ps. */
#include "shell/shell.h"
#include "process/process.h"
#include "boot/module.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "sched/sched.h"
#include "arch/x86_64/kernel/serial.h"
#include "uapi/syscall.h"
#include "uapi/errno.h"
#include "lib/parse.h"
#include "lib/string.h"

#define CTRL_C 3

static const char *spawn_error(int err)
{
	switch (err) {
	case -ENOENT: return "no such program (try 'programs')";
	case -ENOEXEC: return "not a program fold can run (the reason is above)";
	case -E2BIG: return "too many or too long arguments";
	case -ENOMEM: return "out of memory";
	default: return "cannot start it";
	}
}

static struct process *start(const char *cmd, int argc, char **argv, bool detached)
{
	if (argc < 2) {
		console_printf("%s: which program? (try 'programs')\n", cmd);
		return NULL;
	}
	int err = 0;
	struct spawn_args a = { argv[1], argc - 1, (const char *const *)argv + 1, NULL, detached, 0, NULL, 0, NULL };
	struct process *p = process_spawn(&a, &err);
	if (!p)
		console_printf("%s: %s: %s\n", cmd, argv[1], spawn_error(err));
	return p;
}

static void describe_exit(const char *name, int pid, int status)
{
	if (WIFSIGNALED(status))
		console_printf("[%d] %s: killed by signal %d\n", pid, name, WTERMSIG(status));
	else if (WEXITSTATUS(status))
		console_printf("[%d] %s: exit status %d\n", pid, name, WEXITSTATUS(status));
}

int cmd_run(int argc, char **argv)
{
	struct process *p = start("run", argc, argv, false);
	if (!p)
		return -1;
	char name[PROC_NAME_LEN];
	strlcpy(name, p->name, sizeof(name));
	int pid = p->pid;
	while (READ_ONCE(p->state) != PROC_ZOMBIE) {
		if (serial_getc() == CTRL_C) {
			console_printf("^C\n");
			process_kill(pid, SIGKILL);
		}
		sleep_ns(10 * NSEC_PER_MSEC);
	}
	int status = process_wait(p);
	describe_exit(name, pid, status);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int cmd_spawn(int argc, char **argv)
{
	struct process *p = start("spawn", argc, argv, true);
	if (!p)
		return -1;
	console_printf("[%d] %s\n", p->pid, argv[1]);
	return 0;
}

int cmd_kill(int argc, char **argv)
{
	u64 pid;
	if (argc != 2 || parse_u64(argv[1], &pid) || pid > 0x7fffffff) {
		console_printf("kill: usage: kill PID (a process id from 'ps')\n");
		return -1;
	}
	int err = process_kill((int)pid, SIGKILL);
	if (err == -ESRCH)
		console_printf("kill: %llu: no such process\n", (unsigned long long)pid);
	else if (err == -EPERM)
		console_printf("kill: %llu: a kernel thread, not a process\n", (unsigned long long)pid);
	else if (err == -EINVAL)	/* pid 0: Linux's "the caller's process group" */
		console_printf("kill: %llu: fold has no process groups: give a pid from 'ps'\n",
			       (unsigned long long)pid);
	else if (err)
		console_printf("kill: %llu: failed (error %d)\n", (unsigned long long)pid, -err);
	return err ? -1 : 0;
}

int cmd_sleep(int argc, char **argv)
{
	u64 ms;
	if (argc != 2 || parse_u64(argv[1], &ms) || ms > 3600 * 1000) {
		console_printf("sleep: usage: sleep MS (milliseconds, at most an hour)\n");
		return -1;
	}
	sleep_ns(ms * NSEC_PER_MSEC);
	return 0;
}

int cmd_programs(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		console_printf("programs: no arguments\n");
		return -1;
	}
	if (!module_count())
		console_printf("programs: none (the ISO was built without user programs)\n");
	for (u32 i = 0; i < module_count(); i++)
		console_printf("  %-16s %6llu bytes\n", module_at(i)->name,
			       (unsigned long long)module_at(i)->size);
	return 0;
}
