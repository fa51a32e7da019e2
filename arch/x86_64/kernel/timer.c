/* The clock-event device: the local APIC timer in one-shot mode, behind
 * the three calls kernel/time/hrtimer.c needs. */
#include "arch/x86_64/kernel/timer.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/cpu.h"
#include "kernel/panic.h"
#include "kernel/time/time.h"
#include "kernel/percpu.h"

u64 apic_timer_hz;

/* Whether this CPU's timer LVT already says "one-shot, unmasked, vector
 * VECTOR_TIMER": then arming is one write of the initial count. The LVT
 * is written masked only by apic_init_cpu() (before any arming, the flag
 * still false) and by calibrate(), which clears it. */
static bool lvt_oneshot[MAX_CPUS];

/* Count the LAPIC timer against the TSC for 10 ms, with divide-by-1
 * (divide configuration 1011b, SDM Vol. 3A Figure 12-10). */
static void calibrate(void)
{
	apic->write(APIC_TIMER_DIVIDE, 0xB);
	apic->write(APIC_LVT_TIMER, APIC_LVT_MASKED | VECTOR_TIMER);
	lvt_oneshot[raw_smp_processor_id()] = false;
	u64 t0 = rdtsc();
	apic->write(APIC_TIMER_INIT, 0xFFFFFFFF);
	u64 end = t0 + ns_to_tsc(10 * NSEC_PER_MSEC);
	/* No cpu_relax(), as in tsc.c's calibrate_pit(): the APs are not up
	 * yet, and under -icount every `pause` leaves QEMU's execution loop,
	 * a record/replay checkpoint each (make replay): 10 ms of them were
	 * most of a recording and of the time to replay it. */
	while (rdtsc() < end)
		;
	u32 left = apic->read(APIC_TIMER_CURRENT);
	u64 t1 = rdtsc();
	apic->write(APIC_TIMER_INIT, 0);
	u64 elapsed_ns = tsc_to_ns(t1 - t0);
	apic_timer_hz = (u64)(0xFFFFFFFFu - left) * NSEC_PER_SEC / (elapsed_ns ? elapsed_ns : 1);
	if (!apic_timer_hz)
		panic("apic: the LAPIC timer did not count during calibration");
}

/* The first arming on this CPU (or the first after calibrate()): out of
 * line, so that the arming every timer interrupt does keeps no registers
 * of its own across a call and tail-calls the count's write. */
static __attribute__((noinline, cold)) void lvt_set_oneshot(void)
{
	apic->write(APIC_LVT_TIMER, VECTOR_TIMER); /* one-shot, unmasked */
	lvt_oneshot[raw_smp_processor_id()] = true;
}

void arch_timer_oneshot_ns(u64 ns)
{
	u64 count = mul_u64_u64_div_u64(ns, apic_timer_hz, NSEC_PER_SEC);
	if (count == 0)
		count = 1;
	if (count > 0xFFFFFFFFu)
		count = 0xFFFFFFFFu;
	if (unlikely(!lvt_oneshot[raw_smp_processor_id()]))
		lvt_set_oneshot();
	/* Writing the initial count (re)starts the count-down; 0 stops it
	 * (SDM Vol. 3A 12.5.4, "APIC Timer"), so the LVT can stay as is. */
	apic->write(APIC_TIMER_INIT, (u32)count);
}

void arch_timer_stop(void)
{
	apic->write(APIC_TIMER_INIT, 0);
}

/* The tick's handler (kernel/time/), behind the vector's own: the EOI
 * first, as for every local APIC vector (arch/x86_64/entry/irq.h), and
 * irq_regs, the interrupted registers the tick's CPU-time accounting
 * reads (get_irq_regs()): the timer is the only vector whose handler
 * reads them, so only it pays for them. */
static irq_handler_t tick_handler;

static void apic_timer_interrupt(struct pt_regs *regs)
{
	struct pt_regs *old_regs = this_cpu_read(irq_regs);
	apic_eoi();
	this_cpu_write(irq_regs, regs);
	tick_handler(regs);
	this_cpu_write(irq_regs, old_regs);
}

void arch_timer_init(irq_handler_t handler)
{
	calibrate();
	tick_handler = handler;
	irq_register(VECTOR_TIMER, apic_timer_interrupt, "timer");
}
