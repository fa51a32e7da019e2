#ifndef FOLD_ARCH_APIC_H
#define FOLD_ARCH_APIC_H
void apic_eoi(void);
#endif
