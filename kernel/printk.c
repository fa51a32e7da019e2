#include "kernel/printk.h"
#include "kernel/cmdline.h"
#include "kernel/locking/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "arch/x86_64/kernel/serial.h"
#include "drivers/fbcon.h"
#include "arch/x86_64/cpu.h"
#include "lib/format.h"
#include "lib/string.h"

int console_loglevel = LOGLEVEL_DEFAULT;

static int set_loglevel(const char *v)
{
	u32 n;
	if (cmdline_u32(v, &n, 0, 7))
		return -1;
	console_loglevel = (int)n;
	return 0;
}
early_param(loglevel, set_loglevel, console_loglevel, "a number 0-7", "6");
volatile int oops_in_progress;
char log_buf[LOG_BUF_SIZE];
volatile u64 log_head;

static DEFINE_RAW_SPINLOCK(console_lock); /* raw: printk from any context */
static struct printk_capture *capture[MAX_CPUS];

/* The console lock with IRQs off. In an oops, give up waiting after a
 * while: the holder may be the CPU that crashed. Returns whether we hold
 * it (and so must release it). */
static bool console_lock_acquire(u64 *flags)
{
	*flags = local_irq_save();
	/* An NMI may have interrupted this CPU's own holder of the lock. */
	bool nmi = percpu_area[0].self && this_cpu_read(in_nmi);
	if (!oops_in_progress && !nmi) {
		raw_spin_lock(&console_lock);
		return true;
	}
	for (int i = 0; i < 1000000; i++) {
		if (raw_spin_trylock(&console_lock))
			return true;
		cpu_relax();
	}
	return false;
}

static void console_lock_release(bool held, u64 flags)
{
	if (held)
		raw_spin_unlock_irqrestore(&console_lock, flags);
	else
		local_irq_restore(flags);
}

/* Append to this CPU's capture, if any; returns whether the console
 * should stay quiet. Called with the console lock held. */
static bool capture_append(u32 cpu, const char *s, size_t n)
{
	struct printk_capture *cap = capture[cpu];
	if (!cap)
		return false;
	for (size_t i = 0; i < n && cap->len + 1 < cap->size; i++)
		cap->buf[cap->len++] = s[i];
	cap->buf[cap->len] = 0;
	return cap->quiet;
}

static void log_append(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += n;
}

size_t log_read(u64 *pos, char *buf, size_t size)
{
	u64 head = READ_ONCE(log_head);
	u64 p = *pos;
	if (head > LOG_BUF_SIZE && p < head - LOG_BUF_SIZE)
		p = head - LOG_BUF_SIZE;
	size_t n = 0;
	while (p < head && n + 1 < size)
		buf[n++] = log_buf[p++ % LOG_BUF_SIZE];
	buf[n] = 0;
	*pos = p;
	return n;
}

/* Every console: the serial line, and the screen once fbcon_init found
 * one. Called with the console lock held. */
static void console_emit(const char *s, size_t n)
{
	serial_write(s, n);
	fbcon_write(s, n);
}

static u32 this_cpu_or_zero(void)
{
	/* Before the GS base is set this would read linear address 12. */
	return percpu_area[0].self ? raw_smp_processor_id() : 0;
}

int vprintk(const char *fmt, va_list ap)
{
	char text[1024], line[1100];
	int level = LOGLEVEL_DEFAULT;
	if (fmt[0] == KERN_SOH[0] && fmt[1] >= '0' && fmt[1] <= '7') {
		level = fmt[1] - '0';
		fmt += 2;
	}
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	if (n >= (int)sizeof(text))
		n = sizeof(text) - 1;
	u64 ns = ktime_get_ns();
	u32 cpu = this_cpu_or_zero();

	u64 flags;
	bool held = console_lock_acquire(&flags);
	const char *p = text, *end = text + n;
	while (p < end || p == text) {
		const char *nl = p;
		while (nl < end && *nl != '\n')
			nl++;
		if (nl == end)
			nl = NULL;
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int m = snprintf(line, sizeof(line), "[%5llu.%06llu] %u: %.*s\n",
				 (unsigned long long)(ns / 1000000000ULL),
				 (unsigned long long)(ns / 1000 % 1000000),
				 cpu, (int)len, p);
		if (m >= (int)sizeof(line))
			m = sizeof(line) - 1;
		log_append(line, m);
		bool quiet = capture_append(cpu, line, (size_t)m);
		if (level <= console_loglevel && !quiet)
			console_emit(line, m);
		p += len + (nl ? 1 : 0);
		if (!nl)
			break;
	}
	console_lock_release(held, flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void console_write(const char *s, size_t n)
{
	u64 flags;
	bool held = console_lock_acquire(&flags);
	if (!capture_append(this_cpu_or_zero(), s, n))
		console_emit(s, n);
	console_lock_release(held, flags);
}

void console_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	console_write(buf, n);
}

void printk_capture_start(struct printk_capture *c)
{
	c->len = 0;
	if (c->size)
		c->buf[0] = 0;
	capture[this_cpu_or_zero()] = c;
}

void printk_capture_stop(void)
{
	capture[this_cpu_or_zero()] = NULL;
}
