/* Asking a CPU to reschedule, and the reschedule IPI: the heart of the
 * folded design.
 *
 * TIF_NEED_RESCHED lives in the thread's flags, where any CPU may set it
 * (atomically). The folded copy, bit 31 of the per-CPU preempt count, is
 * written only by the CPU that owns the count, with one unlocked
 * instruction. So a remote request sets the flag and sends the RESCHEDULE
 * IPI, and the IPI handler, running on the owner, folds the flag into
 * bit 31. The owner's next preempt_enable() (`decl; je`) or IRQ exit
 * (`cmp $0`) then sees 0 and reschedules. */
#include "sched/sched.h"
#include "kernel/preempt.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/regs.h"

void resched_curr(u32 cpu)
{
	struct thread *curr = rq_curr(cpu);
	if (cpu == raw_smp_processor_id()) {
		/* Local: flag, and fold at once (we own this count). */
		__atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
		set_preempt_need_resched();
		return;
	}
	u64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	if (old & _TIF_NEED_RESCHED)
		return; /* already asked: its IPI is on the way */
#if COUNT_MODEL_RACY
	/* The article's first idea: clear the target's bit 31 from here, with
	 * a locked and. The owner's incl/decl are unlocked read-modify-writes:
	 * one that read the count before this and writes after it puts bit
	 * 31 back, and the request is lost to preempt_enable(). */
	__atomic_fetch_and(&per_cpu(preempt_count, cpu), ~PREEMPT_NEED_RESCHED, __ATOMIC_SEQ_CST);
#endif
	/* A polling idle loop watches the flag itself: no IPI needed. */
	if (old & _TIF_POLLING_NRFLAG) {
		this_cpu_stat_inc(resched_ipi_avoided);
		return;
	}
	this_cpu_stat_inc(resched_ipi_sent);
	apic_send_ipi(cpu, VECTOR_RESCHEDULE);
}

/* The RESCHEDULE IPI's work, on the target CPU, in hardirq context. */
void scheduler_ipi(void)
{
	this_cpu_stat_inc(resched_ipi_received);
#if COUNT_MODEL_RACY
	/* The sender cleared bit 31 already; if it is set again, the owner's
	 * own update overwrote the clear. Count the loss, then repair it (as
	 * the folded design does every time). */
	if (tif_need_resched() && !test_preempt_need_resched()) {
		this_cpu_stat_inc(lost_resched);
		set_preempt_need_resched();
	}
#else
	if (tif_need_resched()) {
		set_preempt_need_resched(); /* folded: clear bit 31; else nothing */
#if COUNT_MODEL_FOLDED
		this_cpu_stat_inc(folds);
#endif
	}
#endif
}

static void reschedule_interrupt(struct pt_regs *regs)
{
	(void)regs;
	apic_eoi();
	scheduler_ipi();
}

void resched_init(void)
{
	irq_register(VECTOR_RESCHEDULE, reschedule_interrupt, "reschedule");
}
