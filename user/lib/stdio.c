/* printf over write: the formatter emits into a small buffer that is
 * written out when it fills and at the end of the call. */
#include "user/lib/stdio.h"
#include "user/lib/syscall.h"
#include "lib/string.h"

#define OUT_BUF 256

struct outbuf {
	int fd;
	size_t len;
	long err;                      /* the first failed write's -errno, or 0 */
	char buf[OUT_BUF];
};

static void flush(struct outbuf *o)
{
	size_t done = 0;
	while (done < o->len && !o->err) {
		long n = write(o->fd, o->buf + done, o->len - done);
		if (n <= 0)
			o->err = n ? n : -1;
		else
			done += (size_t)n;
	}
	o->len = 0;
}

static void emit(char c, void *ctx)
{
	struct outbuf *o = ctx;
	if (o->len == OUT_BUF)
		flush(o);
	o->buf[o->len++] = c;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct outbuf o = { .fd = fd };
	int n = vcbprintf(emit, &o, fmt, ap);
	flush(&o);
	return o.err ? (int)o.err : n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(STDOUT_FILENO, fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	return printf("%s\n", s);
}

int putchar(int c)
{
	char ch = (char)c;
	long n = write(STDOUT_FILENO, &ch, 1);
	return n == 1 ? (unsigned char)ch : (int)n;
}
