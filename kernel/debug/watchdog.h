/* The soft-lockup detector (Linux's kernel/watchdog.c): a per-CPU
 * hrtimer notices a CPU that has not switched threads for 2 x
 * watchdog_thresh seconds while another thread was waiting to run there,
 * and prints what that CPU is doing, then every other CPU's backtrace by
 * NMI (kernel/debug/nmi_backtrace.h). */
#ifndef FOLD_KERNEL_WATCHDOG_H
#define FOLD_KERNEL_WATCHDOG_H
#include "lib/types.h"

/* This CPU's watchdog timer (boot CPU and each AP, after the tick). */
void watchdog_init_cpu(void);
/* The threshold in milliseconds (Linux: watchdog_thresh, in seconds; a
 * soft lockup is reported after twice it). 0 turns the detector off. The
 * command line's watchdog_thresh= sets it at boot; tests shorten it. */
void watchdog_set_thresh_ms(u32 ms);
u32 watchdog_thresh_ms(void);
/* Soft lockups reported since boot. */
extern volatile u64 softlockups;
#endif
