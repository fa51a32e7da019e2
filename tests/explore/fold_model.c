/* Part B's front end: the fold protocol at the instruction level. Five
 * threads of the explorer run the built kernel's instructions (read by
 * tests/explore/fold_probes.py from the model's fold.elf):
 *   CPU1      the owner: preempt_disable(); preempt_enable()
 *             (probe_preempt_pair)
 *   CPU0      the remote: resched_curr(1) itself (sched/core.c: the flag,
 *             racy's locked andl of CPU 1's count, and the RESCHEDULE
 *             IPI unless the flag was set already)
 *   CPU1/irq  the IPI on CPU 1, between any two of its instructions (never
 *             inside one): irq_enter(), scheduler_ipi()'s model work,
 *             irq_exit(), the IRQ exit's test; CPU1 waits while it runs
 *   CPU0/sb, CPU1/sb  each CPU's store buffer draining (x86-TSO, tso.h):
 *             a CPU's plain stores reach the other CPU when the explorer
 *             chooses; the IPI's return (IRET) waits for CPU 1's
 * A second scenario, "served": CPU 1 serves an earlier request at a
 * switch (probe_schedule_clear: __schedule()'s clear of both flags and
 * of the fold, IRQs off) while CPU 0's resched_curr(1) makes a new one:
 * at the end a flag still set must be folded (folded, racy), or the new
 * request was lost between the two CPUs' writes of the flags' word.
 * The property: a reschedule request is never lost. It is made once the
 * owner's preemption points can see it: for folded and racy when bit 31 of
 * the count is clear (folded: the IPI's fold; racy: the remote's andl),
 * for percpu and ti when TIF_NEED_RESCHED is set; in every model at the
 * latest when the IPI has run scheduler_ipi(). From then on, every point
 * where preemption is allowed (preempt_enable() taking the depth to 0,
 * the IRQ exit's test at depth 0) that began after it must preempt,
 * until one has. */
#include "tests/explore/fold_model.h"
#include "tests/explore/fold_insn.h"
#include "tests/explore/explore.h"

#include <stdio.h>
#include <string.h>

#define NEED_RESCHED_BIT 0x80000000u /* bit 31, inverted (kernel/preempt.h) */
#define SERVE_COUNT 2                /* in __schedule(): SWITCH_PREEMPT_COUNT */

static struct fx_prog prog;
static const struct fx_func *pair, *remote_fn, *irq_enter, *sched_ipi, *irq_exit, *exit_test,
	*clear_fn;
static bool folds, serve;        /* serve: the second scenario (below) */
static struct fx_cpu owner, remote, irq;
static struct fx_sb sb0, sb1;   /* each CPU's store buffer (x86-TSO) */
static int cpu1_ctx, ipi;        /* objects: CPU 1's running context, the IPI */
static bool ipi_pending, in_irq, made, served, made_before_dec, owner_done;

static bool owner_may_run(const void *arg)
{
	(void)arg;
	return !in_irq;
}

static bool ipi_may_arrive(const void *arg)
{
	(void)arg;
	/* Serving, CPU 1 has IRQs off until its switch is done. */
	return ipi_pending && !owner.mid && (!serve || owner_done);
}

static void before_dec(struct fx_cpu *c)
{
	(void)c;
	made_before_dec = made && !served;
}

/* resched_curr()'s call of smp_send_reschedule(1): the IPI, pending on
 * CPU 1 from here. */
static bool remote_call(struct fx_cpu *c, const char *sym)
{
	if (strcmp(sym, "smp_send_reschedule") || c->reg[7] != 1)
		return false;
	ex_activity("smp_send_reschedule(1)");
	ex_point1(&ipi, EX_WRITE, NULL, NULL);
	ipi_pending = true;
	ex_log("sends the RESCHEDULE IPI to CPU 1");
	return true;
}

static void reset(const struct ex_scenario *sc)
{
	(void)sc;
	fx_mem_reset(&prog);
	memset(&owner, 0, sizeof(owner));
	memset(&remote, 0, sizeof(remote));
	memset(&irq, 0, sizeof(irq));
	owner.name = "CPU1";
	owner.reg[4] = prog.rsp;
	memset(&sb0, 0, sizeof(sb0));
	memset(&sb1, 0, sizeof(sb1));
	sb0.cpu = "CPU0";
	sb1.cpu = "CPU1";
	owner.sb = irq.sb = &sb1;
	remote.sb = &sb0;
	owner.ctx_obj = &cpu1_ctx;
	owner.ctx_kind = EX_READ;
	owner.cond = owner_may_run;
	owner.before_dec = before_dec;
	remote.name = "CPU0";
	remote.reg[7] = prog.arg; /* %rdi: resched_curr()'s CPU, 1 */
	remote.reg[4] = 0xffffc90000003e40;
	remote.gs = prog.gs0;
	remote.on_call = remote_call;
	irq.name = "CPU1/irq";
	irq.reg[4] = prog.rsp - 0x200; /* the interrupt frame, on CPU 1's stack */
	ipi_pending = in_irq = made = served = made_before_dec = owner_done = false;
	if (serve) { /* an earlier request pending: the flag, and its fold */
		fx_write(prog.flags, 8, 1);
		fx_write(prog.count, 4, SERVE_COUNT);
	}
}

static uint32_t depth(void)
{
	return (uint32_t)fx_sb_read(&sb1, prog.count, 4) & ~NEED_RESCHED_BIT;
}

static void run_owner(int self)
{
	(void)self;
	if (serve) {
		fx_run(&owner, &prog, clear_fn);
		owner_done = true;
		return;
	}
	fx_run(&owner, &prog, pair);
	if ((owner.dec_value & ~NEED_RESCHED_BIT) == 0 && made_before_dec && !owner.called)
		ex_fail("LOST: preempt_enable() took the depth to 0 after the request was made, "
			"and returned without calling preempt_schedule()");
	if (owner.called)
		served = true;
}

static void run_remote(int self)
{
	(void)self;
	fx_run(&remote, &prog, remote_fn);
}

static void run_irq(int self)
{
	(void)self;
	struct ex_op entry = { { &ipi, &cpu1_ctx }, { EX_WRITE, EX_WRITE } };
	ex_activity("the RESCHEDULE IPI");
	ex_point(&entry, ipi_may_arrive, NULL);
	ipi_pending = false;
	in_irq = true;
	ex_log("arrives on CPU 1 (depth %u)", depth());
	fx_run(&irq, &prog, irq_enter);
	fx_run(&irq, &prog, sched_ipi);
	if (fx_sb_read(&sb1, prog.flags, 8) & 1)
		made = true; /* delivered: the model's fold has run */
	fx_run(&irq, &prog, irq_exit);
	bool was_made = made && !served;
	uint32_t d = depth();
	uint64_t preempt = fx_run(&irq, &prog, exit_test) & 1; /* bool, in %al */
	if (d == 0 && was_made && !preempt)
		ex_fail("LOST: the IRQ exit's test at depth 0 after the request was made "
			"does not preempt");
	if (preempt)
		served = true;
	ex_activity("the RESCHEDULE IPI");
	/* IRET is serializing (SDM Vol. 3A 9.3): CPU 1's stores drain first. */
	struct ex_op iret = { { &cpu1_ctx, &sb1 }, { EX_WRITE, EX_READ } };
	ex_point(&iret, fx_sb_empty, &sb1);
	in_irq = false;
	ex_log("returns to the interrupted code%s", preempt ? " through preempt_schedule_irq()" : "");
}

static const char *check_step(void)
{
	if (serve)
		return NULL;
	/* In memory, where every CPU sees it: a step that changes a CPU's
	 * buffer only (a buffered store, which may hide the request from its
	 * own CPU) must not decide it, or two orders of steps the engine
	 * counts as one would differ. */
	if (!made && (folds ? !(fx_read(prog.count, 4) & NEED_RESCHED_BIT) : fx_read(prog.flags, 8) & 1))
		made = true;
	return NULL;
}

static const char *check_end(void)
{
	/* Served: a flag still set must be seen where the model's
	 * preemption points look (folded, racy: bit 31 clear). */
	if (serve)
		return folds && (fx_read(prog.flags, 8) & 1) &&
		       (fx_read(prog.count, 4) & NEED_RESCHED_BIT) ?
		       "LOST: TIF_NEED_RESCHED is set on CPU 1's thread, but bit 31 of its count "
		       "says no reschedule and no IPI is on the way" : NULL;
	if (!made)
		return "the request was never made";
	if (!served)
		return "LOST: no preemption point saw the request";
	return NULL;
}

static void drain0(int self)
{
	(void)self;
	fx_drainer(&sb0);
}

static void drain1(int self)
{
	(void)self;
	fx_drainer(&sb1);
}

static struct ex_scenario scenario = {
	.nthreads = 5,
	.threads = { { "CPU1", 0, run_owner, NULL }, { "CPU0", 0, run_remote, NULL },
		     { "CPU1/irq", 0, run_irq, NULL }, { "CPU0/sb", 0, drain0, NULL },
		     { "CPU1/sb", 0, drain1, NULL } },
	.reset = reset, .check_step = check_step, .check_end = check_end,
};

int fold_main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: explore fold MODEL FILE\n");
		return 2;
	}
	char err[256], name[40];
	if (!fx_load(argv[1], &prog, err, sizeof(err))) {
		fprintf(stderr, "explore fold: %s\n", err);
		return 2;
	}
	if (strcmp(prog.model, argv[0])) {
		fprintf(stderr, "explore fold: %s holds model %s, not %s\n", argv[1], prog.model, argv[0]);
		return 2;
	}
	const struct fx_func **fn[] = { &pair, &remote_fn, &irq_enter, &sched_ipi, &irq_exit, &exit_test };
	const char *names[] = { "probe_preempt_pair", "resched_curr", "probe_irq_enter",
				"probe_scheduler_ipi", "probe_irq_exit", "probe_irq_exit_need_resched" };
	for (int i = 0; i < 6; i++)
		if (!(*fn[i] = fx_func(&prog, names[i]))) {
			fprintf(stderr, "explore fold: no %s in %s\n", names[i], argv[1]);
			return 2;
		}
	if (!(clear_fn = fx_func(&prog, "probe_schedule_clear"))) {
		fprintf(stderr, "explore fold: no probe_schedule_clear in %s\n", argv[1]);
		return 2;
	}
	folds = !strcmp(prog.model, "folded") || !strcmp(prog.model, "racy");
	int passed = 0, failed = 0;
	for (int s = 0; s < 2; s++) {
		serve = s == 1;
		bool expect_loss = !serve && !strcmp(prog.model, "racy");
		snprintf(name, sizeof(name), "fold %s%s", prog.model, serve ? " served" : "");
		scenario.name = name;
		scenario.what = serve ? "CPU 1 serves a request (its flags cleared) as CPU 0 makes one" :
			expect_loss ? "a remote locked andl against the owner's unlocked incl/decl" :
			"the request against preempt_disable()/preempt_enable() and the IPI";
		struct ex_stats st = ex_explore(&scenario, 1000000);
		bool lost = st.failed && !strncmp(ex_last_failure(), "LOST", 4);
		bool ok = expect_loss ? lost : !st.failed;
		printf("%s %s: %s: %s, %llu interleavings (+%llu pruned), %llu steps, %.2f s\n",
		       ok ? "ok  " : "FAIL", name, scenario.what,
		       lost ? "a reschedule request is lost" : st.failed ? "a violation" :
		       "no request lost", (unsigned long long)st.executions,
		       (unsigned long long)st.pruned, (unsigned long long)st.steps, st.seconds);
		passed += ok;
		failed += !ok;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
