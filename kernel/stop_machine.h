/* stop_machine(fn, arg): run fn(arg) on this CPU while every other online
 * CPU waits, parked with interrupts off (Linux's stop_machine(),
 * kernel/stop_machine.c). */
#ifndef FOLD_KERNEL_STOP_MACHINE_H
#define FOLD_KERNEL_STOP_MACHINE_H
#include "lib/types.h"

/* Returns fn's result. Sleeps for the rendezvous: call it with IRQs on
 * and nothing else held; one stop_machine() runs at a time. */
int stop_machine(int (*fn)(void *arg), void *arg);
#endif
