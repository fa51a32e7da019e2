/* Powering off through ACPI S5 (soft off), for machines without QEMU's
 * isa-debug-exit: Bochs, real hardware. */
#ifndef FOLD_ARCH_ACPI_POWEROFF_H
#define FOLD_ARCH_ACPI_POWEROFF_H
#include "lib/types.h"

/* Enters S5 with the SLP_TYP values of the DSDT's \_S5, saying so on the
 * console. Returns only if it could not: no usable ACPI tables (the reason
 * printed), or the machine still running 100 ms after SLP_EN. */
void acpi_power_off(void);
#endif
