#ifndef FOLD_KERNEL_BANNER_H
#define FOLD_KERNEL_BANNER_H
void print_banner(void);
#endif
