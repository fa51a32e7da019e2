/* The labs' case runner (tests/labs/lab.h). The suite's thread (the boot
 * thread, on CPU 0) becomes a FIFO thread of the highest priority while
 * a case runs, so that a case's own threads cannot keep it from its
 * deadline; the case runs in a normal thread pinned to CPU 0. Two limits:
 *   - the case's own, timeout_ms per seed (KTEST_CASE_TIMED): the runner
 *     stops waiting, the case
 *     says "# timeout after N virtual ms", and the next case runs (the
 *     timed-out thread is left where it is, and said so);
 *   - the case watchdog (tests/kernel/ktest.h): if the runner still
 *     has not taken the timeout at twice the limit plus 20 ms (its CPU
 *     stuck with IRQs off, or never preempting back to it), the first
 *     CPU to see it prints the timeout and "Bail out!" and ends the run
 *     (QEMU exits: tests failed), so the host never waits for a kernel
 *     that cannot go on. */
#include "tests/labs/lab.h"
#include "kernel/lab.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"
#include "sched/sched.h"
#include "sched/wait.h"
#include "mm/mm.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "arch/x86_64/cpu.h"

static struct {
	u32 n;
	u64 v[LAB_SEEDS_MAX];
} seeds = { 1, { 1 } };
static char only_case[48];

static int set_seeds(const char *v)
{
	u64 got[LAB_SEEDS_MAX];
	u32 n = 0;
	char word[24];
	for (const char *p = v;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (!len || len >= sizeof(word) || n == LAB_SEEDS_MAX)
			return -1;
		strlcpy(word, p, len + 1);
		if (parse_u64(word, &got[n++]))
			return -1;
		if (!e)
			break;
		p = e + 1;
	}
	seeds.n = n;
	memcpy(seeds.v, got, n * sizeof(got[0]));
	return 0;
}
early_param(lab_seeds, set_seeds, seeds, "up to 8 numbers separated by commas", "1");

static int set_case(const char *v)
{
	return cmdline_string(v, only_case, sizeof(only_case));
}
early_param(lab_case, set_case, only_case, "the name of one case of the lab suites", "every case");

u32 lab_seed_count(void)
{
	return seeds.n;
}

u64 lab_seed(u32 i)
{
	return i < seeds.n ? seeds.v[i] : 0;
}

u32 lab_cpu_x(void)
{
	return nr_cpus_online > 1 ? nr_cpus_online - 1 : 0;
}

/* One case's run. Allocated, and left behind by a timeout: the case's
 * thread may still write to it. */
struct lab_run {
	const struct ktest_case *c;
	struct ktest *t;
	struct completion done;
	struct hrtimer deadline;
	volatile int finished;
};

static void case_thread(void *arg)
{
	struct lab_run *r = arg;
	u32 count0 = preempt_count();
	bool irqs0 = irqs_disabled();
	r->c->fn(r->t);
	if (preempt_count() != count0)
		ktest_fail(r->t, __FILE__, __LINE__, "preempt count leaked: 0x%x before, 0x%x after",
			   count0, preempt_count());
	if (irqs_disabled() != irqs0)
		ktest_fail(r->t, __FILE__, __LINE__, "interrupt flag changed by the test");
	r->finished = 1;
	complete(&r->done);
}

static void deadline_fn(struct hrtimer *h)
{
	struct lab_run *r = container_of(h, struct lab_run, deadline);
	complete(&r->done);
}

/* The case that last ran out of time, if any. */
static const char *timed_out_case;

/* After a timeout: the first CPU that has taken no tick for 5 ms (IRQs
 * off for good: the timed-out case left it spinning), or -1. */
static int stuck_cpu(void)
{
	for_each_online_cpu(c) {
		u64 t0 = tick_count(c);
		if (!lab_spin_until(tick_count(c) != t0, 5 * NSEC_PER_MSEC))
			return (int)c;
	}
	return -1;
}

/* The lab of suite lab_lN, or of a course's held-out suite lab_lN_WORD
 * (make grade GRADE_EXTRA=, tools/lab/heldout.py); 0 for none. */
static u32 lab_of(const struct ktest_suite *s)
{
	char num[4];
	if (strncmp(s->name, "lab_l", 5))
		return 0;
	const char *p = s->name + 5, *end = strchr(p, '_');
	size_t len = end ? (size_t)(end - p) : strlen(p);
	u64 n;
	if (!len || len >= sizeof(num))
		return 0;
	strlcpy(num, p, len + 1);
	return !parse_u64(num, &n) && n <= LAB_COUNT ? (u32)n : 0;
}

/* Fail the case for every stub of its lab that ran meanwhile. */
static void report_stubs(struct ktest *t, u32 lab, const u64 *before)
{
	for (u32 i = 0; i < LAB_STUBS; i++) {
		const struct lab_stub *s = lab_stub_at(lab, i);
		if (!s || READ_ONCE(s->hits) == before[i])
			continue;
		t->failed = true;
		ktest_diag(t, "lab L%u: %s() is still the stub that make lab left (it ran %llu "
			   "times in this case): %s", lab, s->func,
			   (unsigned long long)(READ_ONCE(s->hits) - before[i]), s->hint);
	}
}

void lab_run_case(const struct ktest_suite *s, const struct ktest_case *c, struct ktest *t,
		  int number)
{
	if (only_case[0] && strcmp(only_case, c->name)) {
		ktest_skip(t, "lab_case=%s", only_case);
		return;
	}
	if (!PREEMPT_IPI_FOLDS || !clock_icount) {
		ktest_skip(t, "labs run with COUNT=folded, clock=icount (make grade); here COUNT=%s, %s",
			   preempt_model_name(), clock_icount ? "icount" : "the wall clock");
		return;
	}
	if (timed_out_case) {
		int cpu = stuck_cpu();
		if (cpu >= 0) {
			console_printf("Bail out! lab: CPU %d has taken no interrupt since case %s ran "
				       "out of time; the cases from %s on cannot run\n", cpu,
				       timed_out_case, c->name);
			qemu_exit(EXIT_FAIL);
		}
	}
	u32 lab = lab_of(s);
	u64 before[LAB_STUBS];
	for (u32 i = 0; i < LAB_STUBS; i++) {
		const struct lab_stub *st = lab_stub_at(lab, i);
		before[i] = st ? READ_ONCE(st->hits) : 0;
	}
	struct lab_run *r = kzalloc(sizeof(*r));
	BUG_ON(!r);
	r->c = c;
	r->t = t;
	u32 limit = (c->timeout_ms ? c->timeout_ms : 50) * (seeds.n ? seeds.n : 1);
	init_completion(&r->done);
	hrtimer_init(&r->deadline, deadline_fn);

	struct thread *self = current_thread();
	int prio = self->prio;
	sched_setscheduler(self, 99);
	/* The watchdog ends the run if the runner cannot take the timeout
	 * by twice the limit plus 20 ms (its CPU stuck with IRQs off, or no
	 * preemption back to this FIFO thread). */
	ktest_watch_begin(c->name, number, limit, 2 * limit + 20);
	preempt_disable();
	u32 me = raw_smp_processor_id();
	hrtimer_start(&r->deadline, ktime_get_ns() + limit * NSEC_PER_MSEC);
	preempt_enable();
	struct thread *th = thread_create(case_thread, r, c->name, PRIO_NORMAL, 1UL << me);
	wait_for_completion(&r->done);
	hrtimer_cancel(&r->deadline);
	ktest_watch_end(); /* took it, in time */
	if (READ_ONCE(r->finished)) {
		sched_setscheduler(self, prio);
		thread_join(th);
		kfree(r);
	} else {
		t->timed_out_ms = limit;
		timed_out_case = c->name;
		ktest_diag(t, "its thread is left running: the cases after it may see it");
		/* A CPU that takes no interrupt may hold, for good, a lock
		 * sched_setscheduler() takes: rt_mutex_pi_lock, under which a
		 * broken chain walk can loop (L6). Waiting for it would stop
		 * this CPU too, and nothing would say why; the next case
		 * bails out naming the stuck CPU instead. */
		if (stuck_cpu() < 0)
			sched_setscheduler(self, prio);
	}
	report_stubs(t, lab, before);
}
