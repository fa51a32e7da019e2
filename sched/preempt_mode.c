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
 * The points are code, not tests of a variable: each is a patch site
 * (arch/x86_64/kernel/patch_site.h), a jmp in the modes it acts in and a 5-byte
 * NOP in the others, so a hot path reads no mode variable. A switch
 * rewrites the sites inside stop_machine(): no CPU runs one while it
 * changes, and none acts on half a switch (e.g. decides "full" at IRQ
 * exit after the mode became "none"). preempt_mode itself stays for
 * what is not a point: the lazy request's choice (sched/core.c) and
 * the messages. */
#include "sched/preempt_mode.h"
#include "sched/sched.h"
#include "kernel/preempt.h"
#include "kernel/stop_machine.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "lib/parse.h"
#include "lib/format.h"
#include "kernel/trace/trace.h"
#include "kernel/cmdline.h"

int preempt_mode_requested = -1;

static int set_preempt(const char *v)
{
	int m = preempt_mode_parse(v);
	if (m < 0)
		return -1;
	preempt_mode_requested = m;
	return 0;
}
early_param(preempt, set_preempt, preempt_mode_requested, "a mode:" PREEMPT_MODE_NAMES,
	    "the build's PREEMPT");

volatile int preempt_mode = PREEMPT_MODE_DEFAULT;

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
	/* PREEMPT_RT runs on full or lazy only, as Linux's since 6.13:
	 * its sleeping spinlocks make the rest pointless. */
	if (PREEMPT_RT && mode != PREEMPT_MODE_FULL && mode != PREEMPT_MODE_LAZY)
		return false;
	/* Without a count nothing can tell when preemption is safe. */
	return PREEMPT_HAS_COUNT || (mode != PREEMPT_MODE_FULL && mode != PREEMPT_MODE_LAZY);
}

/* Rewrite the sites for `mode`, then record it; nothing changes if a site
 * holds bytes it should not (patch_sites_apply() says which). */
static int apply(int mode)
{
	char what[32];
	snprintf(what, sizeof(what), "mode %s", preempt_mode_name(mode));
	if (!patch_sites_apply(mode, what))
		return PREEMPT_MODE_EPATCH;
	trace_event(preempt_mode, preempt_mode, mode);
	preempt_mode = mode;
	return 0;
}

/* Boot, one CPU: `preempt=` if given and valid here, else the build's.
 * The sites hold the build's mode as linked; a site that holds neither of
 * its patterns keeps the kernel in that mode, with a message. */
void preempt_mode_init(int requested)
{
	int mode = requested >= 0 ? requested : PREEMPT_MODE_DEFAULT;
	if (PREEMPT_RT && !preempt_mode_valid(mode)) {
		pr_warn("preempt: mode '%s' is not one PREEMPT_RT runs on (full or lazy); using '%s'\n",
			preempt_mode_name(mode), preempt_mode_name(PREEMPT_MODE_DEFAULT));
		mode = PREEMPT_MODE_DEFAULT;
	} else if (!preempt_mode_valid(mode)) {
		pr_warn("preempt: mode '%s' needs a preempt count, COUNT=%s has none; using '%s'\n",
			preempt_mode_name(mode), preempt_model_name(),
			preempt_mode_name(PREEMPT_MODE_DEFAULT));
		mode = PREEMPT_MODE_DEFAULT;
	}
	if (!patch_sites_init() || apply(mode))
		preempt_mode = PREEMPT_MODE_DEFAULT; /* the linked state, untouched */
	pr_info("preempt: count model %s, mode %s%s\n", preempt_model_name(),
		preempt_mode_name(preempt_mode), PREEMPT_RT ? ", PREEMPT_RT" : "");
}

static int apply_stopped(void *arg)
{
	return apply(*(int *)arg);
}

int preempt_mode_set(int mode)
{
	if (!preempt_mode_valid(mode))
		return PREEMPT_MODE_EINVAL;
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

/* Linux's dynamic_cond_resched: the call in none and voluntary, nothing
 * in full and lazy. */
int cond_resched(void)
{
	patch_site_jump(cond_resched, PATCH_MODES2(NONE, VOLUNTARY), resched);
	return 0;
resched:
	return __cond_resched();
}

/* Linux's dynamic_might_resched: voluntary only. */
void might_resched(void)
{
	patch_site_jump(might_resched, PATCH_MODES1(VOLUNTARY), resched);
	return;
resched:
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
