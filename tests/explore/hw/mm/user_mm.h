/* The explorer's address spaces: kernel threads only, no CR3 to load. */
#ifndef FOLD_MM_USER_MM_H
#define FOLD_MM_USER_MM_H
struct thread;
static __always_inline void switch_mm_irqs_off(struct thread *next) { (void)next; }
#endif
