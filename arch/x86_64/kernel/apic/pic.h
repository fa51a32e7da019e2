#ifndef FOLD_ARCH_PIC_H
#define FOLD_ARCH_PIC_H
void pic_disable(void);
#endif
