#ifndef FOLD_ARCH_GDT_H
#define FOLD_ARCH_GDT_H
#include "lib/types.h"
#include "uapi/irq.h"

/* The GDT's selectors. The order is SYSCALL's and SYSRET's (SDM Vol. 2B,
 * SYSCALL/SYSRET; Vol. 3A 5.8.8): SYSCALL loads CS from STAR[47:32] and SS
 * from STAR[47:32] + 8, so kernel data follows kernel code; 64-bit SYSRET
 * loads CS from STAR[63:48] + 16 and SS from STAR[63:48] + 8, so user
 * data sits between an (unused) 32-bit user code slot and user code.
 * Linux has the same order (__USER32_CS, __USER_DS, __USER_CS). */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER32_CS_SLOT 0x18 /* STAR[63:48]: what SYSRET adds to */
#define USER_DS (0x20 | 3)  /* RPL 3 */
#define USER_CS (0x28 | 3)
#define TSS_SEL 0x30

/* IST slots (1-based in the IDT gate; 0 = no stack switch). */
#define IST_DF 1
#define IST_NMI 2
#define IST_MC 3

/* The I/O permission bit map covers ports 0..IO_BITMAP_PORTS-1 (a set
 * bit denies the port); every port above is denied to ring 3. */
#define IO_BITMAP_PORTS IOPERM_PORTS
#define IO_BITMAP_BYTES (IO_BITMAP_PORTS / 8)

void gdt_init_cpu(u32 cpu);
/* This CPU's TSS takes the I/O permission bit map of the process being
 * switched to (IO_BITMAP_BYTES bytes), or NULL: no port from ring 3.
 * Interrupts off (the context switch). */
void tss_load_io_bitmap(const u8 *bitmap);
/* TSS.RSP0: the stack the CPU switches to on an interrupt or exception
 * from ring 3 (SDM Vol. 3A 7.14.2): the running thread's kernel stack.
 * Also this CPU's top_of_stack, which the syscall entry loads by hand. */
void tss_set_rsp0(u64 top);
#endif
