/* Backtraces of every CPU by NMI (Linux's trigger_all_cpu_backtrace(),
 * lib/nmi_backtrace.c): for the shell's `bt all`, the soft-lockup report
 * and panic. An NMI reaches a CPU even with IRQs off, so a CPU stuck in an
 * IRQs-off loop still says where it is. */
#ifndef FOLD_KERNEL_NMI_BACKTRACE_H
#define FOLD_KERNEL_NMI_BACKTRACE_H
#include "lib/types.h"
struct pt_regs;

/* This CPU's backtrace, then every other online CPU's by NMI; waits at
 * most nmi_backtrace_wait_ms() for the others and names any that did not
 * answer. Returns how many CPUs answered (this one included). */
u32 trigger_all_cpu_backtrace(void);
/* Only the other CPUs' (the soft-lockup report prints its own CPU from
 * the interrupted registers); returns how many answered. */
u32 nmi_backtrace_others(void);
/* The same for panic(): the NMIs that stop the other CPUs print their
 * backtraces first (do_nmi), and panic waits for them, bounded. */
void nmi_backtrace_request_others(void);
void nmi_backtrace_wait_others(void);
/* From do_nmi: if this CPU was asked, print its backtrace from the
 * interrupted registers and answer; true if it was asked. */
bool nmi_cpu_backtrace(struct pt_regs *regs);
/* The wait for the answers, in ms: by the clock= option (below). */
u32 nmi_backtrace_wait_ms(void);

/* How long the asking CPU waits for the answers: Linux's 10 s
 * (lib/nmi_backtrace.c, nmi_trigger_cpumask_backtrace()) on the wall
 * clock, where an answer is a register dump and call trace through the
 * serial port and a loaded host's vCPUs took over 1 s for three of them;
 * 1 s under clock=icount, where they take about 100 ms of virtual time. */
#define NMI_BACKTRACE_WAIT_MS 10000
#define NMI_BACKTRACE_WAIT_ICOUNT_MS 1000
#endif
