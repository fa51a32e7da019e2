/* bench preempt: the cost of a preempt_disable()/preempt_enable() pair in
 * every count model, side by side in this one image (bench_pair.c compiled
 * per model, on a stand-in count), and in the model this kernel was built
 * with (the real count); then the cost of an interrupt round trip, whose
 * exit path holds the model's IRQ-exit preemption check. The loop's own
 * cost is measured by an empty loop and subtracted. */
#include "bench/bench.h"
#include "bench/bench_pair.h"
#include "kernel/printk.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "arch/x86_64/entry/irq.h"
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/regs.h"

static __attribute__((noipa)) void empty_loop(u64 n)
{
	for (u64 i = 0; i < n; i++)
		barrier();
}

static __attribute__((noipa)) void built_loop(u64 n)
{
	for (u64 i = 0; i < n; i++) {
		preempt_disable();
		preempt_enable();
	}
}

static void nop_handler(struct pt_regs *regs)
{
	(void)regs;
}

void bench_irq_nop_init(void)
{
	static bool registered;
	if (!registered) {
		irq_register(VECTOR_BENCH, nop_handler, "bench-nop");
		registered = true;
	}
}

static __attribute__((noipa)) void int_loop(u64 n)
{
	for (u64 i = 0; i < n; i++)
		__asm__ __volatile__("int %0" ::"i"(VECTOR_BENCH) : "memory");
}

static u64 time_loop(void (*fn)(u64), u64 n)
{
	u64 t0 = rdtsc();
	fn(n);
	return rdtsc() - t0;
}

int bench_preempt(int argc, char **argv)
{
	u64 iters = 1000000, irq_iters = 100000;
	struct bench_opt opts[] = { BENCH_PREEMPT_OPTIONS(BENCH_OPT_NUM, BENCH_OPT_WORDS) };
	if (bench_parse("preempt", argc, argv, opts, ARRAY_SIZE(opts)))
		return -1;
	bench_irq_nop_init();
	struct {
		const char *name;
		void (*loop)(u64);
		u32 (*enabled)(void);
	} variants[] = {
		{ "folded", bench_pair_loop_folded, bench_pair_enabled_folded },
		{ "percpu", bench_pair_loop_percpu, bench_pair_enabled_percpu },
		{ "ti", bench_pair_loop_ti, bench_pair_enabled_ti },
		{ "off", bench_pair_loop_off, bench_pair_enabled_off },
		{ "built", built_loop, NULL },
	};
	char ctx[128], a[32];
	bench_context(ctx, sizeof(ctx));
	console_printf("bench preempt: %llu preempt_disable()/preempt_enable() pairs per variant (%s)\n",
		       (unsigned long long)iters, ctx);
	/* IRQs off: no migration, no interrupt in the timed loops, and the
	 * real count starts from "preemptible" (0 depth), so "built" times the
	 * outermost pair, like the stand-ins. (A pending request would find
	 * IRQs off in preempt_schedule() and return.) */
	u64 f = local_irq_save();
	u64 empty = time_loop(empty_loop, iters);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		if (variants[i].enabled)
			this_cpu_write(bench_count, variants[i].enabled());
		u64 t = time_loop(variants[i].loop, iters);
		u64 x100 = bench_ns_x100(t > empty ? t - empty : 0, iters);
		fmt_centi(a, sizeof(a), x100);
		console_printf("  %-7s %8s ns per pair%s\n", variants[i].name, a,
			       variants[i].enabled ? "" : " (this kernel's own count)");
		console_printf("BENCH preempt %s variant=%s iters=%llu ns_per_pair=%s\n", ctx,
			       variants[i].name, (unsigned long long)iters, a);
	}
	local_irq_restore(f);
	/* An interrupt round trip with a handler that does nothing: entry,
	 * dispatch, irq_enter/exit, and the exit's preemption check. */
	preempt_disable(); /* IRQs on (the exit check runs), no migration */
	u64 empty_irq = time_loop(empty_loop, irq_iters);
	u64 t = time_loop(int_loop, irq_iters);
	preempt_enable();
	fmt_centi(a, sizeof(a), bench_ns_x100(t > empty_irq ? t - empty_irq : 0, irq_iters));
	console_printf("  interrupt round trip (int $0x%x, empty handler): %s ns\n", VECTOR_BENCH, a);
	console_printf("BENCH irq %s iters=%llu ns_per_irq=%s\n", ctx, (unsigned long long)irq_iters, a);
	return 0;
}
