/* The torture's own thread: starts the workers (tests/torture/torture.c),
 * switches the preemption mode at random, watches for lost wake-ups,
 * stops and joins the workers, checks and prints the totals. */
#include "tests/torture/torture_internal.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/time/time.h"
#include "bench/bench.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "lib/string.h"
#include "lib/format.h"

const char *const torture_inject_names[NR_TORTURE_INJECT] = { "none", "lost", "leak" };

void torture_print(const char *fmt, ...)
{
	char line[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (tstate.quiet)
		printk(KERN_INFO "%s", line);
	else
		console_printf("%s", line);
}

static const char *state_name(const struct thread *t)
{
	switch (READ_ONCE(t->state)) {
	case THREAD_SLEEPING:
		return READ_ONCE(t->on_rq) ? "sleeping, still on its run queue" : "sleeping";
	case THREAD_RUNNING:
		return READ_ONCE(t->on_cpu) ? "running" : "ready, waiting for its CPU";
	case THREAD_DEAD:
		return "dead";
	}
	return "?";
}

static u64 sum_stat(size_t offset)
{
	u64 n = 0;
	for_each_online_cpu(c)
		n += *(const volatile u64 *)((const char *)&percpu_area[c].stats + offset);
	return n;
}
#define STAT(name) sum_stat(offsetof(struct cpu_stats, name))

/* False if a worker could not be made (no kernel stack or memory left):
 * then the ones made are started with stop set, end at once and are
 * joined. */
static bool setup(const struct torture_params *p)
{
	memset(&tstate, 0, sizeof(tstate));
	tstate.ncpus = nr_cpus_online;
	tstate.inject = p->inject;
	tstate.quiet = p->quiet;
	tstate.inject_pending = p->inject != TORTURE_INJECT_NONE;
	for (u32 i = 0; i < TORTURE_NLOCKS; i++)
		raw_spin_lock_init(&tstate.locks[i], "torture_lock");
	for (u32 i = 0; i < TORTURE_NMUTEXES; i++)
		mutex_init(&tstate.mutexes[i].m);
	for (u32 i = 0; i < TORTURE_NMUTEXES; i++)
		rt_mutex_init(&tstate.rtmutexes[i], "torture_rt_mutex");
	u32 per_cpu = tstate.ncpus == 1 ? TORTURE_THREADS_PER_CPU + 1 : TORTURE_THREADS_PER_CPU;
	u32 n = 0;
	for_each_online_cpu(c) {
		for (u32 k = 0; k < per_cpu; k++, n++) {
			struct tworker *w = &tstate.w[n];
			wait_queue_init(&w->wq);
			w->cpu = c;
			w->index = n;
			prandom_seed(&w->rng, p->seed, n + 1);
			snprintf(w->name, sizeof(w->name), "torture-%u/%u", c, k);
			w->tokens = k == 0; /* one token per CPU */
		}
	}
	tstate.nworkers = n;
	/* All created before any starts: a worker may pass to any other. */
	for (u32 i = 0; i < n; i++) {
		struct tworker *w = &tstate.w[i];
		w->th = kthread_create(torture_worker, w, w->name, PRIO_NORMAL, 1UL << w->cpu);
		if (!w->th) {
			WRITE_ONCE(tstate.stop, 1);
			for (u32 j = 0; j < i; j++)
				wake_up_thread(tstate.w[j].th);
			for (u32 j = 0; j < i; j++)
				thread_join(tstate.w[j].th);
			return false;
		}
	}
	for (u32 i = 0; i < n; i++)
		wake_up_thread(tstate.w[i].th);
	return true;
}

/* The mode to switch to: any this build can run, the current one too. */
static int random_mode(struct prandom_state *rng)
{
	int modes[NR_PREEMPT_MODES], n = 0;
	for (int m = 0; m < NR_PREEMPT_MODES; m++)
		if (preempt_mode_valid(m))
			modes[n++] = m;
	return modes[prandom_below(rng, (u32)n)];
}

struct watch {
	u64 last_progress[TORTURE_WORKERS_MAX];
	u64 since[TORTURE_WORKERS_MAX];
	bool reported[TORTURE_WORKERS_MAX];
};
static struct watch watch;

/* The lost-wake-up watchdog: a worker that holds a token, or is at work,
 * and has not moved for stall ms is reported by name. Returns how many
 * were newly found. */
static u32 watchdog(const struct torture_params *p, struct torture_result *r, u64 now)
{
	u32 found = 0;
	for (u32 i = 0; i < tstate.nworkers; i++) {
		struct tworker *w = &tstate.w[i];
		u64 pr = READ_ONCE(w->progress);
		if (pr != watch.last_progress[i] || watch.since[i] == 0) {
			watch.last_progress[i] = pr;
			watch.since[i] = now;
			continue;
		}
		bool owes = READ_ONCE(w->tokens) > 0 || READ_ONCE(w->busy);
		if (!owes || watch.reported[i] || now - watch.since[i] < p->stall_ms * NSEC_PER_MSEC)
			continue;
		watch.reported[i] = true;
		found++;
		if (!r->lost_name[0])
			strlcpy(r->lost_name, w->name, sizeof(r->lost_name));
		torture_print("torture: lost wake-up: thread %s (id %u) on CPU %u, %s, holds %u "
			       "token(s), no progress for %llu ms (stall=%llu)\n",
			       w->name, w->th->id, (u32)READ_ONCE(w->th->cpu), state_name(w->th),
			       w->tokens, (unsigned long long)((now - watch.since[i]) / NSEC_PER_MSEC),
			       (unsigned long long)p->stall_ms);
	}
	return found;
}

/* Stop the workers and join those that finish within stall ms; one that
 * does not is named and left (never freed: it may still run). */
static void stop_and_join(const struct torture_params *p, struct torture_result *r)
{
	WRITE_ONCE(tstate.stop, 1);
	for (u32 i = 0; i < tstate.nworkers; i++)
		wake_up_all(&tstate.w[i].wq);
	u64 give_up = ktime_get_ns() + p->stall_ms * NSEC_PER_MSEC;
	r->threads = tstate.nworkers;
	for (u32 i = 0; i < tstate.nworkers; i++) {
		struct thread *t = tstate.w[i].th;
		while (READ_ONCE(t->state) != THREAD_DEAD && ktime_get_ns() < give_up)
			sleep_ns(NSEC_PER_MSEC);
		if (READ_ONCE(t->state) != THREAD_DEAD) {
			torture_print("torture: thread %s (id %u) on CPU %u did not finish: %s\n",
				       tstate.w[i].name, t->id, (u32)READ_ONCE(t->cpu), state_name(t));
			continue;
		}
		thread_join(t);
		r->finished++;
	}
}

static void collect(struct torture_result *r)
{
	for (u32 i = 0; i < tstate.nworkers; i++) {
		const struct tworker *w = &tstate.w[i];
		r->wakeups += w->wakeups;
		r->local_wakeups += w->local_wakeups;
		r->nests += w->nests;
		r->nest_depth_max = MAX(r->nest_depth_max, w->depth_max);
		r->leaks += w->leaks;
		r->handoffs += w->handoffs;
		r->pi_sections += w->pi_sections;
		r->ipis_sent += w->ipis;
		r->sleeps += w->sleeps;
	}
}

static void progress_line(u64 elapsed_ns, const struct torture_result *r)
{
	u64 wakeups = 0;
	for (u32 i = 0; i < tstate.nworkers; i++)
		wakeups += READ_ONCE(tstate.w[i].wakeups);
	torture_print("torture: %llu s: %llu cross-CPU wake-ups, %llu mode switches so far\n",
		       (unsigned long long)(elapsed_ns / NSEC_PER_SEC), (unsigned long long)wakeups,
		       (unsigned long long)r->switches);
}

static void print_totals(const struct torture_params *p, const struct torture_result *r,
			 int start_mode)
{
	u64 rate = r->ms ? r->wakeups * 1000 / r->ms : 0;
	torture_print("torture: %llu cross-CPU wake-ups, %llu lost, %llu count leaks, %llu mode "
		       "switches, %llu IPIs, %llu mutex hand-offs, %u threads finished of %u, in "
		       "%llu ms (%llu wake-ups/s)\n",
		       (unsigned long long)r->wakeups, (unsigned long long)r->lost,
		       (unsigned long long)r->leaks, (unsigned long long)r->switches,
		       (unsigned long long)r->ipis_ran, (unsigned long long)r->handoffs,
		       r->finished, r->threads, (unsigned long long)r->ms, (unsigned long long)rate);
	torture_print("torture: checked: %llu nests (depth 1-%llu) back to count 0 with IRQs on, "
		       "%llu context-switch counts at %u; %llu of %llu IPIs ran; %llu same-CPU "
		       "wake-ups, %llu sleeps; %llu bit-31 requests lost and repaired (racy only); "
		       "%llu rt_mutex sections, the PI invariant checked %llu times, broken %llu\n",
		       (unsigned long long)r->nests, (unsigned long long)r->nest_depth_max,
		       (unsigned long long)r->count_checks, SWITCH_PREEMPT_COUNT,
		       (unsigned long long)r->ipis_ran, (unsigned long long)r->ipis_sent,
		       (unsigned long long)r->local_wakeups, (unsigned long long)r->sleeps,
		       (unsigned long long)r->lost_resched, (unsigned long long)r->pi_sections,
		       (unsigned long long)r->pi_checks, (unsigned long long)r->pi_broken);
	char ctx[96];
	bench_context(ctx, sizeof(ctx));
	torture_print("BENCH torture %s start=%s seed=%llu duration_ms=%llu inject=%s wakeups=%llu "
		       "lost=%llu leaks=%llu switches=%llu ipis=%llu handoffs=%llu threads=%u "
		       "finished=%u ms=%llu rate=%llu result=%s\n",
		       ctx, preempt_mode_name(start_mode), (unsigned long long)p->seed,
		       (unsigned long long)p->duration_ms, torture_inject_names[p->inject],
		       (unsigned long long)r->wakeups, (unsigned long long)r->lost,
		       (unsigned long long)r->leaks, (unsigned long long)r->switches,
		       (unsigned long long)r->ipis_ran, (unsigned long long)r->handoffs, r->threads,
		       r->finished, (unsigned long long)r->ms, (unsigned long long)rate,
		       r->passed ? "pass" : "fail");
	torture_print("torture: %s\n", r->passed ? "PASS" : "FAIL");
}

static volatile int torture_busy;

bool torture_run(const struct torture_params *p, struct torture_result *r)
{
	memset(r, 0, sizeof(*r));
	int idle = 0;
	if (!__atomic_compare_exchange_n(&torture_busy, &idle, 1, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST)) {
		torture_print("torture: one is running already\n");
		return false;
	}
	int start_mode = preempt_mode;
	struct prandom_state rng;
	prandom_seed(&rng, p->seed, 0);
	memset(&watch, 0, sizeof(watch));
	u64 bugs = bug_reports, checks = STAT(switch_count_checks), lost_rs = STAT(lost_resched);
	if (!setup(p)) {
		torture_print("torture: cannot start %u threads: no kernel stack or memory left\n",
			       tstate.nworkers);
		__atomic_store_n(&torture_busy, 0, __ATOMIC_SEQ_CST);
		return false;
	}
	torture_print("torture: seed=%llu duration=%llu ms stall=%llu ms inject=%s: %u threads on %u CPUs, "
	    "count model %s, modes:%s, from %s (clock %s)\n",
	    (unsigned long long)p->seed, (unsigned long long)p->duration_ms,
	    (unsigned long long)p->stall_ms, torture_inject_names[p->inject], tstate.nworkers,
	    tstate.ncpus, preempt_model_name(), PREEMPT_HAS_COUNT ? PREEMPT_MODE_NAMES : " none voluntary",
	    preempt_mode_name(start_mode), clock_icount ? "icount" : "wall");

	u64 start = ktime_get_ns(), end = start + p->duration_ms * NSEC_PER_MSEC;
	u64 next_switch = start + (1 + prandom_below(&rng, 20)) * NSEC_PER_MSEC;
	u64 next_progress = start + 10 * NSEC_PER_SEC;
	for (u64 now = start; now < end && !r->lost; now = ktime_get_ns()) {
		sleep_ns(MIN(end - now, 2 * NSEC_PER_MSEC));
		now = ktime_get_ns();
		r->lost += watchdog(p, r, now);
		r->pi_checks++;
		r->pi_broken += rt_mutex_check_pi();
		if (now >= next_switch && now < end) {
			int m = random_mode(&rng);
			if (preempt_mode_set(m) != 0 || preempt_mode != m ||
			    patch_sites_in_mode(m) != patch_sites_count()) {
				r->switch_failures++;
				torture_print("torture: the switch to mode %s failed\n",
					       preempt_mode_name(m));
			}
			r->switches++;
			next_switch = ktime_get_ns() + (1 + prandom_below(&rng, 20)) * NSEC_PER_MSEC;
		}
		if (now >= next_progress) {
			progress_line(now - start, r);
			next_progress += 10 * NSEC_PER_SEC;
		}
	}
	stop_and_join(p, r);
	r->ms = (ktime_get_ns() - start) / NSEC_PER_MSEC;
	collect(r);
	/* Every IPI ran (those sent without waiting included). */
	u64 give_up = ktime_get_ns() + p->stall_ms * NSEC_PER_MSEC;
	while (READ_ONCE(tstate.ipis_ran) != r->ipis_sent && ktime_get_ns() < give_up)
		sleep_ns(NSEC_PER_MSEC);
	r->ipis_ran = READ_ONCE(tstate.ipis_ran);
	if (preempt_mode != start_mode && preempt_mode_set(start_mode) == 0)
		r->switches++;
	r->count_checks = STAT(switch_count_checks) - checks;
	r->lost_resched = STAT(lost_resched) - lost_rs;
	u64 reports = bug_reports - bugs;
	if (reports)
		torture_print("torture: %llu debug report(s) during the run (BUG: lines above)\n",
			       (unsigned long long)reports);
	r->leaks += reports;
	r->passed = !r->lost && !r->leaks && !r->pi_broken && !r->switch_failures && r->finished == r->threads &&
		    r->ipis_ran == r->ipis_sent;
	print_totals(p, r, start_mode);
	if (r->finished == r->threads)
		__atomic_store_n(&torture_busy, 0, __ATOMIC_SEQ_CST);
	else /* a worker still uses tstate: no second run over it */
		torture_print("torture: a worker did not finish; no more torture runs until reboot\n");
	return r->passed;
}

/* ---- the shell's `torture key=value ...` */

#define TORTURE_WHAT "wake-ups, nests, mutexes, IPIs, mode switches on every CPU, checked"

void torture_help(void)
{
	static const struct bench_opt o[] = { TORTURE_OPTIONS(BENCH_USAGE_NUM, BENCH_USAGE_WORDS) };
	opts_usage("torture", o, ARRAY_SIZE(o), TORTURE_WHAT);
}

int cmd_torture(int argc, char **argv)
{
	/* The default seed differs from run to run (the TSC); each run
	 * prints its own, and seed=N repeats it. */
	u64 duration = 1000, seed = rdtsc() & 0xffffffffu, stall = clock_icount ? 1000 : 5000;
	u64 inject = TORTURE_INJECT_NONE;
	struct bench_opt opts[] = { TORTURE_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (opts_parse("torture", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	struct torture_params p = { .duration_ms = duration, .seed = seed, .stall_ms = stall,
				    .inject = (int)inject };
	struct torture_result r;
	return torture_run(&p, &r) ? 0 : -1;
}
