/* System calls from user space: the raw stubs and one typed wrapper per
 * call. The convention is Linux's x86-64 one (uapi/syscall.h; SysV AMD64
 * ABI A.2.1 "Calling Conventions"): the number in rax, arguments in rdi,
 * rsi, rdx, r10, r8, r9 (r10, not rcx: `syscall` writes the return rip
 * into rcx and RFLAGS into r11, so both are clobbered), the result in
 * rax, -errno on failure. "memory" because the kernel may read or write
 * any buffer passed. */
#ifndef FOLD_USER_SYSCALL_H
#define FOLD_USER_SYSCALL_H
#include "lib/types.h"
#include "uapi/syscall.h"

static inline long syscall0(long n)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n) : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall1(long n, long a1)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a1)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall2(long n, long a1, long a2)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall3(long n, long a1, long a2, long a3)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a1), "S"(a2), "d"(a3)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall4(long n, long a1, long a2, long a3, long a4)
{
	long ret;
	register long r10 __asm__("r10") = a4;
	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall5(long n, long a1, long a2, long a3, long a4, long a5)
{
	long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long syscall6(long n, long a1, long a2, long a3, long a4, long a5,
			    long a6)
{
	long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The wrappers return the kernel's value as is: >= 0, or -errno. */
static inline long write(int fd, const void *buf, size_t len)
{
	return syscall3(__NR_write, fd, (long)buf, (long)len);
}

static inline __noreturn void exit(int code)
{
	syscall1(__NR_exit, code);
	for (;;)                       /* exit does not return */
		__asm__ volatile("ud2");
}

static inline long getpid(void)
{
	return syscall0(__NR_getpid);
}

static inline long gettid(void)
{
	return syscall0(__NR_gettid);
}

static inline long sched_yield(void)
{
	return syscall0(__NR_sched_yield);
}

static inline long nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall2(__NR_nanosleep, (long)req, (long)rem);
}

static inline long clock_gettime(int clk, struct timespec *ts)
{
	return syscall2(__NR_clock_gettime, clk, (long)ts);
}

static inline long clock_nanosleep(int clk, int flags, const struct timespec *req,
				   struct timespec *rem)
{
	return syscall4(__NR_clock_nanosleep, clk, flags, (long)req, (long)rem);
}

static inline long wait4(long pid, int *status, int options, void *rusage)
{
	return syscall4(__NR_wait4, pid, (long)status, options, (long)rusage);
}

static inline long kill(long pid, int sig)
{
	return syscall2(__NR_kill, pid, sig);
}

static inline long sched_setscheduler(long tid, int policy, const struct sched_param *param)
{
	return syscall3(__NR_sched_setscheduler, tid, policy, (long)param);
}

static inline long sched_getscheduler(long tid)
{
	return syscall1(__NR_sched_getscheduler, tid);
}

static inline long sched_getparam(long tid, struct sched_param *param)
{
	return syscall2(__NR_sched_getparam, tid, (long)param);
}

/* fold: start the boot module `name` as a new process with argv (a NULL-
 * terminated array, at most USER_ARGC_MAX strings); its pid, or -errno. */
static inline long spawn(const char *name, char *const argv[])
{
	return syscall4(__NR_spawn, (long)name, (long)argv, 0, 0); /* no handles */
}

/* The same, the child starting with copies of handles[0..n) in its
 * slots 0..n-1 (uapi/ipc.h). */
static inline long spawn_handles(const char *name, char *const argv[], const int *handles, int n)
{
	return syscall4(__NR_spawn, (long)name, (long)argv, (long)handles, n);
}

#endif
