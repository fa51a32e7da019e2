#include "kernel/bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/cmdline.h"
#include "kernel/time.h"
#include "sched/preempt_mode.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/format.h"

int bench_parse(const char *bench, int argc, char **argv, struct bench_opt *opts, size_t n)
{
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		struct bench_opt *o = NULL;
		if (eq)
			*eq = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(opts[j].key, argv[i]))
				o = &opts[j];
		if (!o || !eq) {
			char known[160] = "";
			for (size_t j = 0; j < n; j++) {
				strlcpy(known + strlen(known), " ", sizeof(known) - strlen(known));
				strlcpy(known + strlen(known), opts[j].key, sizeof(known) - strlen(known));
			}
			console_printf("bench %s: %s '%s' (options:%s, as key=value)\n", bench,
				       o ? "no value for" : "unknown option", argv[i], known);
			return -1;
		}
		const char *v = eq + 1;
		if (o->words) {
			int w = match_word(v, o->words, o->nwords);
			if (w < 0) {
				console_printf("bench %s: %s=%s: expected one of:", bench, o->key, v);
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
			console_printf("bench %s: %s=%s: expected a number from %llu to %llu\n", bench,
				       o->key, v, (unsigned long long)o->min, (unsigned long long)o->max);
			return -1;
		}
		*o->value = x;
	}
	return 0;
}

int bench_context(char *buf, size_t size)
{
	return snprintf(buf, size, "model=%s mode=%s smp=%u clock=%s", preempt_model_name(),
			preempt_mode_name(preempt_mode), nr_cpus_online,
			cmdline.icount ? "icount" : "wall");
}

int fmt_centi(char *buf, size_t size, u64 x100)
{
	return snprintf(buf, size, "%llu.%02llu", (unsigned long long)(x100 / 100),
			(unsigned long long)(x100 % 100));
}

u64 bench_ns_x100(u64 ticks, u64 n)
{
	return n ? tsc_to_ns(ticks * 100) / n : 0;
}
