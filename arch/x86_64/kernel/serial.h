#ifndef FOLD_ARCH_SERIAL_H
#define FOLD_ARCH_SERIAL_H
#include "lib/types.h"

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *s, size_t n);
/* Returns the next received byte, or -1 when none is waiting. */
int serial_getc(void);
#endif
