#include "tests/kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/panic.h"
#include "lib/string.h"
#include "lib/string_helpers.h"
#include "lib/format.h"
#include "arch/x86_64/cpu.h"
#include "kernel/time/time.h"
#include "kernel/cmdline.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"

extern const struct ktest_suite _ktest_suites_start[], _ktest_suites_end[];
u32 ktest_failures;

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->failed = true;
	console_printf("    # %s: %s:%d: %s\n", t->name, file, line, msg);
}

void ktest_skip(struct ktest *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
	t->skipped = true;
}

void ktest_diag(struct ktest *t, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	console_printf("    # %s: %s\n", t->name, msg);
}

static const struct ktest_suite *find_suite(const char *name, size_t len)
{
	for (const struct ktest_suite *s = _ktest_suites_start; s < _ktest_suites_end; s++)
		if (strlen(s->name) == len && !strncmp(s->name, name, len))
			return s;
	return NULL;
}

void ktest_list(void)
{
	for (const struct ktest_suite *s = _ktest_suites_start; s < _ktest_suites_end; s++)
		printk("  %s (%zu cases%s)\n", s->name, s->ncases, s->by_name ? ", by name only" : "");
}

static bool run_suite(const struct ktest_suite *s, int number)
{
	bool suite_ok = true;
	console_printf("    KTAP version 1\n    # Subtest: %s\n    1..%zu\n", s->name, s->ncases);
	for (size_t i = 0; i < s->ncases; i++) {
		struct ktest t = { .name = s->cases[i].name };
		u32 count_before = preempt_count();
		bool irqs_before = irqs_disabled();
		if (s->run) {
			s->run(s, &s->cases[i], &t, (int)i + 1);
		} else if (ktest_case_ms) {
			ktest_watch_begin(t.name, (int)i + 1, ktest_case_ms, ktest_case_ms);
			s->cases[i].fn(&t);
			ktest_watch_end();
		} else {
			s->cases[i].fn(&t);
		}
		/* A test must leave the CPU as it found it. */
		if (preempt_count() != count_before)
			ktest_fail(&t, __FILE__, __LINE__,
				   "preempt count leaked: 0x%x before, 0x%x after",
				   count_before, preempt_count());
		if (irqs_disabled() != irqs_before)
			ktest_fail(&t, __FILE__, __LINE__, "interrupt flag changed by the test");
		if (t.timed_out_ms) {
			suite_ok = false;
			console_printf("    not ok %zu %s # timeout after %u %s ms\n", i + 1, t.name,
				       t.timed_out_ms, clock_icount ? "virtual" : "wall-clock");
		} else if (t.failed) {
			suite_ok = false;
			console_printf("    not ok %zu %s\n", i + 1, t.name);
		} else if (t.skipped) {
			console_printf("    ok %zu %s # SKIP %s\n", i + 1, t.name, t.skip_reason);
		} else {
			console_printf("    ok %zu %s\n", i + 1, t.name);
		}
	}
	console_printf("%s %d %s\n", suite_ok ? "ok" : "not ok", number, s->name);
	return suite_ok;
}

static bool chosen_already(const struct ktest_suite **chosen, int n, const struct ktest_suite *s)
{
	for (int i = 0; i < n; i++)
		if (chosen[i] == s)
			return true;
	return false;
}

int ktest_select(const char *list, const struct ktest_suite **chosen, size_t max)
{
	int n = 0;
	for (const char *p = list;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char name[ESCAPE_SIZE(40)], tmp[256];
		strlcpy(tmp, p, len < sizeof(tmp) ? len + 1 : sizeof(tmp));
		string_escape_str(tmp, name, sizeof(name));
		if (len == 0) {
			pr_err("test: an empty suite name in '%s'; the suites are all, or:\n",
			       string_escape_str(list, name, sizeof(name)));
			ktest_list();
			return -1;
		}
		if (len == 5 && !strncmp(p, "panic", 5)) {
			pr_err("test: 'panic' is not a suite: test=panic, alone, panics on purpose "
			       "(nothing else runs), so it is not one of a list\n");
			return -1;
		}
		bool all = len == 3 && !strncmp(p, "all", 3);
		const struct ktest_suite *s = all ? _ktest_suites_start : find_suite(p, len);
		if (!s) {
			pr_err("test: no suite named '%s'; the suites are all, or:\n", name);
			ktest_list();
			return -1;
		}
		const struct ktest_suite *end = all ? _ktest_suites_end : s + 1;
		for (; s < end; s++)
			if (!(all && s->by_name) && !chosen_already(chosen, n, s) && (size_t)n < max)
				chosen[n++] = s;
		if (!e)
			return n;
		p = e + 1;
	}
}

u32 ktest_suite_number;

int ktest_run(const char *list)
{
	const struct ktest_suite *chosen[64];
	int n = ktest_select(list, chosen, ARRAY_SIZE(chosen));
	if (n < 0)
		return -1;
	int failed = 0;
	console_printf("KTAP version 1\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		ktest_suite_number = (u32)i + 1;
		if (!run_suite(chosen[i], i + 1))
			failed++;
	}
	ktest_suite_number = 0;
	ktest_failures += (u32)failed;
	return failed;
}

/* ---- the case watchdog (ktest.h) ---- */

u32 ktest_case_ms;

static int set_case_ms(const char *v)
{
	return cmdline_u32(v, &ktest_case_ms, 1, 3600 * 1000);
}
early_param(ktest_case_ms, set_case_ms, ktest_case_ms, "virtual ms, 1 to 3600000",
	    "0: only the labs' cases are watched");

#define WATCH_PERIOD (5 * NSEC_PER_MSEC)

/* The case running now (static: no lifetime to get wrong). */
static struct {
	const char *name;
	int number;
	u32 limit_ms, bail_ms;
	volatile u64 bail_at;      /* 0: no case running */
	volatile int done;         /* it returned (or a CPU bailed out) */
} watch;
static struct hrtimer watch_timer[MAX_CPUS];

static void watch_fn(struct hrtimer *h)
{
	u64 now = ktime_get_ns(), at = READ_ONCE(watch.bail_at);
	if (at && now >= at && !__atomic_exchange_n(&watch.done, 1, __ATOMIC_SEQ_CST)) {
		/* The case interrupted here may be capturing this CPU's
		 * output (the bench suite does): this goes to the console. */
		printk_capture_stop();
		console_printf("    not ok %d %s # timeout after %u %s ms\n", watch.number, watch.name,
			       watch.limit_ms, clock_icount ? "virtual" : "wall-clock");
		console_printf("Bail out! ktest: case %s did not return within %u ms (its thread "
			       "got no turn, or never came back: a CPU stuck with IRQs off, a lost "
			       "wake-up, a loop); CPU %u ends the run\n", watch.name, watch.bail_ms,
			       raw_smp_processor_id());
		qemu_exit(EXIT_FAIL);
	}
	hrtimer_start(h, now + WATCH_PERIOD);
}

static void start_watch(void *arg)
{
	(void)arg;
	struct hrtimer *h = &watch_timer[raw_smp_processor_id()];
	hrtimer_init(h, watch_fn);
	hrtimer_start(h, ktime_get_ns() + WATCH_PERIOD);
}

/* Once, before the first watched case: every CPU is still answering. */
static void start_watches(void)
{
	static bool started;
	if (started)
		return;
	started = true;
	preempt_disable();
	u32 me = raw_smp_processor_id();
	start_watch(NULL);
	preempt_enable();
	for_each_online_cpu(c)
		if (c != me)
			smp_call_function_single(c, start_watch, NULL, true);
}

void ktest_watch_begin(const char *name, int number, u32 limit_ms, u32 bail_ms)
{
	start_watches();
	watch.name = name;
	watch.number = number;
	watch.limit_ms = limit_ms;
	watch.bail_ms = bail_ms;
	watch.done = 0;
	WRITE_ONCE(watch.bail_at, ktime_get_ns() + (u64)bail_ms * NSEC_PER_MSEC);
}

void ktest_watch_end(void)
{
	/* A CPU that already claimed it is ending the run. */
	while (__atomic_exchange_n(&watch.done, 1, __ATOMIC_SEQ_CST))
		cpu_relax();
	WRITE_ONCE(watch.bail_at, 0);
}
