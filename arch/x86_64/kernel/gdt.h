#ifndef FOLD_ARCH_GDT_H
#define FOLD_ARCH_GDT_H
#include "lib/types.h"
#include "uapi/irq.h"
#include "kernel/percpu.h"

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

/* The 64-bit TSS (SDM Vol. 3A Figure 9-11), then fold's I/O bit map. */
struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
	u8 io_bitmap[IO_BITMAP_BYTES + 1]; /* + the 0xff byte past the map */
} __packed;

#define IOMAP_VALID ((u16)__builtin_offsetof(struct tss, io_bitmap))
#define IOMAP_INVALID ((u16)sizeof(struct tss)) /* past the limit: no port */

void gdt_init_cpu(u32 cpu);

/* Each ioperm() change gives its process's map a new number from this
 * one counter, so a number names one version of one map, whichever mm it
 * belongs to and whatever address it has (Linux's io_bitmap->sequence). */
u64 io_bitmap_next_seq(void);
/* Copy the map numbered seq into this CPU's TSS, or mark the TSS as
 * having none (bitmap NULL, seq 0). */
void __tss_load_io_bitmap(const u8 *bitmap, u64 seq);
/* This CPU's TSS takes the I/O permission bit map of the process being
 * switched to (IO_BITMAP_BYTES bytes, numbered seq), or NULL and 0: no
 * port from ring 3. Copied only when the TSS holds another version: a
 * context switch between processes without ports, or back to the one
 * whose map is there, costs a compare. Interrupts off (the switch). */
static __always_inline void tss_load_io_bitmap(const u8 *bitmap, u64 seq)
{
	if (unlikely(this_cpu_read(io_bitmap_seq) != seq))
		__tss_load_io_bitmap(bitmap, seq);
}
/* TSS.RSP0: the stack the CPU switches to on an interrupt or exception
 * from ring 3 (SDM Vol. 3A 7.14.2): the running thread's kernel stack.
 * Also this CPU's top_of_stack, which the syscall entry loads by hand. */
static __always_inline void tss_set_rsp0(u64 top)
{
	this_cpu_read(tss)->rsp[0] = top;
	this_cpu_write(top_of_stack, top);
}
#endif
