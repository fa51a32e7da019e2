/* A rendezvous of every CPU, for a change that no CPU may see half done
 * (the preemption mode's patch sites, arch/x86_64/kernel/patch_site.c).
 *
 * A CALL_FUNCTION IPI parks every other CPU in its IPI handler, with
 * interrupts off, which means each one is between two whole kernel paths:
 * whatever it was doing with IRQs off (an IRQ exit check, a spinlock
 * section) has either finished or not begun. Once all have arrived, the
 * caller runs fn with its own interrupts off, then releases them. */
#include "kernel/stop_machine.h"
#include "kernel/smp.h"
#include "kernel/locking/spinlock.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/text_poke.h"

static DEFINE_RAW_SPINLOCK(stop_lock); /* raw: taken with every CPU stopped */
static volatile u32 parked;
static volatile u32 release;

static void park(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&parked, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
		cpu_relax();
	/* fn may have rewritten code (patch sites): a serializing
	 * instruction before this CPU runs any of it, as the SDM's
	 * cross-modifying-code protocol asks of the executing CPUs (Vol.
	 * 3A, "Handling Self- and Cross-Modifying Code"). */
	sync_core();
	__atomic_fetch_sub(&parked, 1, __ATOMIC_SEQ_CST);
}

int stop_machine(int (*fn)(void *arg), void *arg)
{
	if (irqs_disabled())
		BUG("stop_machine with IRQs off: the rendezvous would deadlock");
	raw_spin_lock(&stop_lock); /* one at a time; preemption off */
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
	int ret = fn(arg); /* every other CPU is parked */
	local_irq_restore(f);
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&parked, __ATOMIC_ACQUIRE) != 0)
		cpu_relax();
	raw_spin_unlock(&stop_lock);
	return ret;
}
