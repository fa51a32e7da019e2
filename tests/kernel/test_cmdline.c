/* The cmdline suite: bad options warn once each and keep the defaults. The
 * boot-time half (the warnings really printed at boot) is the harness row
 * `cmdline-warnings` in tests/configs. */
#include "kernel/ktest.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/string.h"

static char out[4096];

static int parse_captured(const char *s)
{
	struct printk_capture cap = { out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	int w = cmdline_parse(s);
	printk_capture_stop();
	return w;
}

static void bad_values_keep_defaults(struct ktest *t)
{
	struct cmdline_values saved = cmdline;
	int saved_level = console_loglevel;
	KT_EXPECT_EQ(t, parse_captured("preempt=sideways loglevel=x foo"), 3);
	KT_EXPECT_EQ(t, cmdline.preempt_mode, saved.preempt_mode);
	KT_EXPECT_EQ(t, console_loglevel, saved_level);
	KT_EXPECT_STR_CONTAINS(t, out, "preempt=sideways: expected none, voluntary or full");
	KT_EXPECT_STR_CONTAINS(t, out, "loglevel=x: expected a number 0-7");
	KT_EXPECT_STR_CONTAINS(t, out, "unknown option 'foo'");
	cmdline = saved;
	console_loglevel = saved_level;
}

static void good_values_apply(struct ktest *t)
{
	struct cmdline_values saved = cmdline;
	int saved_level = console_loglevel;
	KT_EXPECT_EQ(t, parse_captured("preempt=voluntary hz=250 idle=poll loglevel=6"), 0);
	KT_EXPECT_EQ(t, cmdline.preempt_mode, 1);
	KT_EXPECT_EQ(t, cmdline.hz, 250);
	KT_EXPECT(t, cmdline.idle_poll);
	cmdline = saved;
	console_loglevel = saved_level;
}

static void edge_cases(struct ktest *t)
{
	struct cmdline_values saved = cmdline;
	KT_EXPECT_EQ(t, parse_captured(""), 0);
	KT_EXPECT_EQ(t, parse_captured("hz="), 1);          /* empty value */
	KT_EXPECT_EQ(t, parse_captured("hz=99999999999999999999"), 1); /* overflow */
	KT_EXPECT_EQ(t, parse_captured("=5"), 1);           /* empty key */
	KT_EXPECT_EQ(t, cmdline.hz, saved.hz);
	cmdline = saved;
}

static void quoted_values(struct ktest *t)
{
	struct cmdline_values saved = cmdline;
	KT_EXPECT_EQ(t, parse_captured("autorun=\"bench latency loops=10;stat\" hz=500"), 0);
	KT_EXPECT_EQ(t, strcmp(cmdline.autorun, "bench latency loops=10;stat"), 0);
	KT_EXPECT_EQ(t, cmdline.hz, 500);
	KT_EXPECT_EQ(t, parse_captured("autorun=\"never closed"), 1);
	KT_EXPECT_STR_CONTAINS(t, out, "a double quote is not closed");
	cmdline = saved;
}

KTEST_SUITE(cmdline,
	KTEST_CASE(bad_values_keep_defaults),
	KTEST_CASE(good_values_apply),
	KTEST_CASE(edge_cases),
	KTEST_CASE(quoted_values));
