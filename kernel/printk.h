/* printk: the kernel log. Every line goes to the log ring (the shell's
 * `log`, GDB's fold-dmesg) and, if its level is at most `loglevel`, to the
 * serial console, as
 *     [    1.234567] 2: text
 * (seconds since boot from the TSC, then the CPU number). A line is
 * written whole under the console lock, so lines from several CPUs never
 * interleave. Levels as Linux's: a message may start with KERN_ERR etc. */
#ifndef FOLD_KERNEL_PRINTK_H
#define FOLD_KERNEL_PRINTK_H

#include "lib/types.h"

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"

#define LOGLEVEL_DEFAULT 6

__printf(1, 2) int printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);
#define pr_err(...) printk(KERN_ERR __VA_ARGS__)
#define pr_warn(...) printk(KERN_WARNING __VA_ARGS__)
#define pr_info(...) printk(KERN_INFO __VA_ARGS__)
#define pr_debug(...) printk(KERN_DEBUG __VA_ARGS__)

/* Raw console output with no prefix (KTAP lines, the shell), still
 * whole-line atomic. */
__printf(1, 2) void console_printf(const char *fmt, ...);
void console_write(const char *s, size_t n);

extern int console_loglevel;
/* Set by panic: printk stops waiting for a console lock held by a CPU
 * that may never release it. */
extern volatile int oops_in_progress;

/* The log ring. log_read copies at most size-1 bytes of the oldest still
 * kept text from position *pos onward. */
#define LOG_BUF_SIZE (64 * 1024)
extern char log_buf[LOG_BUF_SIZE];
extern volatile u64 log_head; /* bytes ever written */
size_t log_read(u64 *pos, char *buf, size_t size);

/* Capture: while set on a CPU, that CPU's printk text is also appended to
 * this buffer (the exception tests assert an oops report's contents). */
struct printk_capture {
	char *buf;
	size_t size, len;
	bool quiet; /* keep the captured lines off the console (still logged) */
};
void printk_capture_start(struct printk_capture *c);
void printk_capture_stop(void);

#endif
