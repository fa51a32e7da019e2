/* Structure offsets for the assembly files and the GDB helpers, generated
 * from the C definitions so that nothing is copied by hand. The build
 * compiles this file to assembly and turns every "->SYM value" marker into
 * a NASM %define (build/asm-offsets.inc) and a Python constant, and every
 * "->SYM@ word word" marker into a Python list of strings
 * (build/fold_offsets.py; scripts/mkoffsets.sh does both). */
#include "kernel/percpu.h"
#include "arch/x86_64/regs.h"
#include "kernel/preempt.h"
#include "sched/thread.h"
#include "sched/rq.h" /* rqs[cpu].curr, for the explorer's Part B */
#include "mm/mm.h"
#include "kernel/cmdline.h"
#include "shell/shell.h"
#include "bench/bench.h"
#include "tests/torture/torture.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "kernel/trace/trace.h"
#include "uapi/syscall.h"
#include "arch/x86_64/entry/switch.h"

#define DEFINE(sym, val) \
	__asm__ __volatile__("\n->" #sym " %0" ::"i"((long)(val)))
#define OFFSET(sym, str, mem) DEFINE(sym, offsetof(struct str, mem))

void asm_offsets(void);
void asm_offsets(void)
{
	OFFSET(PERCPU_self, percpu, self);
	OFFSET(PERCPU_cpu, percpu, cpu);
	OFFSET(PERCPU_preempt_count, percpu, preempt_count);
	OFFSET(PERCPU_current, percpu, current);
	OFFSET(PERCPU_apic_id, percpu, apic_id);
	OFFSET(PERCPU_fault_catcher, percpu, fault_catcher);
	OFFSET(PERCPU_top_of_stack, percpu, top_of_stack);
	OFFSET(PERCPU_user_rsp, percpu, user_rsp);
	DEFINE(PERCPU_size, sizeof(struct percpu));
	DEFINE(PT_REGS_size, sizeof(struct pt_regs));
	OFFSET(PT_REGS_rip, pt_regs, rip);
	OFFSET(PT_REGS_rflags, pt_regs, rflags);
	OFFSET(PT_REGS_vector, pt_regs, vector);
	OFFSET(PT_REGS_cs, pt_regs, cs);
	OFFSET(PT_REGS_rsp, pt_regs, rsp);
	OFFSET(PT_REGS_error_code, pt_regs, error_code);
	OFFSET(PT_REGS_rax, pt_regs, rax);
	OFFSET(PT_REGS_rcx, pt_regs, rcx);
	OFFSET(PT_REGS_rdx, pt_regs, rdx);
	OFFSET(PT_REGS_rsi, pt_regs, rsi);
	OFFSET(PT_REGS_rdi, pt_regs, rdi);
	OFFSET(PT_REGS_r8, pt_regs, r8);
	OFFSET(PT_REGS_r9, pt_regs, r9);
	OFFSET(PT_REGS_r10, pt_regs, r10);
	OFFSET(PT_REGS_r11, pt_regs, r11);
	OFFSET(PT_REGS_rbx, pt_regs, rbx);
	OFFSET(PT_REGS_rbp, pt_regs, rbp);
	OFFSET(PT_REGS_r12, pt_regs, r12);
	OFFSET(PT_REGS_r13, pt_regs, r13);
	OFFSET(PT_REGS_r14, pt_regs, r14);
	OFFSET(PT_REGS_r15, pt_regs, r15);
	/* The system call entry: its statistic, its trace site's key, the
	 * numbers it dispatches (uapi/syscall.h). */
	OFFSET(PERCPU_stat_syscalls, percpu, stats.syscalls);
	DEFINE(STATIC_KEY_TRACE, STATIC_KEY_TRACE);
	DEFINE(NR_SYSCALLS, NR_SYSCALLS);
	/* The selectors and MSRs the entry code names (arch/x86_64/kernel/gdt.h, cpu.h). */
	DEFINE(KERNEL_CS, KERNEL_CS);
	DEFINE(USER_CS, USER_CS);
	DEFINE(USER_DS, USER_DS);
	DEFINE(MSR_GS_BASE, MSR_GS_BASE);
	DEFINE(VECTOR_SYSCALL, VECTOR_SYSCALL);
	/* The LAPIC timer's vector and bench preempt's: tools/profile starts the
	 * timer and irq paths at their stubs. */
	DEFINE(VECTOR_TIMER, VECTOR_TIMER);
	DEFINE(VECTOR_BENCH, VECTOR_BENCH);
	OFFSET(THREAD_flags, thread, flags);
	OFFSET(RQ_curr, rq, curr);
	DEFINE(RQ_size, sizeof(struct rq));
	OFFSET(THREAD_ksp, thread, ksp);
	OFFSET(THREAD_stack_top, thread, stack_top);
	DEFINE(SWITCH_FRAME_size, SWITCH_FRAME_WORDS * 8);
	OFFSET(THREAD_id, thread, id);
	OFFSET(THREAD_name, thread, name);
	OFFSET(THREAD_state, thread, state);
	OFFSET(THREAD_prio, thread, prio);
	OFFSET(THREAD_cpu, thread, cpu);
	OFFSET(THREAD_nr_switches, thread, nr_switches);
	DEFINE(PREEMPT_NEED_RESCHED, PREEMPT_NEED_RESCHED);
	DEFINE(PREEMPT_OFFSET, PREEMPT_OFFSET);
	DEFINE(SOFTIRQ_OFFSET, SOFTIRQ_OFFSET);
	DEFINE(HARDIRQ_OFFSET, HARDIRQ_OFFSET);
	DEFINE(NMI_OFFSET, NMI_OFFSET);
	DEFINE(TIF_NEED_RESCHED, TIF_NEED_RESCHED);
	DEFINE(TIF_POLLING_NRFLAG, TIF_POLLING_NRFLAG);
	DEFINE(TIF_NEED_RESCHED_LAZY, TIF_NEED_RESCHED_LAZY);
	/* For the GDB helpers (tools/gdb/fold.py): the count's fields and
	 * which count model this build uses. */
	DEFINE(PREEMPT_MASK, PREEMPT_MASK);
	DEFINE(SOFTIRQ_MASK, SOFTIRQ_MASK);
	DEFINE(HARDIRQ_MASK, HARDIRQ_MASK);
	DEFINE(NMI_MASK, NMI_MASK);
	DEFINE(PREEMPT_ENABLED, PREEMPT_ENABLED);
	DEFINE(PREEMPT_HAS_COUNT, PREEMPT_HAS_COUNT);
	DEFINE(PREEMPT_FOLDS_RESCHED, PREEMPT_FOLDS_RESCHED);
	DEFINE(PREEMPT_COUNT_ON_STACK, PREEMPT_COUNT_ON_STACK);
	DEFINE(PREEMPT_IPI_FOLDS, PREEMPT_IPI_FOLDS);
	/* The patch sites (arch/x86_64/kernel/patch_site.h): patch_site.inc writes
	 * the records from NASM, tests/check-disasm reads the dumps. */
	DEFINE(PREEMPT_MODE_DEFAULT, PREEMPT_MODE_DEFAULT);
	DEFINE(PATCH_MODES_PREEMPT, PATCH_MODES_PREEMPT);
	DEFINE(PATCH_SITE_size, sizeof(struct patch_site));
	OFFSET(PATCH_SITE_addr, patch_site, addr);
	OFFSET(PATCH_SITE_target, patch_site, target);
	OFFSET(PATCH_SITE_modes, patch_site, modes);
	OFFSET(PATCH_SITE_key, patch_site, key);
	OFFSET(PATCH_SITE_name, patch_site, name);
	DEFINE(PATCH_SITE_LEN, PATCH_SITE_LEN);
	DEFINE(PATCH_SITE_JMP, PATCH_SITE_JMP);
	/* The memory layout (mm/mm.h), for boot/entry.asm, linker.ld
	 * (build/layout.ld) and the host tools. */
	DEFINE(KERNEL_VMA, KERNEL_VMA);
	DEFINE(PAGE_OFFSET, PAGE_OFFSET);
	DEFINE(STACK_SIZE, STACK_SIZE);

	/* Limits for the host tools: tools/lib/build.py reads these (and the
	 * option names) from build/fold_offsets.py; tools/bench/run-bench
	 * checks the command lines it makes against them. Lengths are in
	 * characters; a benchmark's options are BENCH_OPTIONS_<name>. */
#define WORDS(sym, words) __asm__ __volatile__("\n->" #sym "@" words)
#define KEY(key, ...) " " #key
	DEFINE(CMDLINE_MAX, CMDLINE_MAX);
	DEFINE(AUTORUN_MAX, AUTORUN_MAX);
	DEFINE(SHELL_LINE_MAX, SHELL_LINE_MAX);
	WORDS(CMDLINE_OPTIONS, CMDLINE_KEYS); /* checked against the image: scripts/check-cmdline-keys.sh */
	WORDS(PREEMPT_MODE_NAMES, PREEMPT_MODE_NAMES); /* in enum order: a site's mode bits */
	/* The static keys, in enum order from 1: a site's key (kernel/static_key.h). */
#define STATIC_KEY_WORD(id, name) " " #name
	WORDS(STATIC_KEY_NAMES, STATIC_KEYS(STATIC_KEY_WORD));
#undef STATIC_KEY_WORD
	/* Every benchmark of BENCHES(), from the one list. */
#define BENCH_WORDS(name, options, what) WORDS(BENCH_OPTIONS_##name, options(KEY, KEY));
	BENCHES(BENCH_WORDS)
#undef BENCH_WORDS
	/* The variable test of the mode (bench/bench_mode_var.asm):
	 * full and lazy, the preemptible modes, are the last two. */
	DEFINE(PREEMPT_MODE_FULL, PREEMPT_MODE_FULL);
	DEFINE(PREEMPT_MODE_LAZY, PREEMPT_MODE_LAZY);
	DEFINE(NR_PREEMPT_MODES, NR_PREEMPT_MODES);
	/* The system calls the entry sends to the IPC fast path first. */
	DEFINE(NR_ipc_call, __NR_ipc_call);
	DEFINE(NR_ipc_reply_recv, __NR_ipc_reply_recv);
	WORDS(TORTURE_OPTIONS, TORTURE_OPTIONS(KEY, KEY));
	/* The trace's event types, in enum trace_type order from 1, and its
	 * record size: tools/trace/mktracedat (kernel/trace/trace.h). */
#define TRACE_SYS(id, sys, name) " " #sys
#define TRACE_NAME(id, sys, name) " " #name
	WORDS(TRACE_EVENT_SYSTEMS, TRACE_EVENTS(TRACE_SYS));
	WORDS(TRACE_EVENT_NAMES, TRACE_EVENTS(TRACE_NAME));
	DEFINE(TRACE_ENTRY_size, sizeof(struct trace_entry));
	DEFINE(TRACE_ENTRIES, TRACE_ENTRIES);
}
