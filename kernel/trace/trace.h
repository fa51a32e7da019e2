/* The scheduler trace: a per-CPU buffer of fixed-size binary records of
 * scheduler and preemption events, off by default (shell: `trace
 * on|off|clear|dump`). `trace dump` prints the buffers on the console as
 * checksummed text lines that tools/trace/mktracedat turns into a
 * trace-cmd `trace.dat` (format version 6, trace-cmd.dat.v6(5)), so
 * `trace-cmd report` and KernelShark read fold's events under Linux's
 * event names and fields (sched:sched_switch, sched:sched_wakeup,
 * sched:sched_pi_setprio, irq:irq_handler_entry/exit,
 * raw_syscalls:sys_enter/exit, lock:contention_begin/end) plus fold's
 * own (fold:resched_ipi, fold:preempt_irq, fold:preempt_enable,
 * fold:preempt_mode).
 *
 * A hook is one line, trace_event(NAME, args...), and costs one 5-byte
 * NOP while tracing is off: it is a static key's site (kernel/static_key.h,
 * the key `trace`), which `trace on` turns into a jmp to the call of the
 * recording function (__trace_NAME, kernel/trace/trace_events.c), out of line.
 * Linux's tracepoints are static keys in the same way
 * (include/linux/tracepoint.h: static_branch_unlikely(&tp->key)). */
#ifndef FOLD_KERNEL_TRACE_H
#define FOLD_KERNEL_TRACE_H
#include "lib/types.h"
#include "kernel/static_key.h"

struct thread;
struct pt_regs;

/* The event types: X(ID, system, name). The dump prints the numbers, the
 * host tool the names; both come from this list (the host tool reads it
 * from build/fold_offsets.py, asm-offsets.c exports it). */
#define TRACE_EVENTS(X) \
	X(TRACE_SCHED_SWITCH, sched, sched_switch) \
	X(TRACE_SCHED_WAKEUP, sched, sched_wakeup) \
	X(TRACE_IRQ_ENTRY, irq, irq_handler_entry) \
	X(TRACE_IRQ_EXIT, irq, irq_handler_exit) \
	X(TRACE_RESCHED_IPI, fold, resched_ipi) \
	X(TRACE_PREEMPT_IRQ, fold, preempt_irq) \
	X(TRACE_PREEMPT_ENABLE, fold, preempt_enable) \
	X(TRACE_PREEMPT_MODE, fold, preempt_mode) \
	X(TRACE_SYS_ENTER, raw_syscalls, sys_enter) \
	X(TRACE_SYS_EXIT, raw_syscalls, sys_exit) \
	X(TRACE_SCHED_PI_SETPRIO, sched, sched_pi_setprio) \
	X(TRACE_CONTENTION_BEGIN, lock, contention_begin) \
	X(TRACE_CONTENTION_END, lock, contention_end)

#define TRACE_ENUM(id, sys, name) id,
enum trace_type { TRACE_NONE, TRACE_EVENTS(TRACE_ENUM) NR_TRACE_TYPES };
#undef TRACE_ENUM

/* One record: 48 bytes. flags and preempt_count are Linux's common_flags
 * (TRACE_FLAG_*) and common_preempt_count; arg[] is per event (the
 * __trace_NAME functions say what). */
struct trace_entry {
	u64 ts;          /* ns since boot, ktime_get_ns() */
	u16 type;        /* enum trace_type */
	u8 flags;
	u8 preempt_count;
	u32 pid;         /* trace_pid() of the current thread */
	u64 arg[4];
};

/* Linux's trace_flag_type bits (kernel/trace/trace.h), common_flags. */
#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_NEED_RESCHED 0x04
#define TRACE_FLAG_HARDIRQ 0x08

/* Records per CPU buffer: 4096 x 48 bytes = 48 frames, allocated at the
 * first `trace on` for every possible CPU. A full buffer drops new
 * records and counts them (Linux's non-overwrite mode). */
#define TRACE_ENTRIES 4096
/* Threads whose names the trace remembers after they exit, by pid. */
#define TRACE_COMM_SLOTS 256
#define TRACE_COMM_LEN 16

#define trace_event(name, ...) \
	do { \
		if (static_branch_unlikely(TRACE, trace_##name)) \
			__trace_##name(__VA_ARGS__); \
	} while (0)

/* kernel/trace/trace.c: the buffers. */
void trace_record(u16 type, u64 a, u64 b, u64 c, u64 d);
/* The pid a thread has in the trace: its id, except that the idle
 * threads are pid 0 (Linux's swapper, which trace-cmd shows as <idle>),
 * and the boot thread "main", whose fold id is 0, takes the id the boot
 * CPU's idle thread leaves free. */
u32 trace_pid(const struct thread *t);
/* Remember t's name for the dump's cmdlines (sched_switch, sched_wakeup). */
void trace_save_comm(const struct thread *t);
int trace_start(void);    /* 0, or -1: no buffers, or the hooks not patched */
void trace_stop(void);
void trace_clear(void);
void trace_dump(void);
int cmd_trace(int argc, char **argv);

/* kernel/trace/trace_events.c: one recorder per hook, out of line. */
void __trace_sched_switch(const struct thread *prev, const struct thread *next);
void __trace_sched_wakeup(const struct thread *t, u32 target_cpu);
void __trace_irq_handler_entry(int vector);
void __trace_irq_handler_exit(int vector, bool handled);
void __trace_resched_ipi(void);
void __trace_preempt_irq(void);
void __trace_preempt_enable(void);
void __trace_preempt_mode(int old_mode, int new_mode);
void __trace_sys_enter(u64 nr, const struct pt_regs *regs);
void __trace_sys_exit(u64 nr, long ret);
void __trace_sched_pi_setprio(const struct thread *t, int new_prio);
void __trace_contention_begin(const void *lock, u32 flags);
void __trace_contention_end(const void *lock, int ret);
#endif
