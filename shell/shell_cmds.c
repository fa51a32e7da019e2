/* The shell's commands. */
#include "shell/shell.h"
#include "kernel/printk.h"
#include "kernel/debug/nmi_backtrace.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "drivers/console_drv.h"
#include "ipc/irq_notify.h"
#include "uapi/irq.h"
#include "kernel/preempt.h"
#include "tests/kernel/ktest.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "kernel/locking/rtmutex.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "kernel/static_key.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/debug/ksyms.h"
#include "bench/bench.h"
#include "tests/torture/torture.h"
#include "lib/string.h"
#include "lib/format.h"
#include "process/process.h"
#include "ipc/ipc.h"
#include "lib/string_helpers.h"
#include "kernel/trace/trace.h"


static int too_many(const char *cmd, int argc, int max)
{
	if (argc <= max)
		return 0;
	console_printf("%s: too many arguments (try 'help')\n", cmd);
	return -1;
}

static int cmd_help(int argc, char **argv);

static int cmd_cpus(int argc, char **argv)
{
	(void)argv;
	if (too_many("cpus", argc, 1))
		return -1;
	console_printf("%u CPUs online, %s, HZ %u, count model %s, mode %s%s\n", nr_cpus_online,
		       irq_controller_name(), tick_hz, preempt_model_name(), preempt_mode_name(preempt_mode),
		       PREEMPT_RT ? ", PREEMPT_RT" : "");
	console_printf("CPU APIC  TICKS      CURRENT          PRIO PREEMPT COUNT\n");
	for_each_online_cpu(c) {
		char cnt[160];
		struct thread *t = rq_curr(c);
		u32 raw = preempt_count_raw_of(c, t->stack_top); /* ti: on its stack */
		preempt_count_describe(cnt, sizeof(cnt), raw, t->flags);
		/* '+': a priority-inheritance boost, as ps marks it. An
		 * interrupt thread running shows as irq/N-NAME at its prio. */
		console_printf("%3u %4u %8llu %4u %-12s %3d%c %s\n", c, per_cpu(apic_id, c),
			       (unsigned long long)tick_count(c), t->id, t->name, t->prio,
			       t->prio > t->normal_prio ? '+' : ' ', cnt);
	}
	return 0;
}

static unsigned long long ticks_ms(u64 ticks)
{
	return (unsigned long long)(ticks * 1000 / tick_hz);
}

static void ps_one(struct thread *t, void *arg)
{
	(void)arg;
	/* sched/thread.h's enum thread_state, in order */
	static const char *const states[] = { "running", "sleeping", "dead", "rtlock" };
	const char *state = t->state >= 0 && t->state < (int)ARRAY_SIZE(states) ? states[t->state] : "?";
	if (t->state == THREAD_RUNNING && !t->on_cpu)
		state = "ready";
	char wait[48] = "-";
	struct rt_mutex *m = rt_mutex_blocked_on(t);
	struct thread *owner = m ? rt_mutex_owner(m) : NULL;
	if (m) /* a lock's name is static; its owner may change meanwhile */
		snprintf(wait, sizeof(wait), "lock %s (owner %u)", m->name ? m->name : "?",
			 owner ? owner->id : 0);
	else if (t->proc && t->proc->ipc) /* both live while t is listed */
		ipc_describe(t->proc->ipc, wait, sizeof(wait));
	/* A priority above the thread's own is a PI boost: marked with '+'. */
	console_printf("%4u %-16s %-8s %3d%c %3d %10llu %8llu %8llu %-6s %s\n", t->id, t->name,
		       state, t->prio, t->prio > t->normal_prio ? '+' : ' ', t->cpu, (unsigned long long)t->nr_switches, ticks_ms(t->utime),
		       ticks_ms(t->stime), t->proc ? "user" : "kernel", wait);
}

static int cmd_ps(int argc, char **argv)
{
	(void)argv;
	if (too_many("ps", argc, 1))
		return -1;
	process_reap_detached();
	console_printf("  ID NAME             STATE    PRIO CPU   SWITCHES  USER_MS  KERN_MS KIND   WAITS ON\n");
	thread_for_each(ps_one, NULL);
	return 0;
}

static int cmd_preempt(int argc, char **argv)
{
	if (too_many("preempt", argc, 2))
		return -1;
	if (argc == 2) {
		int m = preempt_mode_parse(argv[1]);
		if (m < 0) {
			char e[ESCAPE_SIZE(40)];
			console_printf("preempt: unknown mode '%s' (modes:" PREEMPT_MODE_NAMES ")\n",
				       string_escape_str(argv[1], e, sizeof(e)));
			return -1;
		}
		int r = preempt_mode_set(m);
		if (r == PREEMPT_MODE_EPATCH) {
			console_printf("preempt: mode %s refused: a patch site holds unexpected bytes "
				       "(see the log); the mode stays %s\n",
				       argv[1], preempt_mode_name(preempt_mode));
			return -1;
		}
		if (r) {
			console_printf("preempt: COUNT=%s has no preempt count, so mode %s is not possible\n",
				       preempt_model_name(), argv[1]);
			return -1;
		}
	}
	console_printf("preempt: count model %s, mode %s\n", preempt_model_name(),
		       preempt_mode_name(preempt_mode));
	return 0;
}

/* One line per patch site: its bytes as they are now and what they mean
 * (tests/check-disasm reads these lines). */
static int cmd_sites(int argc, char **argv)
{
	(void)argv;
	if (too_many("sites", argc, 1))
		return -1;
	console_printf("sites: mode %s, %lu patch sites", preempt_mode_name(preempt_mode),
		       (unsigned long)patch_sites_count());
	for (u32 k = 1; k < NR_STATIC_KEYS; k++)
		console_printf(", key %s %s", static_key_name(k), static_key_enabled(k) ? "on" : "off");
	console_printf("\n");
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++) {
		const u8 *b = (const u8 *)s->addr;
		char where[80], on[48] = "on in:";
		ksym_format(where, sizeof(where), s->addr);
		if (s->key)
			snprintf(on, sizeof(on), "on with key %s", static_key_name(s->key));
		for (int m = 0; m < NR_PREEMPT_MODES; m++)
			if ((s->modes >> m) & 1)
				snprintf(on + strlen(on), sizeof(on) - strlen(on), " %s",
					 preempt_mode_name(m));
		console_printf("site %s %016lx %s: %02x %02x %02x %02x %02x %s (%s)\n", s->name,
			       (unsigned long)s->addr, where, b[0], b[1], b[2], b[3], b[4],
			       patch_site_is_on(s) ? "jmp" : "nop", on);
	}
	return 0;
}

/* lock_stat's table (kernel/locking/lock_stat.h), the classes that ever
 * waited: "locks: contended acquisitions: rq 12, endpoint 3". */
static void stat_lock_contention(void)
{
	struct lock_class_stat cl[LOCK_STAT_CLASSES];
	u32 n = lock_stat_snapshot(cl, LOCK_STAT_CLASSES);
	console_printf("locks: contended acquisitions (raw spinlocks that found the lock held):");
	if (!n && !lock_stat_overflow)
		console_printf(" none");
	for (u32 i = 0; i < n; i++)
		console_printf("%s %s %llu", i ? "," : "", cl[i].name,
			       (unsigned long long)cl[i].contentions);
	if (lock_stat_overflow)
		console_printf("%s %llu in classes the table had no room for", n ? "," : "",
			       (unsigned long long)lock_stat_overflow);
	console_printf("\n");
}

static int cmd_stat(int argc, char **argv)
{
	(void)argv;
	if (too_many("stat", argc, 1))
		return -1;
	console_printf("CPU       IRQS   TICKS IPI-SENT IPI-RECV   FOLDS  LOST    LAZY LAZY-TCK PRE-IRQ PRE-ENBL VOLUNTRY  SWITCHES\n");
	for_each_online_cpu(c) {
		struct cpu_stats *s = &percpu_area[c].stats;
		console_printf("%3u %10llu %7llu %8llu %8llu %7llu %5llu %7llu %8llu %7llu %8llu %8llu %9llu\n", c,
			       (unsigned long long)s->irqs, (unsigned long long)s->timer_ticks,
			       (unsigned long long)s->resched_ipi_sent,
			       (unsigned long long)s->resched_ipi_received,
			       (unsigned long long)s->folds, (unsigned long long)s->lost_resched,
			       (unsigned long long)s->resched_lazy, (unsigned long long)s->lazy_promoted,
			       (unsigned long long)s->preempt_irq,
			       (unsigned long long)s->preempt_enable_switches, (unsigned long long)s->voluntary,
			       (unsigned long long)s->context_switches);
	}
	console_printf("IPI-SENT/RECV: reschedule IPIs; FOLDS: TIF_NEED_RESCHED folded into bit 31;\n"
		       "LOST: COUNT=racy only, remote bit-31 clears the owner's own update overwrote;\n"
		       "LAZY: lazy requests made (TIF_NEED_RESCHED_LAZY: no fold, no IPI); LAZY-TCK: promoted by this CPU's tick;\n"
		       "PRE-IRQ/PRE-ENBL: preemptions at IRQ exit / in preempt_enable(); VOLUNTRY: at cond_resched()/might_resched()\n");
	u64 msgs = 0, fast = 0, hand = 0, unparked = 0, folds = 0;
	for_each_online_cpu(c) {
		msgs += percpu_area[c].stats.ipc_messages;
		fast += percpu_area[c].stats.ipc_fastpath;
		hand += percpu_area[c].stats.ipc_handoff;
		unparked += percpu_area[c].stats.ipc_unparked;
		folds += percpu_area[c].stats.folds;
	}
	/* Per message in hundredths: every fold since boot over every
	 * message, so a figure for an IPC-only workload (bench ipc prints
	 * its own, over its own window). */
	u64 per = msgs ? folds * 100 / msgs : 0;
	console_printf("ipc: %llu messages, %llu by the fast path, %llu by the slow path's handoff "
		       "(parked threads the scheduler resumed: %llu); %llu folds since boot, "
		       "%llu.%02llu per message\n",
		       (unsigned long long)msgs, (unsigned long long)fast, (unsigned long long)hand,
		       (unsigned long long)unparked, (unsigned long long)folds,
		       (unsigned long long)(per / 100), (unsigned long long)(per % 100));
	stat_lock_contention();
	struct console_drv_stats cs;
	console_drv_stats(&cs);
	int pid = console_drv_pid();
	char who[48];
	if (pid)
		snprintf(who, sizeof(who), "user-level driver pid %d", pid);
	else
		snprintf(who, sizeof(who), "the kernel's own (no driver)");
	console_printf("serial: %s; %llu writes (%llu bytes) through a driver, %llu fallbacks; "
		       "IRQ 4 taken %llu times\n", who, (unsigned long long)cs.writes,
		       (unsigned long long)cs.bytes, (unsigned long long)cs.fallbacks,
		       (unsigned long long)irq_notify_count(IRQ_COM1));
	return 0;
}

#define BENCH_ENTRY(name, options, what) { #name, bench_##name },
#define BENCH_NAME(name, options, what) " " #name
static const struct {
	const char *name;
	int (*fn)(int, char **);
} benches[] = { BENCHES(BENCH_ENTRY) };
static const char bench_names[] = BENCHES(BENCH_NAME); /* " preempt latency ..." */

static int cmd_bench(int argc, char **argv)
{
	if (argc < 2) {
		console_printf("bench: which one?%s (e.g. bench latency load=hog)\n", bench_names);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(benches); i++)
		if (!strcmp(benches[i].name, argv[1]))
			return benches[i].fn(argc - 1, argv + 1);
	char e[ESCAPE_SIZE(40)];
	console_printf("bench: unknown benchmark '%s' (the benchmarks:%s)\n",
		       string_escape_str(argv[1], e, sizeof(e)), bench_names);
	return -1;
}

static int cmd_test(int argc, char **argv)
{
	if (too_many("test", argc, 2))
		return -1;
	int failed = ktest_run(argc == 2 ? argv[1] : "all");
	return failed ? -1 : 0;
}

static int cmd_log(int argc, char **argv)
{
	(void)argv;
	if (too_many("log", argc, 1))
		return -1;
	u64 pos = 0;
	char chunk[256];
	size_t n;
	while ((n = log_read(&pos, chunk, sizeof(chunk))) > 0)
		console_write(chunk, n);
	return 0;
}

/* bt: this CPU's call trace (the shell's own); bt all: every CPU's, by
 * NMI (kernel/debug/nmi_backtrace.c). */
static int cmd_bt(int argc, char **argv)
{
	if (too_many("bt", argc, 2))
		return -1;
	if (argc == 2 && strcmp(argv[1], "all")) {
		console_printf("bt: '%s': expected nothing or 'all'\n", argv[1]);
		return -1;
	}
	if (argc == 1) {
		dump_stack();
		return 0;
	}
	u32 n = trigger_all_cpu_backtrace();
	console_printf("bt: %u of %u CPUs answered\n", n, nr_cpus_online);
	return n == nr_cpus_online ? 0 : -1;
}

static int cmd_poweroff(int argc, char **argv)
{
	(void)argv;
	if (too_many("poweroff", argc, 1))
		return -1;
	console_printf("Powering off.\n");
	qemu_exit(EXIT_PASS);
}

const struct shell_cmd shell_cmds[] = {
	{ "help", "help                       this list", cmd_help },
	{ "cpus", "cpus                       CPUs, current threads, preempt counts", cmd_cpus },
	{ "ps", "ps                         threads: CPU, state, priority, switches", cmd_ps },
	{ "preempt", "preempt [MODE]             show or switch the mode:" PREEMPT_MODE_NAMES, cmd_preempt },
	{ "sites", "sites                      the patch sites the mode rewrites, their bytes now", cmd_sites },
	{ "stat", "stat                       IRQ, IPI, fold, preemption, IPC, lock contention", cmd_stat },
	{ "bench", "bench NAME [key=value ...] a benchmark (below), e.g. bench latency load=hog", cmd_bench },
	{ "torture", "torture [key=value ...]    stress every CPU at random and check (options below)", cmd_torture },
	{ "test", "test [SUITE[,SUITE]]       run in-kernel test suites (KTAP); all: every suite", cmd_test },
	{ "trace", "trace on|off|clear|dump    per-CPU scheduler trace; dump: tools/trace/mktracedat", cmd_trace },
	{ "log", "log                        the kernel log", cmd_log },
	{ "bt", "bt [all]                   call trace of this CPU, or of every CPU by NMI", cmd_bt },
	{ "programs", "programs                   the user programs (boot modules)", cmd_programs },
	{ "run", "run PROG [ARGS]            run a user program and wait (Ctrl-C kills it)", cmd_run },
	{ "spawn", "spawn PROG [ARGS]          start a user program in the background", cmd_spawn },
	{ "kill", "kill PID                   end a process", cmd_kill },
	{ "sleep", "sleep MS                   let the shell wait MS milliseconds", cmd_sleep },
	{ "fail", "fail [NAME PERCENT|NAME I,P,S,T|seed N]  fault injection: each allocator's "
		  "probability, failures injected; set one\n"
		  "  fail fuzz sys|ipc [calls=N seed=S attr=NAME percent=P]  the fuzzers under "
		  "injection (1% and 10% each), a leak check after each", cmd_fail },
	{ "poweroff", "poweroff                   leave QEMU", cmd_poweroff },
};
const size_t shell_ncmds = ARRAY_SIZE(shell_cmds);

static int cmd_help(int argc, char **argv)
{
	(void)argv;
	if (too_many("help", argc, 1))
		return -1;
	for (size_t i = 0; i < shell_ncmds; i++)
		console_printf("  %s\n", shell_cmds[i].usage);
	bench_help_all();
	torture_help();
	return 0;
}
