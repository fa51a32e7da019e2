/* The start of every user program: _start (crt0.c) and the main() each
 * program defines. */
#ifndef FOLD_USER_CRT0_H
#define FOLD_USER_CRT0_H
#include "lib/types.h"

/* user.ld: the end of .bss, the last byte the program image maps is the
 * end of its page (the page after it is unmapped). */
extern char _end[];

/* Each program's own: returns the exit code. */
int main(int argc, char **argv);

/* The ELF entry point (user/user.ld: ENTRY(_start)). */
__noreturn void _start(void);
/* Called by _start on an aligned stack: exit(main(argc, argv)). */
__noreturn void __start_main(long argc, char **argv);
#endif
