/* The debug build and the release build: the one place that says which
 * this kernel is, for every check that exists only to catch a bug in the
 * kernel's own code.
 *
 * `make` builds the debug build, as fold always has: DEBUG_CHECKS is 1.
 * `make RELEASE=1` builds the release build (seL4's "release" against its
 * "debug" build; a Linux kernel without CONFIG_DEBUG_PREEMPT,
 * CONFIG_DEBUG_SPINLOCK, CONFIG_DEBUG_ATOMIC_SLEEP and lockdep): the
 * Makefile passes -DFOLD_RELEASE=1, and DEBUG_CHECKS is 0. Every check
 * below tests DEBUG_CHECKS and nothing else, as a C condition where it
 * can (`if (DEBUG_CHECKS && ...)`: the release build still compiles the
 * check, then drops it as dead code), as #if only where a structure
 * changes (the spinlock's owner). The build has -Wundef, so a file that
 * tests it without including this header does not compile.
 *
 * What the release build leaves out (docs/06-measuring.md has the same
 * list, with what each costs):
 *   - the preempt count asserted on both sides of every context switch
 *     (check_switch_count(), sched/context_switch.h) and its counter;
 *   - the raw spinlock's owner: recorded at lock, checked at unlock, and
 *     the recursion check that uses it (kernel/locking/raw_spinlock.h);
 *     a release build's recursive lock deadlocks, as Linux's does
 *     without CONFIG_DEBUG_SPINLOCK;
 *   - the interrupt handler's count-leak check (arch/x86_64/entry/irq.c);
 *   - the count check before every return to user mode
 *     (kernel/entry/common.h);
 *   - the system call exit's assertion that a frame no one marked with
 *     force_iret() is still the one `syscall` saved (process/syscall.h);
 *   - "scheduling while atomic" (schedule()) and preempt_schedule_irq()'s
 *     count assertion (sched/core.c);
 *   - might_sleep()'s and might_fault()'s atomic-context reports: both
 *     are then only the preemption point they also are (sched/sched.h,
 *     mm/uaccess.c), as in Linux without CONFIG_DEBUG_ATOMIC_SLEEP;
 *   - smp_processor_id()'s preemptible check (kernel/smp.c);
 *   - hrtimer_start()'s CPU assertion (kernel/time/hrtimer.c) and
 *     migrate_enable()'s unbalanced-call report (sched/migrate.h).
 * Behaviour is otherwise the same: a correct kernel does the same work in
 * both, and only a bug that a check would have reported goes unreported.
 * What stays: BUG_ON() and panic() elsewhere, the statistics `stat`
 * shows, tracing, the watchdog, fault injection, backtraces. LOCKDEP=1 is
 * a debug option: the Makefile refuses it with RELEASE=1. */
#ifndef FOLD_KERNEL_DEBUG_CHECKS_H
#define FOLD_KERNEL_DEBUG_CHECKS_H

#include "kernel/panic.h"

#ifndef FOLD_RELEASE
#define FOLD_RELEASE 0
#endif
#if FOLD_RELEASE != 0 && FOLD_RELEASE != 1
#error "FOLD_RELEASE is 0 (the debug build) or 1 (make RELEASE=1)"
#endif

/* 1: the debug build, every check below compiled in; 0: RELEASE=1. */
#define DEBUG_CHECKS (!FOLD_RELEASE)

/* BUG_ON() in the debug build only, for an assertion on a hot path
 * (Linux's VM_BUG_ON() is the same idea under CONFIG_DEBUG_VM). cond is
 * not evaluated in a release build. */
#define DEBUG_BUG_ON(cond)                 \
	do {                               \
		if (DEBUG_CHECKS)          \
			BUG_ON(cond);      \
	} while (0)

/* What a test of a compiled-out check says when it skips. */
#define DEBUG_CHECKS_SKIP "a release build (RELEASE=1) compiles this check out"

#endif
