/* Switching the preemption mode while every CPU runs.
 *
 * The mode is read on hot paths without locks (the IRQ exit reads
 * preempt_irq_exit_enabled; cond_resched and preempt_schedule read
 * preempt_mode). A plain global write would let a CPU act on half a
 * switch, e.g. decide "full" at IRQ exit after the mode became "none". So
 * the switch is a rendezvous: a CALL_FUNCTION IPI parks every other CPU in
 * its IPI handler, with interrupts off, which means each one is between
 * two whole kernel paths (an IRQ exit check runs with IRQs off, so it has
 * either finished or not begun). Once all have arrived, the caller writes
 * the new mode and releases them. Linux's stop_machine() works the same
 * way. */
#include "sched/preempt_mode.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"

static DEFINE_SPINLOCK(switch_lock);
static volatile u32 parked;
static volatile u32 release;

static void park(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&parked, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
		cpu_relax();
	__atomic_fetch_sub(&parked, 1, __ATOMIC_SEQ_CST);
}

int preempt_mode_switch_all(void (*fn)(int), int mode);
int preempt_mode_switch_all(void (*fn)(int), int mode)
{
	if (irqs_disabled())
		BUG("preempt_mode_set with IRQs off: the rendezvous would deadlock");
	spin_lock(&switch_lock); /* one switch at a time; preemption off */
	u32 self = raw_smp_processor_id();
	u64 others = cpu_online_mask() & ~(1UL << self);
	u32 n = 0;
	for (u64 m = others; m; m &= m - 1) /* no POPCNT on every CPU */
		n++;
	release = 0;
	if (n)
		smp_call_function_many(others, park, NULL, false);
	while (__atomic_load_n(&parked, __ATOMIC_ACQUIRE) != n)
		cpu_relax();
	u64 f = local_irq_save();
	fn(mode); /* every other CPU is parked */
	local_irq_restore(f);
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&parked, __ATOMIC_ACQUIRE) != 0)
		cpu_relax();
	spin_unlock(&switch_lock);
	return 0;
}
