/* The labs' stubs and their record (kernel/lab.h). */
#include "kernel/lab.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/cpu.h"
#include "kernel/entry/common.h"
#include "process/process.h"
#include "uapi/syscall.h"

static struct lab_stub stubs[LAB_COUNT + 1][LAB_STUBS];
static u64 hits[LAB_COUNT + 1];

void lab_hole(u32 lab, const char *func, const char *hint)
{
	if (lab < 1 || lab > LAB_COUNT)
		lab = 0; /* a stub with a bad number still counts, apart */
	__atomic_fetch_add(&hits[lab], 1, __ATOMIC_RELAXED);
	for (u32 i = 0; i < LAB_STUBS; i++) {
		struct lab_stub *s = &stubs[lab][i];
		const char *none = NULL;
		/* Claim a free slot, or find this function's own. */
		if (__atomic_compare_exchange_n(&s->func, &none, func, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			WRITE_ONCE(s->hint, hint);
		if (READ_ONCE(s->func) == func) {
			__atomic_fetch_add(&s->hits, 1, __ATOMIC_RELAXED);
			return;
		}
	}
}

u64 lab_hole_hits(u32 lab)
{
	return lab <= LAB_COUNT ? READ_ONCE(hits[lab]) : 0;
}

const struct lab_stub *lab_stub_at(u32 lab, u32 i)
{
	if (lab > LAB_COUNT || i >= LAB_STUBS)
		return NULL;
	const struct lab_stub *s = &stubs[lab][i];
	return READ_ONCE(s->func) && READ_ONCE(s->hint) ? s : NULL;
}

void lab_resched_fallback(struct thread *curr, u32 cpu)
{
	__atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	smp_send_reschedule(cpu);
}

void lab_exit_to_user_fallback(struct thread *t)
{
	while (READ_ONCE(t->flags) & EXIT_TO_USER_MODE_WORK) {
		if (fatal_signal_pending(t->proc)) {
			local_irq_enable();
			do_exit(W_SIGNALED(t->proc->kill_sig));
		}
		__atomic_fetch_and(&t->flags, ~_TIF_SIGPENDING, __ATOMIC_SEQ_CST);
		if (READ_ONCE(t->flags) & (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)) {
			local_irq_enable();
			schedule();
			local_irq_disable();
		}
	}
}
