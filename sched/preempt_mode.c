/* The preemption modes and the points they decide, with Linux's per-mode
 * meaning (kernel/sched/core.c, PREEMPT_DYNAMIC):
 *               cond_resched()   might_resched()   preempt_enable()/IRQ exit
 *   none        switches         nothing           nothing
 *   voluntary   switches         switches          nothing
 *   full        nothing          nothing           switches
 *   lazy        nothing          nothing           switches
 * Lazy differs from full in what a request sets, not in these points: a
 * request on behalf of a normal thread sets TIF_NEED_RESCHED_LAZY, which
 * none of them acts on; the tick promotes it (sched/core.c).
 *
 * The mode is read on hot paths without locks (the IRQ exit reads
 * preempt_irq_exit_enabled; cond_resched and preempt_schedule read
 * preempt_mode). A plain write while other CPUs run would let one act on
 * half a switch, e.g. decide "full" at IRQ exit after the mode became
 * "none", so a run-time switch happens inside stop_machine(). */
#include "sched/preempt_mode.h"
#include "sched/sched.h"
#include "kernel/preempt.h"
#include "kernel/stop_machine.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "lib/parse.h"

volatile int preempt_mode = PREEMPT_MODE_DEFAULT;
volatile u8 preempt_irq_exit_enabled;

#define MODE_NAME(id, name, help) [PREEMPT_MODE_##id] = #name,
#define MODE_HELP(id, name, help) [PREEMPT_MODE_##id] = help,
static const char *const names[] = { PREEMPT_MODES(MODE_NAME) };
static const char *const helps[] = { PREEMPT_MODES(MODE_HELP) };

int preempt_mode_parse(const char *s)
{
	return match_word(s, names, ARRAY_SIZE(names));
}

const char *preempt_mode_name(int mode)
{
	return mode >= 0 && mode < NR_PREEMPT_MODES ? names[mode] : "?";
}

const char *preempt_mode_help(int mode)
{
	return mode >= 0 && mode < NR_PREEMPT_MODES ? helps[mode] : "?";
}

bool preempt_mode_valid(int mode)
{
	if (mode < 0 || mode >= NR_PREEMPT_MODES)
		return false;
	/* Without a count nothing can tell when preemption is safe. */
	return PREEMPT_HAS_COUNT || (mode != PREEMPT_MODE_FULL && mode != PREEMPT_MODE_LAZY);
}

static void apply(int mode)
{
	preempt_mode = mode;
	preempt_irq_exit_enabled = mode == PREEMPT_MODE_FULL || mode == PREEMPT_MODE_LAZY;
}

/* Boot, one CPU: `preempt=` if given and valid here, else the build's. */
void preempt_mode_init(int requested)
{
	int mode = requested >= 0 ? requested : PREEMPT_MODE_DEFAULT;
	if (!preempt_mode_valid(mode)) {
		pr_warn("preempt: mode '%s' needs a preempt count, COUNT=%s has none; using '%s'\n",
			preempt_mode_name(mode), preempt_model_name(),
			preempt_mode_name(PREEMPT_MODE_DEFAULT));
		mode = PREEMPT_MODE_DEFAULT;
	}
	apply(mode);
	pr_info("preempt: count model %s, mode %s\n", preempt_model_name(),
		preempt_mode_name(preempt_mode));
}

static int apply_stopped(void *arg)
{
	apply(*(int *)arg);
	return 0;
}

int preempt_mode_set(int mode)
{
	if (!preempt_mode_valid(mode))
		return -1;
	return stop_machine(apply_stopped, &mode);
}

/* ---- the voluntary points */

static int __cond_resched(void)
{
	/* should_resched(0): folded, one compare of the raw count with 0. */
	if (!should_resched(0))
		return 0;
	this_cpu_stat_inc(voluntary);
	do {
		preempt_disable();
		__schedule(SM_PREEMPT);
		preempt_enable_no_resched();
	} while (need_resched());
	return 1;
}

int cond_resched(void)
{
	if (preempt_mode_preemptible())
		return 0; /* full, lazy: no-op, as in Linux */
	return __cond_resched();
}

void might_resched(void)
{
	if (preempt_mode_voluntary())
		__cond_resched();
}

void __might_sleep(const char *file, int line)
{
	if (unlikely(preempt_count() != 0 || irqs_disabled()))
		report_bug("sleeping function called from invalid context at %s:%d "
			   "(preempt count 0x%x, IRQs %s)",
			   file, line, preempt_count(), irqs_disabled() ? "off" : "on");
	else
		might_resched();
}
