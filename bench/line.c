/* The benchmark reports' line buffer (bench/line.h). */
#include "bench/line.h"
#include "kernel/printk.h"
#include "lib/format.h"

void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (l->len < sizeof(l->buf))
		l->len += (size_t)vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (l->len >= sizeof(l->buf))
		l->len = sizeof(l->buf) - 1;
}

void line_end(struct line *l)
{
	line_add(l, "\n");
	console_write(l->buf, l->len);
	l->len = 0;
}
