/* The cmdline suite: bad options warn once each and keep the defaults. The
 * boot-time half (the warnings really printed at boot) is the harness row
 * `cmdline-warnings` in tests/configs. */
#include "tests/kernel/ktest.h"
#include "kernel/cmdline.h"
#include "sched/preempt_mode.h"
#include "kernel/printk.h"
#include "lib/string.h"

static char out[4096];

/* Every option's value, saved before a case parses and put back after
 * (the options are declared in their owners' files: kernel/cmdline.h). */
static u8 saved[2048];
#define SAVE()                                                               \
	do {                                                                 \
		KT_ASSERT(t, cmdline_values_size() <= sizeof(saved));        \
		cmdline_save(saved);                                         \
	} while (0)
#define RESTORE() cmdline_restore(saved)
/* An option's value by key: VALUE(hz, u32), or the string of STRING(test). */
#define VALUE(key, type) (*(const type *)cmdline_value(#key))
#define STRING(key) ((const char *)cmdline_value(#key))

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
	SAVE();
	int preempt_before = VALUE(preempt, int);
	int saved_level = console_loglevel;
	KT_EXPECT_EQ(t, parse_captured("preempt=sideways loglevel=x foo"), 3);
	KT_EXPECT_EQ(t, VALUE(preempt, int), preempt_before);
	KT_EXPECT_EQ(t, console_loglevel, saved_level);
	KT_EXPECT_STR_CONTAINS(t, out, "preempt=sideways: expected a mode:" PREEMPT_MODE_NAMES);
	KT_EXPECT_STR_CONTAINS(t, out, "loglevel=x: expected a number 0-7");
	KT_EXPECT_STR_CONTAINS(t, out, "unknown option 'foo'");
	RESTORE();
	console_loglevel = saved_level;
}

static void good_values_apply(struct ktest *t)
{
	SAVE();
	int saved_level = console_loglevel;
	KT_EXPECT_EQ(t, parse_captured("preempt=voluntary hz=250 idle=poll loglevel=6"), 0);
	KT_EXPECT_EQ(t, VALUE(preempt, int), 1);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 250);
	KT_EXPECT(t, VALUE(idle, bool));
	RESTORE();
	console_loglevel = saved_level;
}

static void edge_cases(struct ktest *t)
{
	SAVE();
	u32 hz_before = VALUE(hz, u32);
	KT_EXPECT_EQ(t, parse_captured(""), 0);
	KT_EXPECT_EQ(t, parse_captured("hz="), 1);          /* empty value */
	KT_EXPECT_EQ(t, parse_captured("hz=99999999999999999999"), 1); /* overflow */
	KT_EXPECT_EQ(t, parse_captured("=5"), 1);           /* empty key */
	KT_EXPECT_EQ(t, VALUE(hz, u32), hz_before);
	RESTORE();
}

static void quoted_values(struct ktest *t)
{
	SAVE();
	KT_EXPECT_EQ(t, parse_captured("autorun=\"bench latency loops=10;stat\" hz=500"), 0);
	KT_EXPECT_EQ(t, strcmp(STRING(autorun), "bench latency loops=10;stat"), 0);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 500);
	KT_EXPECT_EQ(t, parse_captured("autorun=\"never closed"), 1);
	KT_EXPECT_STR_CONTAINS(t, out, "a double quote is not closed");
	RESTORE();
}

/* The last occurrence of an option wins, as in Linux; a bad value is
 * warned about and keeps what the option had: an earlier good value (and
 * the message says which), or the default. For every option, not only hz. */
static void last_occurrence_wins(struct ktest *t)
{
	SAVE();
	int saved_level = console_loglevel;
	KT_EXPECT_EQ(t, parse_captured("hz=100 hz=200 hz=bad"), 1);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 200);
	KT_EXPECT_STR_CONTAINS(t, out, "cmdline: hz=bad: expected a tick rate from 10 to 10000; keeping 200\n");
	KT_EXPECT(t, !strstr(out, "using the default"));
	KT_EXPECT_EQ(t, parse_captured("hz=bad hz=300"), 1);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 300);
	KT_EXPECT_STR_CONTAINS(t, out, "hz=bad: expected a tick rate from 10 to 10000; using the default (1000)");
	KT_EXPECT_EQ(t, parse_captured("idle=poll idle=sometimes preempt=none preempt=x loglevel=5 loglevel=9"), 3);
	KT_EXPECT(t, VALUE(idle, bool));
	KT_EXPECT_EQ(t, VALUE(preempt, int), 0);
	KT_EXPECT_EQ(t, console_loglevel, 5);
	KT_EXPECT_STR_CONTAINS(t, out, "idle=sometimes: expected halt or poll; keeping poll");
	KT_EXPECT_STR_CONTAINS(t, out, "preempt=x: expected a mode:" PREEMPT_MODE_NAMES "; keeping none");
	KT_EXPECT_STR_CONTAINS(t, out, "loglevel=9: expected a number 0-7; keeping 5");
	KT_EXPECT_EQ(t, parse_captured("test=sched test=shell autorun=ps autorun=stat"), 0);
	KT_EXPECT_EQ(t, strcmp(STRING(test), "shell"), 0);
	KT_EXPECT_EQ(t, strcmp(STRING(autorun), "stat"), 0);
	RESTORE();
	console_loglevel = saved_level;
}

/* k is a decimal thousand: hz=1k is 1000 Hz (it used to be 1024). */
static void decimal_multiples(struct ktest *t)
{
	SAVE();
	KT_EXPECT_EQ(t, parse_captured("hz=1k"), 0);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 1000);
	KT_EXPECT_EQ(t, parse_captured("hz=10K maxcpus=0x4"), 0);
	KT_EXPECT_EQ(t, VALUE(hz, u32), 10000);
	KT_EXPECT_EQ(t, VALUE(maxcpus, u32), 4);
	KT_EXPECT_EQ(t, parse_captured("hz=0x1k"), 1);
	KT_EXPECT_STR_CONTAINS(t, out, "hz=0x1k: expected a tick rate from 10 to 10000");
	RESTORE();
}

/* A control character is shown escaped in every message that echoes the
 * input, and an option without a name gets a message that says so. */
static void messages_escape_input(struct ktest *t)
{
	SAVE();
	u32 hz_before = VALUE(hz, u32);
	KT_EXPECT_EQ(t, parse_captured("fo\x01o=1 hz=2\x1b[0m"), 2);
	KT_EXPECT_STR_CONTAINS(t, out, "unknown option 'fo\\x01o' ignored");
	KT_EXPECT_STR_CONTAINS(t, out, "hz=2\\x1b[0m: expected a tick rate");
	KT_EXPECT(t, !strchr(out, 0x01) && !strchr(out, 0x1b));
	KT_EXPECT_EQ(t, parse_captured("=5"), 1);
	KT_EXPECT_STR_CONTAINS(t, out, "cmdline: '=5': an option needs a name before its '='");
	KT_EXPECT_EQ(t, VALUE(hz, u32), hz_before);
	RESTORE();
}

KTEST_SUITE(cmdline,
	KTEST_CASE(bad_values_keep_defaults),
	KTEST_CASE(good_values_apply),
	KTEST_CASE(edge_cases),
	KTEST_CASE(quoted_values),
	KTEST_CASE(last_occurrence_wins),
	KTEST_CASE(decimal_multiples),
	KTEST_CASE(messages_escape_input));
