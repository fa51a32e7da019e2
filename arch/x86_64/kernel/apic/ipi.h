/* The IPIs generic code sends, by Linux's names (arch/x86_64/kernel/apic/ipi.c). */
#ifndef FOLD_ARCH_IPI_H
#define FOLD_ARCH_IPI_H
#include "lib/types.h"

/* A RESCHEDULE IPI to `cpu` (Linux's smp_send_reschedule()). */
void smp_send_reschedule(u32 cpu);
/* A CALL_FUNCTION IPI to `cpu`. */
void arch_send_call_function_single_ipi(u32 cpu);
/* On panic: an NMI to every other CPU (it arrives even with IRQs off);
 * the NMI handler sees the panic and halts (arch/x86_64/kernel/traps.c). */
void smp_send_stop(void);
#endif
