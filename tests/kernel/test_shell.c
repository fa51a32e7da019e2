/* The shell suite: the line editor (backspace, ^U, control bytes, the
 * length limit) and the command dispatcher's answers to bad input. The
 * same bad input typed through autorun= is checked by the harness row
 * `shell-bad-input`. */
#include "kernel/ktest.h"
#include "kernel/shell.h"
#include "kernel/printk.h"
#include "lib/string.h"

static char out[4096];
static struct printk_capture cap;

static bool type(struct line_editor *e, const char *s)
{
	bool done = false;
	for (; *s; s++)
		done = line_editor_feed(e, (unsigned char)*s);
	return done;
}

static void backspace_edits(struct ktest *t)
{
	struct line_editor e = { .len = 0 };
	KT_EXPECT(t, !type(&e, "helq"));
	KT_EXPECT(t, !type(&e, "\x7f")); /* DEL, what terminals send */
	KT_EXPECT(t, type(&e, "p\r"));
	KT_EXPECT_EQ(t, strcmp(e.buf, "help"), 0);
	KT_EXPECT(t, type(&e, "ab\b\b\bxy\n")); /* BS, and one too many */
	KT_EXPECT_EQ(t, strcmp(e.buf, "xy"), 0);
	KT_EXPECT(t, type(&e, "junk\x15ps\r"));  /* ^U kills the line */
	KT_EXPECT_EQ(t, strcmp(e.buf, "ps"), 0);
	KT_EXPECT(t, type(&e, "c\x01pu\x1bs\r")); /* other control bytes ignored */
	KT_EXPECT_EQ(t, strcmp(e.buf, "cpus"), 0);
}

static void overlong_line_rejected(struct ktest *t)
{
	struct line_editor e = { .len = 0 };
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	for (int i = 0; i < SHELL_LINE_MAX + 10; i++)
		line_editor_feed(&e, 'a');
	bool done = line_editor_feed(&e, '\r');
	printk_capture_stop();
	KT_EXPECT(t, done);
	KT_EXPECT_EQ(t, e.buf[0], 0); /* nothing to run */
	KT_EXPECT_STR_CONTAINS(t, out, "shell: line too long (at most 128 characters)");
	/* And the editor works again afterwards. */
	KT_EXPECT(t, type(&e, "ps\r"));
	KT_EXPECT_EQ(t, strcmp(e.buf, "ps"), 0);
}

static int run(const char *line)
{
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	int r = shell_exec(line);
	printk_capture_stop();
	return r;
}

static void bad_commands_answered(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("bogus"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "shell: unknown command 'bogus' (try 'help')");
	KT_EXPECT_EQ(t, run("preempt sideways"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "preempt: unknown mode 'sideways'");
	KT_EXPECT_EQ(t, run("bench nosuch"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench: unknown benchmark 'nosuch'");
	KT_EXPECT_EQ(t, run("bench latency loops=x"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: loops=x: expected a number from 10 to 100000");
	KT_EXPECT_EQ(t, run("bench latency color=red"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: unknown option 'color'");
	KT_EXPECT_EQ(t, run("bench latency load=heavy"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "load=heavy: expected one of: none hog pingpong");
	KT_EXPECT_EQ(t, run("ps extra"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "ps: too many arguments");
	KT_EXPECT_EQ(t, run("test nosuch"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "no suite named 'nosuch'");
	KT_EXPECT_EQ(t, run(""), 0);
	KT_EXPECT_EQ(t, run("   "), 0);
}

static void good_commands_work(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("help"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "bench NAME [key=value ...]");
	KT_EXPECT_EQ(t, run("preempt"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "preempt: count model");
	KT_EXPECT_EQ(t, run("cpus"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "CPUs online");
	KT_EXPECT_EQ(t, run("ps"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "main");
	KT_EXPECT_EQ(t, run("stat"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "FOLDS");
}

KTEST_SUITE(shell,
	KTEST_CASE(backspace_edits),
	KTEST_CASE(overlong_line_rejected),
	KTEST_CASE(bad_commands_answered),
	KTEST_CASE(good_commands_work));
