/* A held-out case of lab L3 (rubric beside this file; docs/10-labs.md,
 * "Held-out cases"): the remote request of remote_request_sends_one_ipi
 * (tests/labs/lab_l3.c) the other way round, from CPU X to CPU 0, where
 * this case's thread holds preemption and IRQs off while X asks one to
 * four times: its flag is set, its count untouched (only the owner
 * writes it), and exactly one IPI is sent and received. Each seed varies
 * the number of requests and how long CPU 0 waits for the IPI. */
#include "tests/labs/lab.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "arch/x86_64/cpu.h"

struct asker {
	u32 target, asks;
	volatile int go, done;
	u64 sent, avoided;
};

static void asker_fn(void *arg)
{
	struct asker *a = arg;
	lab_spin_until(READ_ONCE(a->go), 20 * NSEC_PER_MSEC);
	preempt_disable();
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	u64 sent = st->resched_ipi_sent, avoided = st->resched_ipi_avoided;
	for (u32 i = 0; i < a->asks; i++)
		resched_curr(a->target);
	a->sent = st->resched_ipi_sent - sent;
	a->avoided = st->resched_ipi_avoided - avoided;
	preempt_enable();
	WRITE_ONCE(a->done, 1);
}

static void request_from_the_other_cpu(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: no remote request");
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 101);
		struct asker a = { .target = raw_smp_processor_id(),
				   .asks = 1 + prandom_below(&rs, 4) };
		u32 delay = prandom_below(&rs, 3000);
		if (need_resched())
			schedule();
		struct thread *th = thread_create(asker_fn, &a, "lab-asker", PRIO_NORMAL, 1UL << x);
		preempt_disable();
		struct cpu_stats *st = &this_cpu_ptr()->stats;
		u64 f = local_irq_save();
		u64 recv0 = st->resched_ipi_received;
		u32 raw0 = preempt_count_raw();
		WRITE_ONCE(a.go, 1);
		bool asked = lab_spin_until(READ_ONCE(a.done), 5 * NSEC_PER_MSEC);
		bool tif = tif_need_resched();
		u32 raw1 = preempt_count_raw();
		local_irq_restore(f); /* the IPI is taken here */
		for (u32 i = 0; i < delay; i++)
			cpu_relax();
		lab_spin_until(st->resched_ipi_received != recv0, NSEC_PER_MSEC);
		for (u32 i = 0; i < 2000; i++)
			cpu_relax(); /* a second IPI would come now */
		u64 recv = st->resched_ipi_received - recv0;
		preempt_enable();
		thread_join(th);
		bool ok = asked && tif && raw1 == raw0 && a.sent == 1 && !a.avoided && recv == 1;
		if (!ok)
			lab_fail(t, "seed %llu: %u requests from CPU %u to busy CPU %u%s: its thread's "
				   "flag %s, its count 0x%x -> 0x%x, %llu IPIs sent (%llu avoided), "
				   "%llu received; expected the flag set, the count untouched and "
				   "exactly one IPI", (unsigned long long)seed, a.asks, x, a.target,
				   asked ? "" : " (not done in 5 ms)", tif ? "set" : "NOT set", raw0,
				   raw1, (unsigned long long)a.sent, (unsigned long long)a.avoided,
				   (unsigned long long)recv);
	}
}

LAB_SUITE(lab_l3_heldout,
	KTEST_CASE_TIMED(request_from_the_other_cpu, 50));
