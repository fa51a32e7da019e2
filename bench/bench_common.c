#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "sched/preempt_mode.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/string_helpers.h"
#include "lib/format.h"

/* " iters irq_iters": the option keys, for the messages. */
static void option_keys(char *buf, size_t size, const struct bench_opt *opts, size_t n)
{
	buf[0] = 0;
	for (size_t j = 0; j < n; j++) {
		strlcpy(buf + strlen(buf), " ", size - strlen(buf));
		strlcpy(buf + strlen(buf), opts[j].key, size - strlen(buf));
	}
}

int opts_parse(const char *cmd, int argc, char **argv, struct bench_opt *opts, size_t n)
{
	char known[160], e[ESCAPE_SIZE(40)];
	option_keys(known, sizeof(known), opts, n);
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		struct bench_opt *o = NULL;
		if (eq == argv[i]) {
			console_printf("%s: '%s': an option needs a name before its '=' (options:%s, as key=value)\n",
				       cmd, string_escape_str(argv[i], e, sizeof(e)), known);
			return -1;
		}
		if (eq)
			*eq = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(opts[j].key, argv[i]))
				o = &opts[j];
		if (!o || !eq) {
			console_printf("%s: %s '%s' (options:%s, as key=value)\n", cmd,
				       o ? "no value for" : "unknown option",
				       string_escape_str(argv[i], e, sizeof(e)), known);
			return -1;
		}
		const char *v = eq + 1;
		string_escape_str(v, e, sizeof(e));
		if (o->words) {
			int w = match_word(v, o->words, o->nwords);
			if (w < 0) {
				console_printf("%s: %s=%s: expected one of:", cmd, o->key, e);
				for (size_t j = 0; j < o->nwords; j++)
					console_printf(" %s", o->words[j]);
				console_printf("\n");
				return -1;
			}
			*o->value = (u64)w;
			continue;
		}
		u64 x;
		if (parse_u64(v, &x) || x < o->min || x > o->max) {
			console_printf("%s: %s=%s: expected a number from %llu to %llu\n", cmd,
				       o->key, e, (unsigned long long)o->min, (unsigned long long)o->max);
			return -1;
		}
		*o->value = x;
	}
	return 0;
}

int bench_parse(const char *bench, int argc, char **argv, struct bench_opt *opts, size_t n)
{
	char cmd[32];
	snprintf(cmd, sizeof(cmd), "bench %s", bench);
	return opts_parse(cmd, argc, argv, opts, n);
}

void opts_usage(const char *cmd, const struct bench_opt *opts, size_t n, const char *what)
{
	console_printf("  %-16s [", cmd);
	for (size_t j = 0; j < n; j++) {
		const struct bench_opt *o = &opts[j];
		console_printf("%s%s=", j ? " " : "", o->key);
		if (o->words)
			for (size_t w = 0; w < o->nwords; w++)
				console_printf("%s%s", w ? "|" : "", o->words[w]);
		else
			console_printf("%llu-%llu", (unsigned long long)o->min, (unsigned long long)o->max);
	}
	console_printf("]  %s\n", what);
}

void bench_usage(const char *bench, const struct bench_opt *opts, size_t n, const char *what)
{
	char cmd[32];
	snprintf(cmd, sizeof(cmd), "bench %s", bench);
	opts_usage(cmd, opts, n, what);
}

void bench_help_all(void)
{
#define BENCH_HELP(name, options, what)                                                          \
	{                                                                                        \
		static const struct bench_opt o[] = { options(BENCH_USAGE_NUM, BENCH_USAGE_WORDS) }; \
		bench_usage(#name, o, ARRAY_SIZE(o), what);                                      \
	}
	BENCHES(BENCH_HELP)
#undef BENCH_HELP
}

/* A PREEMPT_RT kernel's mode is "rt" (the build's name, make PREEMPT=rt)
 * when it runs full, "rt-lazy" when it runs lazy: its figures are told
 * apart from full's and lazy's without RT. */
int bench_context(char *buf, size_t size)
{
	const char *mode = preempt_mode_name(preempt_mode);
	if (PREEMPT_RT)
		mode = preempt_mode == PREEMPT_MODE_LAZY ? "rt-lazy" : "rt";
	return snprintf(buf, size, "model=%s mode=%s smp=%u clock=%s", preempt_model_name(),
			mode, nr_cpus_online, clock_icount ? "icount" : "wall");
}

int fmt_centi(char *buf, size_t size, u64 x100)
{
	return snprintf(buf, size, "%llu.%02llu", (unsigned long long)(x100 / 100),
			(unsigned long long)(x100 % 100));
}

int fmt_ratio(char *buf, size_t size, u64 num, u64 den, unsigned decimals)
{
	u64 scale = 1;
	for (unsigned i = 0; i < decimals; i++)
		scale *= 10;
	if (!den)
		return snprintf(buf, size, "0");
	/* Long division, a digit at a time (rem < den: no overflow for
	 * den < 2^60), rounded at the last digit. */
	u64 whole = num / den, rem = num % den, frac = 0;
	for (unsigned i = 0; i < decimals; i++) {
		rem *= 10;
		frac = frac * 10 + rem / den;
		rem %= den;
	}
	if (rem >= den - rem)
		frac++;
	if (frac >= scale) {
		whole++;
		frac -= scale;
	}
	if (!decimals)
		return snprintf(buf, size, "%llu", (unsigned long long)whole);
	return snprintf(buf, size, "%llu.%0*llu", (unsigned long long)whole, (int)decimals,
			(unsigned long long)frac);
}

u64 bench_ns_x100(u64 ticks, u64 n)
{
	return n ? tsc_to_ns(ticks * 100) / n : 0;
}
