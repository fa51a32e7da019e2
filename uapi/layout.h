/* The user half of every address space (mm/mm.h has the kernel half).
 *
 *   0x0000000000000000  nothing: NULL and the first 4 MiB stay unmapped
 *   0x0000000000400000  USER_LOAD_MIN: the lowest address an ELF segment
 *                       may use (user/user.ld links programs here)
 *   0x00007FFFFFEF0000  the user stack: USER_STACK_SIZE below
 *   0x00007FFFFFF00000  USER_STACK_TOP, with argc/argv at the top
 *   0x0000800000000000  USER_TOP: the first non-canonical address; a
 *                       segment may end here (user/sysret_hole.c puts a
 *                       `syscall` in the last two bytes below it)
 */
#ifndef FOLD_UAPI_LAYOUT_H
#define FOLD_UAPI_LAYOUT_H

#define USER_LOAD_MIN    0x0000000000400000UL
#define USER_STACK_TOP   0x00007FFFFFF00000UL
#define USER_STACK_SIZE  (64UL * 1024)
#define USER_TOP         0x0000800000000000UL
#define USER_IMAGE_MAX   (16UL * 1024 * 1024)   /* bytes an image may map */
#define USER_ARGS_MAX    1024                   /* bytes of argv strings */
#define USER_ARGC_MAX    32

#endif
