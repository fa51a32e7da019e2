/* The explorer's RESCHEDULE IPI: a pending bit of the target CPU
 * (tests/explore/hw.c), taken at its next scheduling point with IF set. */
#ifndef FOLD_ARCH_APIC_IPI_H
#define FOLD_ARCH_APIC_IPI_H
#include "lib/types.h"
void smp_send_reschedule(u32 cpu);
#endif
