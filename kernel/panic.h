/* Fatal errors and loud invariant checks.
 *   panic(fmt, ...)  prints the PANIC banner, CPU, thread, preempt count
 *                    and a symbolised backtrace, stops the other CPUs and
 *                    ends the run (QEMU exit code 5).
 *   BUG(fmt, ...)    an invariant is broken: panic with "BUG: ..." first.
 *   BUG_ON(cond)     BUG if cond, naming the condition, file and line.
 *   report_bug(...)  a non-fatal debug check (Linux's "BUG: scheduling
 *                    while atomic"): the message, context and backtrace,
 *                    then execution goes on. Counted, so tests can assert.
 */
#ifndef FOLD_KERNEL_PANIC_H
#define FOLD_KERNEL_PANIC_H

#include "lib/types.h"

struct pt_regs;

__printf(1, 2) __noreturn void panic(const char *fmt, ...);
#define BUG(fmt, ...) panic("BUG: " fmt " (%s:%d)", ##__VA_ARGS__, __FILE__, __LINE__)
#define BUG_ON(cond)                                                          \
	do {                                                                  \
		if (unlikely(cond))                                           \
			panic("BUG: %s (%s:%d)", #cond, __FILE__, __LINE__); \
	} while (0)

bool panic_in_progress(void);
__printf(1, 2) void report_bug(const char *fmt, ...);
extern volatile u64 bug_reports;

/* Print "Call Trace:" and one symbolised line per frame, walking the frame
 * pointer chain from rbp. */
void dump_backtrace(u64 rip, u64 rbp);
void dump_stack(void);
void dump_context(void);
void dump_regs(const struct pt_regs *r);

/* QEMU isa-debug-exit codes (the host sees (code << 1) | 1). */
#define EXIT_PASS 0
#define EXIT_FAIL 1
#define EXIT_PANIC 2
__noreturn void qemu_exit(int code);

#endif
