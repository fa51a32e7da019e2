/* The per-CPU area: one `struct percpu` per CPU, reached on its own CPU
 * through the GS segment base (IA32_GS_BASE holds &percpu_area[cpu]), so a
 * field is one %gs:offset memory operand away (arch/x86_64/kernel/percpu.h).
 * Other CPUs' copies are reached with per_cpu(field, cpu).
 *
 * The preempt count sits at a fixed offset that the entry code and GDB
 * helpers take from build/asm-offsets.inc (generated from this struct). */
#ifndef FOLD_KERNEL_PERCPU_H
#define FOLD_KERNEL_PERCPU_H

#include "lib/types.h"

#define MAX_CPUS 64

struct thread;
struct pt_regs;
struct tss;

/* Counters shown by the shell's `stat` and asserted by the tests. Only the
 * owning CPU writes them (plain increments), others only read. */
struct cpu_stats {
	u64 irqs;
	u64 timer_ticks;
	u64 resched_ipi_sent;
	u64 resched_ipi_received;
	u64 resched_ipi_avoided; /* target idle polled the flag (Linux: sched_wake_idle_without_ipi) */
	u64 folds;
	u64 resched_lazy;    /* lazy requests made here (TIF_NEED_RESCHED_LAZY, no IPI, no fold) */
	u64 lazy_promoted;   /* this CPU's tick turned a pending lazy request into a full one */
	u64 lost_resched;    /* racy model: a remote bit-31 clear the owner overwrote */
	u64 call_function_ipis;
	u64 preempt_irq;     /* preemptions at IRQ exit */
	u64 preempt_enable_switches; /* preemptions made in preempt_schedule() (from preempt_enable) */
	u64 preempt_schedule_calls;
	u64 voluntary;       /* cond_resched/might_resched switches */
	u64 context_switches;
	u64 switch_count_checks; /* SWITCH_PREEMPT_COUNT asserted (sched/core.c): before and after */
	u64 spurious;
	u64 syscalls;
	u64 sysret_via_iret; /* non-canonical return address: iretq instead of sysretq */
	u64 user_faults;     /* exceptions in ring 3 that killed their process */
	u64 nmis;
	u64 rt_throttled;    /* user FIFO threads held back: their 95% of a second used (sched/rt.c) */
	u64 rt_ticks;        /* ticks charged to user FIFO threads, toward that 95% (sched/rt.c) */
	u64 ipc_messages;    /* IPC messages moved here (ipc/endpoint.c), replies included */
	u64 ipc_fastpath;    /* of them, by the fast path (ipc/fastpath.c) */
	u64 ipc_handoff;     /* by the slow path, switching straight to the receiver (ipc/endpoint.c) */
	u64 ipc_unparked;    /* threads parked by the fast path that the scheduler resumed */
};

struct percpu {
	struct percpu *self;       /* offset 0: &percpu_area[cpu] */
	u32 preempt_count;         /* offset 8: see kernel/preempt.h */
	u32 cpu;                   /* logical CPU number, 0 = boot CPU */
	struct thread *current;    /* the thread running here */
	u32 apic_id;
	u32 online;
	struct thread *idle;
	/* Armed only by the tests (arch/x86_64/mm/fault_catch.h), but read
	 * by the kernel's own exception handler, do_exception()
	 * (arch/x86_64/kernel/traps.c), at any instant and on any CPU, with
	 * one %gs: load: kernel state, so it stays here. */
	void *fault_catcher;
	void *rq;                  /* sched/core.c's struct rq */
	/* Two scratch fields for measurement, not kernel state. They stay in
	 * struct percpu because what is measured is code that names a field
	 * of it: this_cpu_read/write/add() take a struct percpu field (a
	 * constant %gs: offset), and a count model's header takes the count
	 * as one (PERCPU_OFF() for %gs:, per_cpu() for the racy model's
	 * remote clear; arch/x86_64/preempt/). Anywhere else, the probes and
	 * the benchmark's pairs would time other instructions than the
	 * kernel's.
	 * probe_scratch: the target of tests/disasm/probes.c's this_cpu_*
	 * probes (tests/check-disasm reads their code; bench throughput's
	 * work increments it), a field no kernel path reads.
	 * bench_count: the count the preempt benchmark runs every model's
	 * real preempt_disable()/preempt_enable() on (bench/bench_pair.c,
	 * PREEMPT_COUNT_FIELD), so the real count is never touched. */
	u64 probe_scratch;
	u32 bench_count;
	u64 top_of_stack;          /* the current thread's kernel stack top (= TSS.RSP0) */
	u64 user_rsp;              /* the syscall entry's scratch: the user's RSP */
	struct pt_regs *irq_regs;  /* the interrupted registers, in an IRQ handler */
	u32 in_nmi;                /* in do_nmi's printing part (kernel/printk.c) */
	struct tss *tss;           /* this CPU's TSS (arch/x86_64/kernel/gdt.h) */
	u64 io_bitmap_seq;         /* the I/O bit map this CPU's TSS holds (0: none) */
	struct cpu_stats stats;
} __aligned(64);

extern struct percpu percpu_area[MAX_CPUS];
extern u32 nr_cpus_online;
extern u32 nr_cpus_possible;

#define per_cpu(field, c) (percpu_area[(c)].field)
#define for_each_online_cpu(c) \
	for (u32 c = 0; c < nr_cpus_possible; c++) \
		if (READ_ONCE(percpu_area[c].online))

#include "arch/x86_64/kernel/percpu.h"

void percpu_init_cpu(u32 cpu, u32 apic_id);
/* Mark this CPU online: its flag, the online mask, nr_cpus_online. */
void set_cpu_online(u32 cpu);
/* Bit c set when CPU c is online (kept by set_cpu_online()). */
static inline u64 cpu_online_mask(void)
{
	extern volatile u64 cpu_online_bits;
	return READ_ONCE(cpu_online_bits);
}

#endif
