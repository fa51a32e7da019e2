/* Litmus tests of the explorer's memory model (tso.h):
 *
 *   explore litmus [--sc] FILE...
 *
 * Each FILE (tests/explore/litmus/) holds two CPUs' instructions, func
 * cpu0 and func cpu1, in fx_load()'s format, and the line
 *
 *   outcome allowed|forbidden CPU:REG=VALUE ...
 *
 * The explorer runs every interleaving of the two CPUs and their store
 * buffers' drains, and looks for an end where every named register holds
 * its value. "allowed": x86-TSO lets the outcome happen (it must be found,
 * and is printed with its schedule); "forbidden": it must never happen.
 * A memory model that is too strong fails the first kind, one too weak
 * the second. --sc runs the CPUs without store buffers (sequential
 * consistency), the self-test's model that is too strong: there every
 * outcome must go unreached, the allowed ones because only buffers
 * reach them. */
#include "tests/explore/fold_insn.h"
#include "tests/explore/fold_model.h"

#include <stdio.h>
#include <string.h>

#define LITMUS_CPUS 2
#define LITMUS_REGS 4

static struct fx_prog prog;
static const struct fx_func *func[LITMUS_CPUS];
static struct fx_cpu cpu[LITMUS_CPUS];
static struct fx_sb sb[LITMUS_CPUS];
static int nregs, reg_cpu[LITMUS_REGS], reg_no[LITMUS_REGS];
static uint64_t reg_val[LITMUS_REGS];
static char outcome[96];
static bool sc_only;             /* --sc: no store buffers (the self-test) */

static void reset(const struct ex_scenario *sc)
{
	(void)sc;
	fx_mem_reset(&prog);
	for (int i = 0; i < LITMUS_CPUS; i++) {
		memset(&cpu[i], 0, sizeof(cpu[i]));
		memset(&sb[i], 0, sizeof(sb[i]));
		cpu[i].name = sb[i].cpu = i ? "CPU1" : "CPU0";
		cpu[i].sb = sc_only ? NULL : &sb[i];
		cpu[i].reg[4] = prog.rsp - (uint64_t)i * 0x1000; /* a stack each */
	}
}

static void run_cpu(int self)
{
	fx_run(&cpu[self], &prog, func[self]);
}

static void drain(int self)
{
	fx_drainer(&sb[self - LITMUS_CPUS]);
}

/* The end: NULL unless every named register holds its value. */
static const char *check_end(void)
{
	for (int i = 0; i < nregs; i++)
		if ((cpu[reg_cpu[i]].reg[reg_no[i]] & 0xffffffffu) != reg_val[i])
			return NULL;
	return outcome;
}

static struct ex_scenario scenario = {
	.nthreads = 4,
	.threads = { { "CPU0", 0, run_cpu, NULL }, { "CPU1", 0, run_cpu, NULL },
		     { "CPU0/sb", 0, drain, NULL }, { "CPU1/sb", 0, drain, NULL } },
	.reset = reset, .check_end = check_end, .found = "REACHED",
};

/* "allowed 0:rax=0 1:rax=0": false if it is not that. */
static bool parse_outcome(const char *s, bool *allowed)
{
	static const char *const names[] = { "rax", "rcx", "rdx", "rbx" };
	char word[16];
	int n;
	if (sscanf(s, "%15s%n", word, &n) != 1)
		return false;
	*allowed = !strcmp(word, "allowed");
	if (!*allowed && strcmp(word, "forbidden"))
		return false;
	snprintf(outcome, sizeof(outcome), "the outcome%s", s + n);
	nregs = 0;
	for (s += n; nregs < LITMUS_REGS; s += n) {
		char reg[8];
		unsigned long long v;
		int c;
		if (sscanf(s, " %d:%7[a-z]=%lli%n", &c, reg, &v, &n) != 3)
			break;
		reg_no[nregs] = -1;
		for (int r = 0; r < 4; r++)
			if (!strcmp(reg, names[r]))
				reg_no[nregs] = r;
		if (c < 0 || c >= LITMUS_CPUS || reg_no[nregs] < 0)
			return false;
		reg_cpu[nregs] = c;
		reg_val[nregs++] = v;
	}
	return nregs > 0 && sscanf(s, " %*s") == EOF;
}

static bool litmus_one(const char *path)
{
	char err[256], name[64];
	bool allowed;
	if (!fx_load(path, &prog, err, sizeof(err))) {
		printf("FAIL litmus %s: %s\n", path, err);
		return false;
	}
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(name, sizeof(name), "litmus %.*s", (int)strcspn(base, "."), base);
	if (!(func[0] = fx_func(&prog, "cpu0")) || !(func[1] = fx_func(&prog, "cpu1")) ||
	    !parse_outcome(prog.outcome, &allowed)) {
		printf("FAIL %s: needs func cpu0, func cpu1 and an outcome line "
		       "(allowed|forbidden CPU:REG=VALUE ...)\n", name);
		return false;
	}
	scenario.name = name;
	scenario.what = outcome;
	struct ex_stats st = ex_explore(&scenario, 100000);
	bool reached = st.failed && !strcmp(ex_last_failure(), outcome);
	bool ok = reached == (allowed && !sc_only) && (reached || !st.failed);
	printf("%s %s: %s: %s%s, %s under x86-TSO, %llu interleavings (+%llu pruned), %.2f s\n",
	       ok ? "ok  " : "FAIL", name, outcome, reached ? "reached" : "never reached",
	       sc_only ? " without store buffers" : "", allowed ? "allowed" : "forbidden",
	       (unsigned long long)st.executions,
	       (unsigned long long)st.pruned, st.seconds);
	return ok;
}

int litmus_main(int argc, char **argv)
{
	int passed = 0;
	if (argc && !strcmp(argv[0], "--sc")) {
		sc_only = true;
		argc--, argv++;
	}
	for (int i = 0; i < argc; i++)
		passed += litmus_one(argv[i]);
	printf("%d passed, %d failed\n", passed, argc - passed);
	return passed == argc && argc ? 0 : 1;
}
