/* A framebuffer text console: what goes to the serial console, drawn on
 * the linear framebuffer GRUB set up (multiboot2 framebuffer tag, 3.6.12),
 * with the build's PSF font (drivers/fbcon_font.h). */
#ifndef FOLD_KERNEL_FBCON_H
#define FOLD_KERNEL_FBCON_H
#include "lib/types.h"

/* Map the framebuffer and replay the kernel log so far onto it; with no
 * usable framebuffer, say why and leave the console serial-only. Needs
 * vm_init (ioremap). */
void fbcon_init(void);
/* Draw n bytes (\n, \r, \b, printable ASCII; others are dropped). A no-op
 * before fbcon_init or without a framebuffer. Caller serialises (the
 * console lock). */
void fbcon_write(const char *s, size_t n);
#endif
