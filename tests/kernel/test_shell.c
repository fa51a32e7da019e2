/* The shell suite: the line editor (backspace, ^U, control bytes, the
 * length limit) and the command dispatcher's answers to bad input. The
 * same bad input typed through autorun= is checked by the harness row
 * `shell-bad-input`. */
#include "tests/kernel/ktest.h"
#include "shell/shell.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/format.h"
#include "kernel/preempt.h"
#include "sched/preempt_mode.h"

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

/* Control characters from autorun= reach the shell (the line editor
 * drops them, the command line does not): every message that echoes the
 * input shows them escaped. */
static void messages_escape_input(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("bo\x01gus"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "shell: unknown command 'bo\\x01gus'");
	KT_EXPECT_EQ(t, run("preempt side\x02"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "preempt: unknown mode 'side\\x02'");
	KT_EXPECT_EQ(t, run("bench no\x1b"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench: unknown benchmark 'no\\x1b'");
	KT_EXPECT_EQ(t, run("bench latency co\x7flor=red"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: unknown option 'co\\x7flor'");
	KT_EXPECT_EQ(t, run("bench latency loops=1\x01"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: loops=1\\x01: expected a number");
	KT_EXPECT_EQ(t, run("bench latency load=hog\x01"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: load=hog\\x01: expected one of");
	KT_EXPECT_EQ(t, run("test no\x01"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "no suite named 'no\\x01'");
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	int failed = shell_exec_list("bo\x01gus");
	printk_capture_stop();
	KT_EXPECT_EQ(t, failed, 1);
	KT_EXPECT_STR_CONTAINS(t, out, "fold> bo\\x01gus\n");
	KT_EXPECT(t, !strchr(out, 0x01) && !strchr(out, 0x1b) && !strchr(out, 0x7f));
}

/* An option with no name before its '=' says so (it said "unknown option
 * ''"); a bare word says it needs a value. */
static void bench_option_without_name(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("bench latency =5"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency: '=5': an option needs a name before its '='");
	KT_EXPECT(t, !strstr(out, "unknown option ''"));
	KT_EXPECT_EQ(t, run("bench race rounds"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "bench race: no value for 'rounds'");
}

/* all in a list: every suite, and the named ones (each suite runs once);
 * panic cannot be one of a list. The suite names here are unknown, so
 * nothing runs: the answer names the problem, not 'all'. */
static void test_list_with_all(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("test all,nosuch"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "no suite named 'nosuch'");
	KT_EXPECT(t, !strstr(out, "no suite named 'all'"));
	KT_EXPECT_EQ(t, run("test all,panic"), -1);
	KT_EXPECT_STR_CONTAINS(t, out, "test: 'panic' is not a suite");
	KT_EXPECT(t, !strstr(out, "no suite named 'all'"));
	/* What such lists choose, without running them. */
	const struct ktest_suite *all[64], *chosen[64];
	int n = ktest_select("all", all, ARRAY_SIZE(all));
	KT_ASSERT(t, n > 2);
	KT_EXPECT_EQ(t, ktest_select("all,shell", chosen, ARRAY_SIZE(chosen)), n);
	KT_EXPECT_EQ(t, ktest_select("shell,all", chosen, ARRAY_SIZE(chosen)), n);
	KT_EXPECT_EQ(t, strcmp(chosen[0]->name, "shell"), 0); /* in list order */
	for (int i = 1; i < n; i++)
		KT_EXPECT(t, chosen[i] != chosen[0]);             /* once each */
	KT_EXPECT_EQ(t, ktest_select("shell,shell,cmdline", chosen, ARRAY_SIZE(chosen)), 2);
	cap = (struct printk_capture){ out, sizeof(out), 0, true };
	printk_capture_start(&cap);
	int r = ktest_select("all,", chosen, ARRAY_SIZE(chosen));
	printk_capture_stop();
	KT_EXPECT_EQ(t, r, -1);
	KT_EXPECT_STR_CONTAINS(t, out, "test: an empty suite name in 'all,'");
}

/* help's bench lines come from the BENCH_*_OPTIONS lists of bench.h:
 * every option, with its range or its words. */
static void help_lists_bench_options(struct ktest *t)
{
	KT_EXPECT_EQ(t, run("help"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "bench latency    [interval=50-1000000 loops=10-100000 "
				       "load=none|hog|pingpong|lock|local hog_points=1-100000000");
	KT_EXPECT_STR_CONTAINS(t, out, "bench preempt    [iters=1000-100000000 irq_iters=100-10000000]");
	KT_EXPECT_STR_CONTAINS(t, out, "bench throughput [ops=1000-100000000 W=0-100000 p=1-64 ");
	KT_EXPECT_STR_CONTAINS(t, out, "bench race       [rounds=10-10000000]");
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

/* `preempt MODE` switches to every mode of PREEMPT_MODES this count
 * model can run and refuses the others; help lists them all. */
static void preempt_switches_every_mode(struct ktest *t)
{
	int saved = preempt_mode;
	for (int mode = 0; mode < NR_PREEMPT_MODES; mode++) {
		char line[32], want[64];
		snprintf(line, sizeof(line), "preempt %s", preempt_mode_name(mode));
		if (!preempt_mode_valid(mode)) {
			KT_EXPECT_EQ(t, run(line), -1);
			KT_EXPECT_STR_CONTAINS(t, out, "is not possible");
			continue;
		}
		KT_EXPECT_EQ(t, run(line), 0);
		KT_EXPECT_EQ(t, preempt_mode, mode);
		snprintf(want, sizeof(want), "mode %s\n", preempt_mode_name(mode));
		KT_EXPECT_STR_CONTAINS(t, out, want);
	}
	preempt_mode_set(saved);
	KT_EXPECT_EQ(t, run("help"), 0);
	KT_EXPECT_STR_CONTAINS(t, out, "show or switch the mode: none voluntary full lazy");
}

KTEST_SUITE(shell,
	KTEST_CASE(backspace_edits),
	KTEST_CASE(overlong_line_rejected),
	KTEST_CASE(bad_commands_answered),
	KTEST_CASE(good_commands_work),
	KTEST_CASE(messages_escape_input),
	KTEST_CASE(bench_option_without_name),
	KTEST_CASE(test_list_with_all),
	KTEST_CASE(help_lists_bench_options),
	KTEST_CASE(preempt_switches_every_mode));
