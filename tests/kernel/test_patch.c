/* The patch suite: the preemption mode's patch sites (arch/x86_64/
 * patch_site.h) hold what each mode asks, a corrupted site makes a
 * switch refuse (and say so) instead of writing over it, and 1,000
 * switches while every CPU runs preempt-heavy work lose no reschedule.
 * The static keys' sites (kernel/static_key.h) follow their key and
 * nothing else, and refuse the same way.
 *
 * The suite owns one site of its own, ktest_probe (on in voluntary, a
 * mode every count model can run), in a function nobody else calls: the
 * corruption case changes its bytes while the other CPUs run, which would
 * not be safe for a site the kernel uses. Its key `ktest` has one site,
 * ktest_key_probe's, for the same reason. */
#include "tests/kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/ksyms.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "kernel/static_key.h"
#include "arch/x86_64/kernel/text_poke.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mm/vm.h"
#include "mm/mm.h"
#include "lib/string.h"

static __noinline int ktest_probe(void)
{
	patch_site_jump(ktest_probe, PATCH_MODES1(VOLUNTARY), on);
	return 0;
on:
	return 1;
}

static __noinline int ktest_key_probe(void)
{
	return static_branch_unlikely(KTEST, ktest_key_probe) ? 1 : 0;
}

static const struct patch_site *site_named(const char *name)
{
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/* The function an address lies in. */
static const char *function_at(u64 addr)
{
	u64 off, size;
	const char *f = ksym_lookup(addr, &off, &size);
	return f ? f : "?";
}

/* A site of that name lies in that function (the compiler may have
 * inlined the function elsewhere too: each copy has its own site). */
static bool site_in(const char *name, const char *func)
{
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++)
		if (!strcmp(s->name, name) && !strcmp(function_at(s->addr), func))
			return true;
	return false;
}

static void sites_at_boot(struct ktest *t)
{
	KT_EXPECT(t, patch_sites_check());
	KT_EXPECT_EQ(t, patch_sites_in_mode(preempt_mode), patch_sites_count());
	KT_EXPECT(t, site_in("preempt_schedule", "preempt_schedule_thunk"));
	KT_EXPECT(t, site_in("preempt_schedule_irq", "irqentry_exit_cond_resched"));
	KT_EXPECT(t, site_in("cond_resched", "cond_resched"));
	KT_EXPECT(t, site_in("might_resched", "might_resched"));
	KT_EXPECT(t, site_in("ktest_probe", "ktest_probe"));
	const struct patch_site *s = site_named("preempt_schedule");
	KT_EXPECT(t, s && !strcmp(function_at(s->target), "preempt_schedule_regs"));
	ktest_diag(t, "%lu sites, mode %s", (unsigned long)patch_sites_count(),
		   preempt_mode_name(preempt_mode));
}

/* W^X around the sites: text is mapped read-only at its link address
 * and in the direct map, and text_poke()'s alias is gone after a write. */
static void text_never_writable(struct ktest *t)
{
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++) {
		u64 direct = (u64)phys_to_virt(virt_to_phys((void *)s->addr));
		u64 f = virt_pte_flags(s->addr), fd = virt_pte_flags(direct);
		KT_EXPECT(t, f && !(f & PTE_W) && !(f & PTE_NX));
		KT_EXPECT(t, fd && !(fd & PTE_W) && (fd & PTE_NX));
	}
	const struct patch_site *s = site_named("ktest_probe");
	KT_ASSERT(t, s != NULL);
	u8 same[PATCH_SITE_LEN];
	memcpy(same, (const void *)s->addr, PATCH_SITE_LEN);
	u64 f = local_irq_save();
	text_poke((void *)s->addr, same, PATCH_SITE_LEN);
	local_irq_restore(f);
	KT_EXPECT(t, !virt_is_mapped(TEXT_POKE_VA));
	KT_EXPECT(t, !memcmp((const void *)s->addr, same, PATCH_SITE_LEN));
	ktest_diag(t, "site page flags %#lx, its direct-map alias %#lx, the poke alias unmapped",
		   (unsigned long)virt_pte_flags(s->addr),
		   (unsigned long)virt_pte_flags((u64)phys_to_virt(virt_to_phys((void *)s->addr))));
}

static void sites_follow_mode(struct ktest *t)
{
	int saved = preempt_mode;
	for (int m = 0; m < NR_PREEMPT_MODES; m++) {
		if (!preempt_mode_valid(m)) {
			KT_EXPECT_EQ(t, preempt_mode_set(m), PREEMPT_MODE_EINVAL);
			continue;
		}
		KT_ASSERT_EQ(t, preempt_mode_set(m), 0);
		KT_EXPECT_EQ(t, preempt_mode, m);
		KT_EXPECT_EQ(t, patch_sites_in_mode(m), patch_sites_count());
		KT_EXPECT_EQ(t, ktest_probe(), m == PREEMPT_MODE_VOLUNTARY);
		const struct patch_site *irq = site_named("preempt_schedule_irq");
		KT_EXPECT(t, irq && patch_site_is_on(irq) ==
				    (m == PREEMPT_MODE_FULL || m == PREEMPT_MODE_LAZY));
	}
	KT_EXPECT_EQ(t, preempt_mode_set(saved), 0);
}

static void poke(const struct patch_site *s, const u8 *bytes)
{
	u64 f = local_irq_save();
	text_poke((void *)s->addr, bytes, PATCH_SITE_LEN);
	local_irq_restore(f);
}

static char cap_buf[2048];

/* Flip `bit` of the site's byte `at`: good gets the bytes before, bad
 * the ones it holds now. */
static void corrupt(const struct patch_site *s, int at, u8 bit, u8 good[PATCH_SITE_LEN],
		    u8 bad[PATCH_SITE_LEN])
{
	memcpy(good, (const void *)s->addr, PATCH_SITE_LEN);
	memcpy(bad, good, PATCH_SITE_LEN);
	bad[at] ^= bit;
	poke(s, bad);
}

/* One byte of ktest_probe's site changed: the switch must refuse, write
 * no site, keep the mode, and name the site; the boot check must say the
 * same. Restored, the switch works again. */
static void corrupted_site_refused(struct ktest *t)
{
	const struct patch_site *s = site_named("ktest_probe");
	KT_ASSERT(t, s != NULL);
	int saved = preempt_mode;
	int other = 0; /* the first other mode this build runs */
	while (other == saved || !preempt_mode_valid(other))
		other++;
	u8 good[PATCH_SITE_LEN], bad[PATCH_SITE_LEN];
	corrupt(s, 1, 0x40, good, bad);

	struct printk_capture cap = { cap_buf, sizeof(cap_buf), 0, false };
	printk_capture_start(&cap);
	int r = preempt_mode_set(other);
	bool boot_ok = patch_sites_init();
	printk_capture_stop();

	KT_EXPECT_EQ(t, r, PREEMPT_MODE_EPATCH);
	KT_EXPECT_EQ(t, preempt_mode, saved);
	KT_EXPECT_EQ(t, patch_sites_in_mode(saved), patch_sites_count() - 1);
	KT_EXPECT(t, !memcmp((const void *)s->addr, bad, PATCH_SITE_LEN)); /* not written over */
	KT_EXPECT(t, !boot_ok);
	KT_EXPECT_STR_CONTAINS(t, cap_buf, "patch: site ktest_probe at ");
	KT_EXPECT_STR_CONTAINS(t, cap_buf, "refusing to patch code for mode");
	KT_EXPECT_STR_CONTAINS(t, cap_buf, "the kernel will not patch code");
	const char *line = strstr(cap_buf, "patch: site");
	if (line) {
		const char *end = strchr(line, '\n');
		ktest_diag(t, "%.*s", (int)(end ? end - line : 120), line);
	}

	poke(s, good);
	KT_EXPECT(t, patch_sites_check());
	KT_EXPECT_EQ(t, preempt_mode_set(other), 0);
	KT_EXPECT_EQ(t, patch_sites_in_mode(other), patch_sites_count());
	KT_EXPECT_EQ(t, preempt_mode_set(saved), 0);
}

/* The key's one site follows the key: ktest_key_probe() returns 1 only
 * while it is enabled; no other site changes, the mode sites included;
 * the hooks of the key `trace` are sites on the hot paths. */
static void static_key_sites(struct ktest *t)
{
	const struct patch_site *s = site_named("ktest_key_probe");
	KT_ASSERT(t, s != NULL);
	KT_EXPECT_EQ(t, s->key, STATIC_KEY_KTEST);
	KT_EXPECT_EQ(t, patch_sites_of_key(STATIC_KEY_KTEST), 1);
	KT_EXPECT(t, site_in("trace_irq_handler_entry", "irq_dispatch"));
	KT_EXPECT(t, site_in("trace_sys_enter", "ipc_fastpath"));
	KT_EXPECT(t, !static_key_enabled(STATIC_KEY_KTEST));
	KT_EXPECT(t, !patch_site_is_on(s));
	KT_EXPECT_EQ(t, ktest_key_probe(), 0);

	static u8 before[64][PATCH_SITE_LEN];
	size_t n = 0;
	for (const struct patch_site *p = _patch_sites_start; p < _patch_sites_end && n < 64; p++)
		memcpy(before[n++], (const void *)p->addr, PATCH_SITE_LEN);
	KT_ASSERT_EQ(t, static_key_enable(STATIC_KEY_KTEST), 0);
	KT_EXPECT(t, static_key_enabled(STATIC_KEY_KTEST));
	KT_EXPECT(t, patch_site_is_on(s));
	KT_EXPECT_EQ(t, ktest_key_probe(), 1);
	KT_EXPECT_EQ(t, patch_sites_in_mode(preempt_mode), patch_sites_count());
	size_t changed = 0;
	n = 0;
	for (const struct patch_site *p = _patch_sites_start; p < _patch_sites_end && n < 64; p++)
		changed += memcmp(before[n++], (const void *)p->addr, PATCH_SITE_LEN) != 0;
	KT_EXPECT_EQ(t, changed, 1);
	KT_EXPECT_EQ(t, static_key_enable(STATIC_KEY_KTEST), 0); /* already: nothing to do */
	KT_EXPECT_EQ(t, static_key_disable(STATIC_KEY_KTEST), 0);
	KT_EXPECT(t, !patch_site_is_on(s));
	KT_EXPECT_EQ(t, ktest_key_probe(), 0);
	KT_EXPECT_EQ(t, static_key_enable(NR_STATIC_KEYS), -1);
	ktest_diag(t, "%lu sites: %lu of the modes, %lu of key trace, 1 of key ktest",
		   (unsigned long)patch_sites_count(), (unsigned long)patch_sites_of_key(0),
		   (unsigned long)patch_sites_of_key(STATIC_KEY_TRACE));
}

/* One byte of the key's site changed: enabling the key must refuse, say
 * which site and why, write nothing and leave the key off. */
static void corrupted_key_site_refused(struct ktest *t)
{
	const struct patch_site *s = site_named("ktest_key_probe");
	KT_ASSERT(t, s != NULL);
	u8 good[PATCH_SITE_LEN], bad[PATCH_SITE_LEN];
	corrupt(s, 2, 0x01, good, bad);

	struct printk_capture cap = { cap_buf, sizeof(cap_buf), 0, false };
	printk_capture_start(&cap);
	int r = static_key_enable(STATIC_KEY_KTEST);
	printk_capture_stop();

	KT_EXPECT_EQ(t, r, -1);
	KT_EXPECT(t, !static_key_enabled(STATIC_KEY_KTEST));
	KT_EXPECT(t, !memcmp((const void *)s->addr, bad, PATCH_SITE_LEN));
	KT_EXPECT_STR_CONTAINS(t, cap_buf, "patch: site ktest_key_probe at ");
	KT_EXPECT_STR_CONTAINS(t, cap_buf, "refusing to patch code for key ktest on");

	poke(s, good);
	KT_EXPECT_EQ(t, static_key_enable(STATIC_KEY_KTEST), 0);
	KT_EXPECT_EQ(t, ktest_key_probe(), 1);
	KT_EXPECT_EQ(t, static_key_disable(STATIC_KEY_KTEST), 0);
	KT_EXPECT_EQ(t, ktest_key_probe(), 0);
}

/* ---- 1,000 switches under load */

#define SWITCHES 1000
/* A wake-up probe after every 5th switch: 5 is prime to the number of
 * modes (4, or 2 for COUNT=off), so the probes visit every mode. */
#define PROBE_EVERY 5

static volatile int stress_stop;
static volatile u64 worker_loops[MAX_CPUS];
/* The workers end by themselves at this time, so a lost request cannot
 * hang the suite: the CPU of a worker that never yields frees up then,
 * and the probe's lateness says what went wrong. Under icount the run's
 * length is known: 1 s from the start, strict. On the wall clock the
 * time counts from the suite's last step (suite_step()): a loaded 2-core
 * host stretched the 1000 switches on 4 vCPUs to 20.8 and 22.7 s with
 * every probe on time, and a fixed 20 s from the start called that a lost
 * reschedule; a suite's thread that a lost request keeps off its CPU
 * takes no more steps, and the workers still end 20 s later. */
static volatile u64 workers_until;

static void suite_step(void)
{
	if (!clock_icount)
		WRITE_ONCE(workers_until, ktime_get_ns() + 20 * NSEC_PER_SEC);
}
static volatile u32 workers_timed_out;

/* A little work, and a `pause`: under icount QEMU runs one vCPU at a
 * time and moves to the next at a pause, so without one a timer due on
 * another vCPU would wait for this one's whole time slice. */
static __noinline void work(void)
{
	for (volatile int i = 0; i < 16; i++)
		;
	cpu_relax();
}

/* Preempt-heavy: every iteration a preempt_disable()/enable() pair (the
 * thunk's site when a request is pending), might_resched() every 4th and
 * cond_resched() every 8th (their sites), and the tick's IRQ exit (its
 * site) wherever it strikes. Each mode has a point here that switches. */
static void worker(void *arg)
{
	u32 cpu = (u32)(u64)arg;
	u64 i = 0;
	while (!READ_ONCE(stress_stop)) {
		if (ktime_get_ns() >= READ_ONCE(workers_until)) {
			__atomic_fetch_add(&workers_timed_out, 1, __ATOMIC_RELAXED);
			break;
		}
		preempt_disable();
		work();
		preempt_enable();
		if (i % 4 == 0)
			might_resched();
		if (i % 8 == 0)
			cond_resched();
		i++;
	}
	worker_loops[cpu] = i;
}

struct probe {
	volatile u64 deadline, ran;
	volatile int armed;
};
static struct probe pr;

/* A FIFO thread woken by its timer on a CPU where a worker runs: its
 * wake-up asks that CPU to reschedule, and some point of the worker's
 * loop must act on it in every mode (lazy too: a FIFO wake-up is a full
 * request). */
static void probe_thread(void *arg)
{
	(void)arg;
	pr.deadline = ktime_get_ns() + 200 * NSEC_PER_USEC;
	pr.armed = 1;
	sleep_until(pr.deadline);
	pr.ran = ktime_get_ns();
}

static u64 bound_ns(void)
{
	/* Two ticks: far more than any mode needs here (a lost request
	 * waits for ever: the workers never block, and run for 20 s), and on
	 * the wall clock half a second for the host: a loaded 2-core host
	 * running 4 vCPUs stalled a probe 52 ms once. */
	return 2 * NSEC_PER_SEC / tick_hz + (clock_icount ? 0 : 500 * NSEC_PER_MSEC);
}

static void switch_stress(struct ktest *t)
{
	int saved = preempt_mode;
	int modes[NR_PREEMPT_MODES], nmodes = 0;
	for (int m = 0; m < NR_PREEMPT_MODES; m++)
		if (preempt_mode_valid(m))
			modes[nmodes++] = m;
	u32 probe_cpu = nr_cpus_online > 1 ? nr_cpus_online - 1 : 0;
	struct thread *th[MAX_CPUS];
	u32 n = 0;
	stress_stop = 0;
	workers_timed_out = 0;
	workers_until = ktime_get_ns() + (clock_icount ? 1 : 20) * NSEC_PER_SEC;
	u32 missing = 0; /* threads not made: no kernel stack or memory left */
	for_each_online_cpu(c) {
		th[n] = thread_create(worker, (void *)(u64)c, "patch-w", PRIO_NORMAL, 1UL << c);
		if (th[n])
			n++;
		else
			missing++;
	}

	u32 failed_switches = 0, wrong_sites = 0, probes = 0, lost = 0;
	u32 probed[NR_PREEMPT_MODES] = { 0 };
	u64 worst = 0, started = ktime_get_ns();
	int lost_mode = -1;
	for (int i = 0; i < SWITCHES; i++) {
		suite_step();
		int m = modes[i % nmodes];
		if (preempt_mode_set(m) != 0 || preempt_mode != m)
			failed_switches++;
		if (patch_sites_in_mode(m) != patch_sites_count())
			wrong_sites++;
		if (i % PROBE_EVERY)
			continue;
		pr = (struct probe){ 0 };
		struct thread *p = thread_create(probe_thread, NULL, "patch-p", 80, 1UL << probe_cpu);
		if (!p) {
			missing++;
			break;
		}
		while (!READ_ONCE(pr.armed))
			sleep_ns(20 * NSEC_PER_USEC);
		u64 give_up = pr.deadline + 4 * bound_ns();
		while (!READ_ONCE(pr.ran) && ktime_get_ns() < give_up)
			sleep_ns(50 * NSEC_PER_USEC);
		suite_step();
		probes++;
		probed[m]++;
		u64 late = pr.ran ? pr.ran - pr.deadline : ~0ULL;
		if (late > bound_ns()) {
			lost++;
			lost_mode = m;
			stress_stop = 1; /* the probe gets the CPU when the worker ends */
			thread_join(p);
			break;
		}
		if (late > worst)
			worst = late;
		thread_join(p);
	}
	stress_stop = 1;
	for (u32 i = 0; i < n; i++)
		thread_join(th[i]);
	u64 loops = 0;
	for (u32 c = 0; c < nr_cpus_online; c++)
		loops += worker_loops[c];
	ktest_diag(t, "%d switches over %d modes on %u CPUs in %llu ms: %llu worker loops, "
		   "%u wake-up probes on CPU %u, the latest ran %llu ns after its deadline (bound %llu)",
		   SWITCHES, nmodes, nr_cpus_online,
		   (unsigned long long)((ktime_get_ns() - started) / NSEC_PER_MSEC),
		   (unsigned long long)loops, probes, probe_cpu, (unsigned long long)worst,
		   (unsigned long long)bound_ns());
	if (workers_timed_out)
		ktest_diag(t, "lost reschedule: the workers ran to their time limit, so a CPU never "
			   "switched away from its worker (the suite's thread or the probe waited)");
	if (lost)
		ktest_diag(t, "lost reschedule: in mode %s the probe did not run within %llu ns",
			   preempt_mode_name(lost_mode), (unsigned long long)bound_ns());
	KT_EXPECT_EQ(t, missing, 0);
	KT_EXPECT_EQ(t, workers_timed_out, 0); /* the load lasted to the end */
	KT_EXPECT_EQ(t, failed_switches, 0);
	KT_EXPECT_EQ(t, wrong_sites, 0);
	KT_EXPECT_EQ(t, lost, 0);
	KT_EXPECT_EQ(t, probes, SWITCHES / PROBE_EVERY);
	for (int k = 0; k < nmodes; k++)
		KT_EXPECT_EQ(t, probed[modes[k]], SWITCHES / PROBE_EVERY / nmodes);
	KT_EXPECT_EQ(t, preempt_mode_set(saved), 0);
}

KTEST_SUITE(patch,
	KTEST_CASE(sites_at_boot),
	KTEST_CASE(text_never_writable),
	KTEST_CASE(sites_follow_mode),
	KTEST_CASE(corrupted_site_refused),
	KTEST_CASE(static_key_sites),
	KTEST_CASE(corrupted_key_site_refused),
	KTEST_CASE(switch_stress));
