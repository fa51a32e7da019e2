#ifndef FOLD_ARCH_TSC_H
#define FOLD_ARCH_TSC_H
void tsc_init(void);
#endif
