/* The recorders behind the trace_event() hooks (kernel/trace/trace.h), called
 * only while tracing is on. Each packs its event's fields into a record's
 * four arguments; tools/trace/events.py unpacks them into Linux's event
 * layouts, so the two files change together:
 *   sched_switch   prev pid, next pid, prev prio | next prio << 32, prev state
 *   sched_wakeup   pid, prio, target CPU
 *   irq_handler_entry  vector;  irq_handler_exit  vector, handled
 *   resched_ipi    the raw preempt count after the fold (bit 31 included)
 *   preempt_irq, preempt_enable   the switch's reason; current is the victim
 *   preempt_mode   old mode, new mode
 *   sys_enter      nr, the first three arguments;  sys_exit  nr, return value
 *   sched_pi_setprio  pid, old prio, new prio (a PI boost, or its end)
 *   contention_begin  the lock's address, flags;  contention_end  address, ret
 * The priorities are Linux's prio as the sched events show it: 120 for a
 * normal (nice 0) thread and the idle threads, 99 - p for SCHED_FIFO p.
 * The states are Linux's TASK_REPORT bits (include/linux/sched.h):
 * 0 runnable (R), TASK_INTERRUPTIBLE 0x1 (S), EXIT_ZOMBIE 0x20 (Z: dead,
 * waiting to be joined). */
#include "kernel/trace/trace.h"
#include "kernel/preempt.h"
#include "sched/thread.h"
#include "arch/x86_64/regs.h"

#define LINUX_PRIO_NORMAL 120
#define LINUX_MAX_RT_PRIO 100
#define TASK_REPORT_S 0x01
#define TASK_REPORT_Z 0x20

static u32 linux_prio_of(int prio)
{
	if (prio > 0)
		return (u32)(LINUX_MAX_RT_PRIO - 1 - prio);
	return LINUX_PRIO_NORMAL;
}

static u32 linux_prio(const struct thread *t)
{
	return linux_prio_of(t->prio);
}

static u64 linux_state(const struct thread *t)
{
	switch (t->state) {
	case THREAD_SLEEPING:
		return TASK_REPORT_S;
	case THREAD_DEAD:
		return TASK_REPORT_Z;
	default:
		return 0;
	}
}

void __trace_sched_switch(const struct thread *prev, const struct thread *next)
{
	trace_save_comm(prev);
	trace_save_comm(next);
	trace_record(TRACE_SCHED_SWITCH, trace_pid(prev), trace_pid(next),
		     linux_prio(prev) | (u64)linux_prio(next) << 32, linux_state(prev));
}

void __trace_sched_wakeup(const struct thread *t, u32 target_cpu)
{
	trace_save_comm(t);
	trace_record(TRACE_SCHED_WAKEUP, trace_pid(t), linux_prio(t), target_cpu, 0);
}

void __trace_irq_handler_entry(int vector)
{
	trace_record(TRACE_IRQ_ENTRY, (u64)vector, 0, 0, 0);
}

void __trace_irq_handler_exit(int vector, bool handled)
{
	trace_record(TRACE_IRQ_EXIT, (u64)vector, handled, 0, 0);
}

void __trace_resched_ipi(void)
{
	trace_record(TRACE_RESCHED_IPI, preempt_count_raw(), 0, 0, 0);
}

void __trace_preempt_irq(void)
{
	trace_record(TRACE_PREEMPT_IRQ, 0, 0, 0, 0);
}

void __trace_preempt_enable(void)
{
	trace_record(TRACE_PREEMPT_ENABLE, 0, 0, 0, 0);
}

void __trace_preempt_mode(int old_mode, int new_mode)
{
	trace_record(TRACE_PREEMPT_MODE, (u64)old_mode, (u64)new_mode, 0, 0);
}

void __trace_sys_enter(u64 nr, const struct pt_regs *regs)
{
	trace_record(TRACE_SYS_ENTER, nr, regs->rdi, regs->rsi, regs->rdx);
}

void __trace_sys_exit(u64 nr, long ret)
{
	trace_record(TRACE_SYS_EXIT, nr, (u64)ret, 0, 0);
}

void __trace_sched_pi_setprio(const struct thread *t, int new_prio)
{
	trace_save_comm(t);
	trace_record(TRACE_SCHED_PI_SETPRIO, trace_pid(t), linux_prio(t),
		     linux_prio_of(new_prio), 0);
}

void __trace_contention_begin(const void *lock, u32 flags)
{
	trace_record(TRACE_CONTENTION_BEGIN, (u64)lock, flags, 0, 0);
}

void __trace_contention_end(const void *lock, int ret)
{
	trace_record(TRACE_CONTENTION_END, (u64)lock, (u64)(s64)ret, 0, 0);
}
