/* printk and BUG for the explorer's kernel files, over either
 * scheduler (the shim's, tests/explore/shim.c, or the real one,
 * tests/explore/hw.c): a message goes to the step log, a BUG or a
 * report_bug() is a violation named after the thread that made it. */
#include "tests/explore/shim.h"
#include "tests/explore/explore.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

#include <stdio.h>
#include <string.h>

int report_deadlocks[EX_MAX_THREADS];

/* ---- printk and BUG ---- */

int printk(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strstr(buf, "deadlock detected"))
		report_deadlocks[ex_self()]++;
	size_t len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	ex_log("prints \"%s\"", buf);
	return n;
}

void dump_stack(void)
{
	ex_log("dump_stack()");
}

/* A kernel report is a violation, named after the thread that made it. */
static void fail_report(const char *what, const char *fmt, va_list ap)
{
	char buf[256];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	ex_fail("%s: %s%s", ex_thread_name(ex_self()), what, buf);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_report("", fmt, ap);
	va_end(ap);
	ex_thread_abort();
}

void report_bug(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_report("report_bug: ", fmt, ap);
	va_end(ap);
}
