/* The console's user-level driver (drivers/console_drv.c): once a driver
 * has registered its endpoint, user processes' writes to the console go
 * to it by IPC; the kernel's own printk does not. */
#ifndef FOLD_KERNEL_CONSOLE_DRV_H
#define FOLD_KERNEL_CONSOLE_DRV_H
#include "lib/types.h"

struct process;
struct endpoint;

/* p (CAP_SYS_RAWIO, checked by the caller) serves ep: 0, or -EBUSY. */
long console_drv_register(struct process *p, struct endpoint *ep);
/* s[0..n), a user process's write() to the console: through the driver
 * if one is registered and the writer is not the driver; whatever the
 * driver did not take (none registered, or it died on the way) the kernel
 * writes straight to the port. */
void console_user_write(const char *s, u64 n);
/* p exits: if it is the driver, the kernel takes the console back. */
void console_drv_exit(struct process *p);
/* The driver's pid, 0 if none. */
int console_drv_pid(void);

struct console_drv_stats {
	u64 writes, bytes;    /* calls to the driver and the bytes they carried */
	u64 fallbacks;        /* writes the kernel made itself when the driver failed */
	u64 direct_bytes;     /* user bytes the kernel wrote itself (no driver, or
			       * it failed): bytes + direct_bytes = every user byte */
	u64 takeovers, exits;
};
void console_drv_stats(struct console_drv_stats *out);

/* At boot (init/init.c): start user/serial_drv with CAP_SYS_RAWIO on
 * CPUs cpus (0: any), SCHED_FIFO prio if not 0, and wait up to 5 s
 * (a busy host under TCG) for it to register. 0, or -errno (said why). */
int console_drv_start(u64 cpus, u32 prio);
/* serial_drv=: 1 on, 0 off, -1 auto (on unless test= runs suites). */
extern int serial_drv_option;
/* Kill the driver, if any, and wait (5 s at most) for the kernel to
 * take the console back: 0, or -ETIMEDOUT. */
int console_drv_stop(void);
#endif
