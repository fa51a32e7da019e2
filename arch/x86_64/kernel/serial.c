/* 16550 UART on COM1 (I/O port 0x3F8): the console fold's users read.
 * Register map from the PC16550D datasheet: THR/RBR at +0, IER +1,
 * FCR +2, LCR +3, MCR +4, LSR +5; DLL/DLM at +0/+1 while LCR.DLAB = 1. */
#include "arch/x86_64/kernel/serial.h"
#include "arch/x86_64/cpu.h"

#define COM1 0x3F8
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20

void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* no UART interrupts: fold polls */
	outb(COM1 + 3, 0x80); /* DLAB on */
	outb(COM1 + 0, 0x01); /* divisor 1: 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03); /* 8 data bits, no parity, 1 stop bit */
	outb(COM1 + 2, 0xC7); /* FIFOs on, cleared, 14-byte threshold */
	outb(COM1 + 4, 0x03); /* DTR, RTS */
}

void serial_putc(char c)
{
	while (!(inb(COM1 + 5) & LSR_THR_EMPTY))
		cpu_relax();
	outb(COM1, (u8)c);
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

int serial_getc(void)
{
	if (!(inb(COM1 + 5) & LSR_DATA_READY))
		return -1;
	return inb(COM1);
}
