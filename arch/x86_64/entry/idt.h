#ifndef FOLD_ARCH_IDT_H
#define FOLD_ARCH_IDT_H
void idt_init(void);
void idt_load(void);
#endif
