/* The shell's `fail`: fault injection (kernel/debug/fault_inject.h).
 *
 *   fail                    each attr: probability, interval, space and
 *                           times left, calls asked and failures injected;
 *                           the seed
 *   fail NAME PERCENT       NAME fails PERCENT% of eligible calls (0: off)
 *   fail NAME I,P,S,T       as the boot option NAME=I,P,S,T
 *   fail seed N             every generator from seed N (counts restart)
 *   fail fuzz sys|ipc [calls=N] [seed=S] [attr=NAME] [percent=P]
 *                           the fuzzers under injection with a leak check
 *                           (tests/fault/fault_fuzz.h): each allocator of
 *                           the set at 1% and 10%, or attr= at percent= */
#include "shell/shell.h"
#include "kernel/debug/fault_inject.h"
#include "tests/fault/fault_fuzz.h"
#include "bench/bench.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/string_helpers.h"

static void show(void)
{
	console_printf("fault injection: seed %llu, %s\n",
		       (unsigned long long)fault_inject_current_seed(),
		       fault_inject_started() ? "on for system calls" : "not yet started (boot)");
	/* SPACE and TIMES: what is left, as Linux's debugfs files show them. */
	console_printf("NAME                PROB INTERVAL        SPACE   TIMES        ASKED     INJECTED\n");
	for_each_fault_attr(a)
		console_printf("%-18s %4u%% %8u %12llu %7lld %12llu %12llu\n", a->name,
			       a->cfg.probability, a->cfg.interval,
			       (unsigned long long)READ_ONCE(a->space_left),
			       (long long)READ_ONCE(a->times_left), (unsigned long long)READ_ONCE(a->asked),
			       (unsigned long long)READ_ONCE(a->injected));
	console_printf("%llu failures injected since the seed was set\n",
		       (unsigned long long)fault_injected_total());
}

static struct fault_attr *attr_named(const char *name)
{
	struct fault_attr *a = fault_attr_find(name);
	if (!a) {
		char e[ESCAPE_SIZE(40)];
		console_printf("fail: no fault attr '%s' (attrs:", string_escape_str(name, e, sizeof(e)));
		for_each_fault_attr(b)
			console_printf(" %s", b->name);
		console_printf(")\n");
	}
	return a;
}

static int set_attr(const char *name, const char *v)
{
	struct fault_attr *a = attr_named(name);
	if (!a)
		return -1;
	struct fault_config c = { 1, 0, 0, -1 };
	u64 p;
	const char *why = NULL;
	if (!strchr(v, ',')) {
		if (parse_u64(v, &p) || p > 100)
			why = "expected a percentage from 0 to 100";
		else
			c.probability = (u32)p;
	} else {
		why = fault_config_parse(v, &c);
	}
	if (why) {
		char e[ESCAPE_SIZE(40)];
		console_printf("fail: %s %s: %s (a percentage, or %s)\n", name,
			       string_escape_str(v, e, sizeof(e)), why, FAULT_CONFIG_EXPECT);
		return -1;
	}
	fault_attr_set(a, &c);
	show();
	return 0;
}

static const char *const fuzzers[] = { "sys", "ipc" };
#define FAIL_FUZZ_OPTIONS(NUM, WORDS) \
	NUM(calls, 100, 1000000000)   \
	NUM(seed, 0, ~0UL)            \
	NUM(percent, 1, 100)

static int fuzz(int argc, char **argv)
{
	int f = argc >= 2 ? match_word(argv[1], fuzzers, ARRAY_SIZE(fuzzers)) : -1;
	if (f < 0) {
		console_printf("fail fuzz: which fuzzer? sys (sysfuzz) or ipc (four ipcfuzz)\n");
		return -1;
	}
	u64 calls = 50000, seed = 1, percent = 0;
	const char *name = NULL;
	/* attr=NAME by hand; the numbers by opts_parse. */
	char *rest[16];
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 2; i < argc && n < (int)ARRAY_SIZE(rest); i++) {
		if (!strncmp(argv[i], "attr=", 5))
			name = argv[i] + 5;
		else
			rest[n++] = argv[i];
	}
	struct bench_opt opts[] = { FAIL_FUZZ_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (opts_parse("fail fuzz", n, rest, opts, ARRAY_SIZE(opts)))
		return -1;
	if (!name && !percent)
		return fault_fuzz_matrix(f, calls, seed) ? -1 : 0;
	struct fault_fuzz_run r = { .fuzzer = f, .attr = name ? attr_named(name) : &failslab,
				    .percent = percent ? (u32)percent : 10, .count = calls,
				    .seed = seed };
	if (!r.attr)
		return -1;
	return fault_fuzz_one(&r);
}

int cmd_fail(int argc, char **argv)
{
	if (argc == 1) {
		show();
		return 0;
	}
	if (!strcmp(argv[1], "fuzz"))
		return fuzz(argc - 1, argv + 1);
	if (argc != 3) {
		console_printf("fail: usage: fail | fail NAME PERCENT | fail NAME I,P,S,T | "
			       "fail seed N | fail fuzz sys|ipc [options] (try 'help')\n");
		return -1;
	}
	if (!strcmp(argv[1], "seed")) {
		u64 s;
		if (parse_u64(argv[2], &s)) {
			char e[ESCAPE_SIZE(40)];
			console_printf("fail: seed %s: expected a number\n",
				       string_escape_str(argv[2], e, sizeof(e)));
			return -1;
		}
		fault_inject_seed(s);
		show();
		return 0;
	}
	return set_attr(argv[1], argv[2]);
}
