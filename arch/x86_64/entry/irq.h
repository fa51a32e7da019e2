/* Interrupt vectors and their handlers (arch/x86_64/entry/irq.c), and the
 * hardirq accounting every handler runs inside (irq_enter/irq_exit). */
#ifndef FOLD_ARCH_IRQ_H
#define FOLD_ARCH_IRQ_H
#include "lib/types.h"
struct pt_regs;

typedef void (*irq_handler_t)(struct pt_regs *regs);

/* The vectors fold uses. 0-31 are the CPU's exceptions (SDM Vol. 3A
 * 7.3); the local APIC delivers the timer, the IPIs and its error and
 * spurious interrupts (SDM Vol. 3A 12.5). */
#define VECTOR_TIMER 0x20
#define VECTOR_TEST 0x80       /* software `int`: the debug suite's leaky handler */
#define VECTOR_BENCH 0x81      /* software `int`: bench preempt's empty handler */
#define VECTOR_LAB 0x82        /* software `int`: the L2 lab suite's empty handler */
#define VECTOR_RESCHEDULE 0xF0
#define VECTOR_CALL_FUNCTION 0xF1
#define VECTOR_ERROR 0xFE
#define VECTOR_SPURIOUS 0xFF
/* Not an IDT vector: the `vector` of a pt_regs the syscall entry built
 * (arch/x86_64/entry/syscall_64.asm). */
#define VECTOR_SYSCALL 0x100

/* The handler of an interrupt vector (32-255). One for a vector the local
 * APIC delivers (the timer, the IPIs, a device's line) sends the EOI
 * itself, apic_eoi() first, as Linux's sysvec handlers do; one for a
 * software `int n` or a spurious line sends none. */
void irq_register(int vector, irq_handler_t h, const char *name);
const char *irq_name(int vector);
/* The C sides of common_entry and exception_entry
 * (arch/x86_64/entry/entry.asm). */
void irq_dispatch(struct pt_regs *regs);
void exc_dispatch(struct pt_regs *regs);
/* Boot CPU, after acpi_init(): its local APIC, and the RESCHEDULE
 * vector (Linux's init_IRQ()). */
void init_IRQ(void);
/* "xAPIC" or "x2APIC", for `cpus`. */
const char *irq_controller_name(void);

void irq_enter(void);
void irq_exit(void);
#endif
