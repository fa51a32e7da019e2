/* User-level drivers, the user's view (the kernel's: ipc/irq_notify.h,
 * drivers/console_drv.h). A process the kernel started with CAP_SYS_RAWIO
 * (the serial driver, user/serial_drv.c) may:
 *
 *   ioperm(from, num, on)     take ports from..from+num-1 (Linux's call):
 *                             after it, IN and OUT on them work in ring 3;
 *                             on any other port, or from any other
 *                             process, they are a #GP (SIGSEGV)
 *   irq_bind(irq, h, bit)     interrupt line irq signals bit `bit` of the
 *                             notification h (RIGHT_SIGNAL) each time it
 *                             fires; the kernel masks the line until...
 *   irq_ack(irq)              ...the driver says it has served the device
 *   console_register(h)       the console's writes (write() to fd 1 and 2
 *                             of every other process) arrive as calls on
 *                             the endpoint h (RIGHT_RECV): label
 *                             CONSOLE_WRITE, the bytes as the payload
 *
 * Errors: -EPERM without CAP_SYS_RAWIO or the handle's right, or irq_ack
 * from a process that did not bind the line; -EINVAL an IRQ fold does not
 * hand out (only IRQ_BINDABLE's), a bit >= 32, a port range past 0x3ff,
 * irq_ack of a line nobody bound; -EBADF a bad handle; -EBUSY the line is
 * bound already, or the console has a driver already; -ENODEV no I/O APIC.
 * When the driver exits the line is unbound and the kernel writes the
 * console itself again. */
#ifndef FOLD_UAPI_IRQ_H
#define FOLD_UAPI_IRQ_H

#define IRQ_COM2 3
#define IRQ_COM1 4
/* The lines a driver may bind: the two serial ports. */
#define IRQ_BINDABLE(irq) ((irq) == IRQ_COM1 || (irq) == IRQ_COM2)

#define CONSOLE_WRITE 1           /* the label of a console write's tag */
#define IOPERM_PORTS 0x400        /* ioperm() covers ports below this */

#endif
