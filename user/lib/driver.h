/* For user-level drivers (uapi/irq.h): the driver system calls and port
 * I/O. IN and OUT work in ring 3 only on the ports ioperm() gave the
 * process (the TSS's I/O permission bit map, SDM Vol. 1 19.5); anywhere
 * else they are a #GP, and the process dies of SIGSEGV. Each call returns
 * 0 or -errno. */
#ifndef FOLD_USER_DRIVER_H
#define FOLD_USER_DRIVER_H
#include "lib/types.h"
#include "uapi/syscall.h"
#include "uapi/irq.h"
#include "user/lib/syscall.h"

static inline long ioperm(unsigned long from, unsigned long num, int on)
{
	return syscall3(__NR_ioperm, (long)from, (long)num, on);
}

static inline long irq_bind(unsigned irq, int notification, unsigned bit)
{
	return syscall3(__NR_irq_bind, irq, notification, bit);
}

static inline long irq_ack(unsigned irq)
{
	return syscall1(__NR_irq_ack, irq);
}

static inline long console_register(int endpoint)
{
	return syscall1(__NR_console_register, endpoint);
}

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
#endif
