/* The explorer's arch/x86_64/entry/switch.h: switch_to() is the
 * engine's coroutine switch (tests/explore/hw.c): this CPU's context
 * becomes next's, and prev waits until some CPU switches to it; it
 * returns the thread that CPU switched from, as switch.asm does. */
#ifndef FOLD_ARCH_SWITCH_H
#define FOLD_ARCH_SWITCH_H
#include "lib/types.h"
struct thread;
struct thread *switch_to(struct thread *prev, struct thread *next);
#endif
