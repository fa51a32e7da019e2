#include "arch/x86_64/apic.h"
void apic_eoi(void)
{
}
