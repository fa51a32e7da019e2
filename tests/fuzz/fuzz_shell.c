/* Fuzz target: a shell line (shell/shell.c, lib/parse.c) and the bench
 * and torture options after it (bench/bench_common.c's bench_parse
 * and opts_parse, against the option lists in bench/bench.h and
 * tests/torture/torture.h). The input
 * is typed: every byte goes through the line editor, as from the serial
 * port, and each finished line runs; then the whole input, cut at its
 * first NUL, runs once more as an autorun= list of ';'-separated lines.
 *
 * The command table here replaces shell/shell_cmds.c, whose commands
 * reach the scheduler: `bench NAME key=value...` parses its options as
 * the real one does (but runs no benchmark), `preempt MODE` parses a
 * mode, and `help` prints the usage lines; every command first checks
 * the argv the shell split for it. */
#include "tests/fuzz/fuzz.h"
#include "shell/shell.h"
#include "bench/bench.h"
#include "tests/torture/torture.h"
#include "sched/preempt_mode.h"
#include "lib/string.h"

/* The words of bench latency's and userlat's load= and bench ipc's test=,
 * as in bench/bench_latency.c, bench_user.c and bench_ipc.c (not linked
 * here). */
const char *const bench_latency_loads[5] = BENCH_LATENCY_LOAD_WORDS;
const char *const bench_userlat_loads[2] = { "none", "hog" };
const char *const bench_ipc_tests[3] = BENCH_IPC_TEST_WORDS;
/* torture's inject= words, as in tests/torture/torture_run.c (not linked here). */
const char *const torture_inject_names[NR_TORTURE_INJECT] = { "none", "lost", "leak" };

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* What split_words promises: 1..16 words, each non-empty and blank-free. */
static void check_argv(int argc, char **argv)
{
	FUZZ_ASSERT(argc >= 1 && argc <= 16);
	for (int i = 0; i < argc; i++) {
		size_t n = host_strlen(argv[i]);
		FUZZ_ASSERT(n >= 1 && n <= SHELL_LINE_MAX);
		for (size_t j = 0; j < n; j++)
			FUZZ_ASSERT(!blank(argv[i][j]));
	}
}

#define DECL_NUM(key, min, max) u64 key = min;
#define DECL_WORDS(key, words) u64 key = 0;
#define CHECK_NUM(key, min, max) FUZZ_ASSERT(key >= min && key <= max);
#define CHECK_WORDS(key, words) FUZZ_ASSERT(key < ARRAY_SIZE(words));
/* bench_NAME's option parsing, without the benchmark: the parsed values
 * must be within the ranges the list gives. */
#define BENCH_PARSE_ONLY(name, options, what)                                   \
	static int parse_##name(int argc, char **argv)                          \
	{                                                                       \
		options(DECL_NUM, DECL_WORDS)                                   \
		struct bench_opt o[] = { options(BENCH_OPT_NUM, BENCH_OPT_WORDS) }; \
		if (bench_parse(#name, argc, argv, o, ARRAY_SIZE(o)))           \
			return -1;                                              \
		options(CHECK_NUM, CHECK_WORDS)                                 \
		return 0;                                                       \
	}
BENCHES(BENCH_PARSE_ONLY)

#define BENCH_ENTRY(name, options, what) { #name, parse_##name },
static const struct {
	const char *name;
	int (*fn)(int, char **);
} benches[] = { BENCHES(BENCH_ENTRY) };

static int cmd_bench(int argc, char **argv)
{
	check_argv(argc, argv);
	if (argc < 2)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(benches); i++)
		if (!strcmp(benches[i].name, argv[1]))
			return benches[i].fn(argc - 1, argv + 1);
	return -1;
}

/* torture's option parsing, without the torture. */
static int parse_torture(int argc, char **argv)
{
	check_argv(argc, argv);
	TORTURE_OPTIONS(DECL_NUM, DECL_WORDS)
	struct bench_opt o[] = { TORTURE_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (opts_parse("torture", argc, argv, o, ARRAY_SIZE(o)))
		return -1;
	TORTURE_OPTIONS(CHECK_NUM, CHECK_WORDS)
	return 0;
}

static int cmd_preempt(int argc, char **argv)
{
	check_argv(argc, argv);
	if (argc != 2)
		return -1;
	int m = preempt_mode_parse(argv[1]);
	FUZZ_ASSERT(m >= -1 && m < NR_PREEMPT_MODES);
	return m < 0 ? -1 : 0;
}

static int cmd_help(int argc, char **argv)
{
	check_argv(argc, argv);
	bench_help_all();
	return 0;
}

const struct shell_cmd shell_cmds[] = {
	{ "help", "help", cmd_help },
	{ "bench", "bench NAME [key=value ...]", cmd_bench },
	{ "torture", "torture [key=value ...]", parse_torture },
	{ "preempt", "preempt [none|voluntary|full]", cmd_preempt },
};
const size_t shell_ncmds = ARRAY_SIZE(shell_cmds);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct line_editor e = { .len = 0, .echo = true };
	for (size_t i = 0; i < size; i++) {
		if (line_editor_feed(&e, data[i])) {
			FUZZ_ASSERT(host_strlen(e.buf) <= SHELL_LINE_MAX);
			shell_exec(e.buf);
		}
		FUZZ_ASSERT(e.len <= SHELL_LINE_MAX);
	}
	char *list = malloc(size + 1); /* exact size: ASan sees a read past the NUL */
	FUZZ_ASSERT(list);
	memcpy(list, data, size);
	list[size] = 0;
	int failed = shell_exec_list(list);
	FUZZ_ASSERT(failed >= 0);
	free(list);
	return 0;
}
