/* Error numbers, shared by the kernel and user programs. A system call
 * returns -E... on failure, as Linux's do: the values are Linux's
 * (include/uapi/asm-generic/errno-base.h and errno.h), so a reader who
 * knows `strace` output knows these. */
#ifndef FOLD_UAPI_ERRNO_H
#define FOLD_UAPI_ERRNO_H

#define EPERM    1   /* operation not permitted */
#define ENOENT   2   /* no such file (here: no boot module of that name) */
#define ESRCH    3   /* no such process */
#define EINTR    4   /* interrupted (a sleep cut short by kill) */
#define E2BIG    7   /* argument list too long */
#define ENOEXEC  8   /* not a valid executable */
#define EBADF    9   /* bad file descriptor */
#define ECHILD  10   /* no child to wait for */
#define EAGAIN  11   /* try again */
#define ENOMEM  12   /* out of memory */
#define EFAULT  14   /* bad address */
#define EBUSY   16   /* busy (here: an IRQ or the console already has a driver) */
#define ENODEV  19   /* no such device (here: no I/O APIC for the IRQ) */
#define EINVAL  22   /* invalid argument */
#define EMFILE  24   /* too many open files (here: no free handle slot) */
#define EPIPE   32   /* broken pipe (here: nobody left to receive, or to reply) */
#define EDEADLK 35   /* resource deadlock would occur (here: an rt_mutex cycle) */
#define ENAMETOOLONG 36
#define ENOSYS  38   /* no such system call */
#define ETIMEDOUT 110 /* timed out */

#endif
