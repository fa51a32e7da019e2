#ifndef FOLD_KERNEL_IRQ_H
#define FOLD_KERNEL_IRQ_H
#include "lib/types.h"
struct pt_regs;

typedef void (*irq_handler_t)(struct pt_regs *regs);

/* Fixed vectors (the LAPIC's, see arch/x86_64/apic.h). */
#define VECTOR_TIMER 0x20
#define VECTOR_HRTIMER 0x21
#define VECTOR_RESCHEDULE 0xF0
#define VECTOR_CALL_FUNCTION 0xF1
#define VECTOR_NMI_BACKTRACE 0xF2 /* reserved */
#define VECTOR_STOP 0xF3
#define VECTOR_ERROR 0xFE
#define VECTOR_SPURIOUS 0xFF

void irq_register(int vector, irq_handler_t h, const char *name);
const char *irq_name(int vector);
void irq_dispatch(struct pt_regs *regs);
void irq_enter(void);
void irq_exit(void);
#endif
