/* The one piece of AML fold reads: the \_S5 object of the DSDT, whose
 * package gives the SLP_TYP values for soft-off (ACPI 6.5 7.4.2). */
#ifndef FOLD_ARCH_ACPI_AML_H
#define FOLD_ARCH_ACPI_AML_H
#include "lib/types.h"

/* Scans len bytes of AML (a DSDT's body, after its 36-byte header) for
 * `Name(\_S5_, Package() {SLP_TYPa, SLP_TYPb, ...})`. Returns true with
 * *typa, *typb (each 0-7) set, or false with *why saying what was wrong.
 * Every read is bounds-checked against len. */
bool aml_find_s5(const u8 *aml, size_t len, u8 *typa, u8 *typb, const char **why);
#endif
