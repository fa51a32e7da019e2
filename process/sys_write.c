/* write(fd, buf, len): fd 1 and 2 go to the console (the user-level
 * serial driver once it has taken over, drivers/console_drv.c; else
 * printk's console, the serial port), in chunks copied with copy_from_user(). Returns the
 * bytes written, short if the buffer runs into an unmapped page (as
 * Linux's write), -EFAULT if not one byte could be read, -EBADF for any
 * other fd. */
#include "process/syscall.h"
#include "mm/uaccess.h"
#include "kernel/printk.h"
#include "uapi/errno.h"
#include "lib/string.h"
#include "kernel/locking/spinlock.h"
#include "drivers/console_drv.h"

struct printk_capture *volatile user_write_capture;
static DEFINE_SPINLOCK(capture_lock); /* spinlock_t: write() only; sleeps on PREEMPT_RT */

static void output(const char *s, u64 n)
{
	struct printk_capture *c = READ_ONCE(user_write_capture);
	if (c) {
		u64 f = spin_lock_irqsave(&capture_lock);
		u64 room = c->size - 1 - c->len;
		u64 k = MIN(n, room);
		memcpy(c->buf + c->len, s, k);
		c->len += k;
		c->buf[c->len] = 0;
		spin_unlock_irqrestore(&capture_lock, f);
		if (c->quiet)
			return;
	}
	console_user_write(s, n); /* the user-level driver, or the port (drivers/console_drv.c) */
}

#define WRITE_MAX (1UL << 20) /* one call writes at most this much (Linux: MAX_RW_COUNT) */

long sys_write(SYSCALL_ARGS)
{
	(void)a3; (void)a4; (void)a5;
	u64 fd = a0, len = a2;
	const char __user *buf = (const char __user *)a1;
	if (fd != 1 && fd != 2)
		return -EBADF;
	if (!access_ok(buf, len)) /* before the clamp, as Linux's vfs_write */
		return -EFAULT;
	if (len > WRITE_MAX)
		len = WRITE_MAX;
	char chunk[128];
	u64 done = 0;
	while (done < len) {
		u64 n = MIN(len - done, sizeof(chunk));
		u64 left = copy_from_user(chunk, buf + done, n);
		output(chunk, n - left);
		done += n - left;
		if (left)
			return done ? (long)done : -EFAULT;
	}
	return (long)done;
}
