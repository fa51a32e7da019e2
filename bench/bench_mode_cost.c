/* bench mode_cost: what the mode machinery costs where it is asked and
 * says no, in none mode (E8): an interrupt round trip from kernel code
 * with a reschedule request pending (the IRQ exit's count check says yes,
 * so the exit asks the mode: irqentry_exit_cond_resched()), and a
 * preempt_disable()/preempt_enable() pair with a request pending (the
 * enable reaches zero and calls preempt_schedule_thunk). Each twice:
 *   via=patched   as fold runs: the sites are 5-byte NOPs falling into ret
 *   via=variable  the sites rewritten to jump to a load and test of
 *                 preempt_mode (bench/bench_mode_var.asm): the
 *                 variable test that the patching replaced
 * The request stays pending throughout: none mode serves it only when the
 * thread blocks or calls cond_resched(), which these loops never do. The
 * bench switches to none if the kernel runs another mode, and back after;
 * its lines say mode=none, the mode measured. */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "kernel/stop_machine.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "arch/x86_64/kernel/text_poke.h"
#include "bench/bench_mode_var.h"
#include "lib/string.h"

static __attribute__((noipa)) void empty_loop(u64 n)
{
	for (u64 i = 0; i < n; i++)
		barrier();
}

static __attribute__((noipa)) void enable_loop(u64 n)
{
	for (u64 i = 0; i < n; i++) {
		preempt_disable();
		preempt_enable();
	}
}

static __attribute__((noipa)) void int_loop(u64 n)
{
	for (u64 i = 0; i < n; i++)
		__asm__ __volatile__("int %0" ::"i"(VECTOR_BENCH) : "memory");
}

/* fn(n) minus the empty loop, as ns*100 per iteration. */
static u64 per_iter_x100(void (*fn)(u64), u64 n)
{
	u64 t0 = rdtsc();
	empty_loop(n);
	u64 t1 = rdtsc();
	fn(n);
	u64 t2 = rdtsc();
	u64 empty = t1 - t0, t = t2 - t1;
	return bench_ns_x100(t > empty ? t - empty : 0, n);
}

struct poke {
	const struct patch_site *site;
	u8 bytes[PATCH_SITE_LEN];
};

static int poke_stopped(void *arg)
{
	struct poke *p = arg;
	text_poke((void *)p->site->addr, p->bytes, PATCH_SITE_LEN);
	sync_core();
	return 0;
}

/* Site s: `jmp to` when to != 0, else its bytes for none mode. */
static void set_site(const struct patch_site *s, u64 to)
{
	struct poke p = { s, { 0 } };
	if (to) {
		s32 rel = (s32)(to - (s->addr + PATCH_SITE_LEN)); /* SDM Vol. 2A, JMP rel32 */
		p.bytes[0] = PATCH_SITE_JMP;
		memcpy(&p.bytes[1], &rel, sizeof(rel));
	} else {
		patch_site_expected(s, PREEMPT_MODE_NONE, p.bytes);
	}
	stop_machine(poke_stopped, &p);
}

static const struct patch_site *find_site(const char *name)
{
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

int bench_mode_cost(int argc, char **argv)
{
	u64 iters = 200000, irq_iters = 20000;
	struct bench_opt opts[] = { BENCH_MODE_COST_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("mode_cost", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	/* The sites' variable stand-ins start where the site is: at the
	 * function's first byte, before any frame (the thunk's site is
	 * followed by its ret; the IRQ exit's is the function's entry). */
	const struct patch_site *enable_site = find_site("preempt_schedule");
	const struct patch_site *irq_site = find_site("preempt_schedule_irq");
	if (!enable_site || !irq_site || *(const u8 *)(enable_site->addr + PATCH_SITE_LEN) != 0xc3 ||
	    irq_site->addr != (u64)irqentry_exit_cond_resched) {
		console_printf("bench mode_cost: cannot start: the preempt_schedule and preempt_schedule_irq "
			       "sites are not where a jmp to a stand-in may replace them\n");
		return -1;
	}
	int old = preempt_mode;
	if (old != PREEMPT_MODE_NONE && preempt_mode_set(PREEMPT_MODE_NONE)) {
		console_printf("bench mode_cost: cannot start: the switch to none was refused\n");
		return -1;
	}
	bench_irq_nop_init();
	char ctx[128];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench mode_cost: none mode, a reschedule request pending; %llu pairs, %llu "
		       "interrupts per figure (%s)\n",
		       (unsigned long long)iters, (unsigned long long)irq_iters, ctx);
	int ret = 0;
	static const char *const vias[] = { "patched", "variable" };
	for (size_t v = 0; v < ARRAY_SIZE(vias); v++) {
		if (v == 1) {
			set_site(enable_site, (u64)bench_var_preempt_schedule);
			set_site(irq_site, (u64)bench_var_exit_cond_resched);
		}
		/* Pending: TIF_NEED_RESCHED set and folded on this CPU. Pinned by
		 * none mode itself: nothing preempts kernel code here. */
		preempt_disable();
		resched_curr(raw_smp_processor_id());
		preempt_enable();
		u64 f = local_irq_save(); /* no tick inside the pairs */
		u64 pair = per_iter_x100(enable_loop, iters);
		local_irq_restore(f);
		u64 irq = per_iter_x100(int_loop, irq_iters); /* count 0, IRQs on */
		bool pending = need_resched();
		if (v == 1) {
			set_site(enable_site, 0);
			set_site(irq_site, 0);
		}
		if (!pending) {
			console_printf("bench mode_cost: the request was served during the %s loops: "
				       "no figure\n", vias[v]);
			ret = -1;
			continue;
		}
		char a[32], b[32];
		fmt_centi(a, sizeof(a), irq);
		fmt_centi(b, sizeof(b), pair);
		console_printf("  %-8s interrupt round trip %s ns, preempt_disable()+preempt_enable() %s ns\n",
			       vias[v], a, b);
		/* ctx names the mode measured: none (bench_context reads it) */
		console_printf("BENCH mode_cost %s what=irq_roundtrip via=%s iters=%llu ns=%s\n", ctx,
			       vias[v], (unsigned long long)irq_iters, a);
		console_printf("BENCH mode_cost %s what=enable_pending via=%s iters=%llu ns=%s\n", ctx,
			       vias[v], (unsigned long long)iters, b);
	}
	schedule(); /* serves the request */
	if (patch_sites_in_mode(PREEMPT_MODE_NONE) != patch_sites_count()) {
		console_printf("bench mode_cost: a site did not get its none bytes back\n");
		ret = -1;
	}
	if (old != PREEMPT_MODE_NONE && preempt_mode_set(old))
		console_printf("bench mode_cost: the switch back to %s was refused\n", preempt_mode_name(old));
	return ret;
}
