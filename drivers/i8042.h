/* The PS/2 keyboard behind the i8042 controller, polled like the UART. */
#ifndef FOLD_ARCH_I8042_H
#define FOLD_ARCH_I8042_H
/* The next key typed as ASCII (US layout, shift; Enter gives '\r',
 * Backspace '\b'), or -1 when none is waiting. */
int i8042_getc(void);
#endif
