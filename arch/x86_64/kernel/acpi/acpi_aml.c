/* Finding \_S5 in the DSDT without an AML interpreter. The firmware
 * usually declares it as a named package (ACPI 6.5 7.4.2, "\_Sx (System
 * States)"):
 *
 *   Name (_S5, Package (0x04) { 0x05, 0x05, Zero, Zero })
 *
 * which is encoded (ACPI 6.5 20.2, "AML Grammar Definition") as
 *
 *   08               NameOp                             (20.2.5.1)
 *   [5C] 5F 53 35 5F NameString: an optional RootChar '\', NameSeg "_S5_"
 *   12               PackageOp                          (20.2.5.4)
 *   PkgLength        1 to 4 bytes                       (20.2.4)
 *   NumElements      ByteData
 *   elements         integers: ZeroOp 00, OneOp 01, OnesOp FF, or
 *                    BytePrefix 0A b, WordPrefix 0B w, DWordPrefix 0C d,
 *                    QWordPrefix 0E q                   (20.2.3)
 *
 * Linux's ACPICA evaluates \_S5 with the interpreter (a method returning a
 * package works there, not here); this scan finds the declared form,
 * which is what QEMU, Bochs and most firmware emit. */
#include "arch/x86_64/kernel/acpi/acpi_aml.h"
#include "lib/string.h"

#define AML_NAME_OP 0x08
#define AML_ROOT_CHAR 0x5C
#define AML_PACKAGE_OP 0x12

/* PkgLength at p (20.2.4): bits 7-6 of the lead byte count the bytes that
 * follow (0-3). With none, bits 5-0 are the length; else bits 3-0 are its
 * low nibble and each following byte the next 8 bits. The length counts
 * the PkgLength bytes themselves. Returns the bytes used, 0 if out of
 * bounds. */
static size_t pkg_length(const u8 *p, const u8 *end, u32 *len)
{
	if (p >= end)
		return 0;
	size_t extra = p[0] >> 6;
	if ((size_t)(end - p) < 1 + extra)
		return 0;
	if (!extra) {
		*len = p[0] & 0x3F;
		return 1;
	}
	u32 v = p[0] & 0x0F;
	for (size_t i = 0; i < extra; i++)
		v |= (u32)p[1 + i] << (4 + 8 * i);
	*len = v;
	return 1 + extra;
}

/* One integer element at *pp (20.2.3), advanced past it; false if it is
 * not an integer or runs past end. */
static bool aml_integer(const u8 **pp, const u8 *end, u64 *v)
{
	const u8 *p = *pp;
	if (p >= end)
		return false;
	size_t n;
	switch (p[0]) {
	case 0x00: *v = 0; *pp = p + 1; return true;      /* ZeroOp */
	case 0x01: *v = 1; *pp = p + 1; return true;      /* OneOp */
	case 0xFF: *v = ~0ULL; *pp = p + 1; return true;  /* OnesOp */
	case 0x0A: n = 1; break;                          /* BytePrefix */
	case 0x0B: n = 2; break;                          /* WordPrefix */
	case 0x0C: n = 4; break;                          /* DWordPrefix */
	case 0x0E: n = 8; break;                          /* QWordPrefix */
	default: return false;
	}
	if ((size_t)(end - p) < 1 + n)
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v |= (u64)p[1 + i] << (8 * i);
	*pp = p + 1 + n;
	return true;
}

/* The package after the name at p: SLP_TYPa and SLP_TYPb. */
static bool s5_package(const u8 *p, const u8 *end, u8 *typa, u8 *typb, const char **why)
{
	if (p >= end || p[0] != AML_PACKAGE_OP) {
		*why = "\\_S5 is not a package (a method? fold reads only Name(_S5, Package(){...}))";
		return false;
	}
	u32 len;
	size_t used = pkg_length(p + 1, end, &len);
	if (!used || len < used || len > (size_t)(end - (p + 1))) {
		*why = "\\_S5's package length runs past the DSDT";
		return false;
	}
	const u8 *pkg_end = p + 1 + len;
	const u8 *q = p + 1 + used;
	if (q >= pkg_end) {
		*why = "\\_S5's package has no element count";
		return false;
	}
	u8 count = *q++;
	u64 a, b = 0;
	if (count < 1 || !aml_integer(&q, pkg_end, &a)) {
		*why = "\\_S5's package does not start with an integer";
		return false;
	}
	if (count >= 2) {
		if (!aml_integer(&q, pkg_end, &b)) {
			*why = "\\_S5's second element is not an integer";
			return false;
		}
	} else {
		/* One element: SLP_TYPa in bits 0-7, SLP_TYPb in bits 8-15,
		 * as ACPICA reads such a package (acpi_get_sleep_type_data). */
		b = (a >> 8) & 0xFF;
		a &= 0xFF;
	}
	if (a > 7 || b > 7) {
		*why = "\\_S5's SLP_TYP values do not fit the 3-bit SLP_TYP field";
		return false;
	}
	*typa = (u8)a;
	*typb = (u8)b;
	return true;
}

bool aml_find_s5(const u8 *aml, size_t len, u8 *typa, u8 *typb, const char **why)
{
	*why = "the DSDT declares no \\_S5 object";
	const u8 *end = aml + len;
	for (size_t i = 1; len >= 4 && i <= len - 4; i++) {
		if (memcmp(aml + i, "_S5_", 4))
			continue;
		/* NameOp right before the NameSeg, or before a RootChar. */
		bool named = aml[i - 1] == AML_NAME_OP ||
			     (aml[i - 1] == AML_ROOT_CHAR && i >= 2 && aml[i - 2] == AML_NAME_OP);
		if (!named)
			continue; /* a reference to \_S5, or bytes that look like one */
		return s5_package(aml + i + 4, end, typa, typb, why);
	}
	return false;
}
