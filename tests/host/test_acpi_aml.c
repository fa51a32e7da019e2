/* Host tests for arch/x86_64/kernel/acpi/acpi_aml.c: \_S5 found in real shapes of
 * AML, refused with a reason in broken ones, and never read past the
 * end (each input is an exact-size heap copy: ASan sees an overread). */
#include "arch/x86_64/kernel/acpi/acpi_aml.h"
#include "lib/string.h"
#include "tests/host/check.h"

/* Run the scan on an exact-size heap copy of n bytes. */
static bool scan(const u8 *bytes, size_t n, u8 *a, u8 *b, const char **why)
{
	u8 *copy = malloc(n ? n : 1);
	if (n)
		host_memcpy(copy, bytes, n);
	bool ok = aml_find_s5(copy, n, a, b, why);
	free(copy);
	return ok;
}

/* QEMU's DSDT: Name (_S5, Package (0x04) { Zero, Zero, Zero, Zero }). */
static void t_qemu_form(void)
{
	static const u8 aml[] = { 0x10, 0x05, 0x5C, 0x00, 0x00,
				  0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00 };
	u8 a = 9, b = 9;
	const char *why = NULL;
	CHECK(scan(aml, sizeof(aml), &a, &b, &why));
	CHECK_EQ_U64(0, a);
	CHECK_EQ_U64(0, b);
}

/* A rooted name, BytePrefix values, and a reference to \_S5 before the
 * declaration (StringPrefix "_S5_": not a NameOp) that must be skipped. */
static void t_rooted_bytes(void)
{
	static const u8 aml[] = { 0x0D, '_', 'S', '5', '_', 0x00,
				  0x08, 0x5C, '_', 'S', '5', '_', 0x12, 0x08, 0x04,
				  0x0A, 0x07, 0x0A, 0x05, 0x00, 0x00 };
	u8 a = 0, b = 0;
	const char *why = NULL;
	CHECK(scan(aml, sizeof(aml), &a, &b, &why));
	CHECK_EQ_U64(7, a);
	CHECK_EQ_U64(5, b);
}

/* A two-byte PkgLength (lead byte 0x40 | low nibble, then the next 8
 * bits) and one element holding both values (bits 0-7 and 8-15). */
static void t_long_pkglength_one_element(void)
{
	u8 aml[80] = { 0x08, '_', 'S', '5', '_', 0x12, 0x40 | 0x06, 0x00, 0x01, 0x0B, 0x05, 0x03 };
	/* PkgLength 6 = 2 length bytes + count + WordPrefix + 2 bytes. */
	u8 a = 0, b = 0;
	const char *why = NULL;
	CHECK(scan(aml, 12, &a, &b, &why));
	CHECK_EQ_U64(5, a);
	CHECK_EQ_U64(3, b);
}

static void t_refusals(void)
{
	u8 a, b;
	const char *why;
	static const u8 none[] = { 0x08, '_', 'S', '4', '_', 0x12, 0x03, 0x01, 0x00 };
	CHECK(!scan(none, sizeof(none), &a, &b, &why));
	CHECK(strstr(why, "no \\_S5") != NULL);
	/* Method (_S5) { ... }: 0x14 MethodOp, so no NameOp before it. */
	static const u8 method[] = { 0x14, 0x08, '_', 'S', '5', '_', 0x00, 0xA4, 0x00 };
	CHECK(!scan(method, sizeof(method), &a, &b, &why));
	/* Name (_S5, 5): not a package. */
	static const u8 notpkg[] = { 0x08, '_', 'S', '5', '_', 0x0A, 0x05 };
	CHECK(!scan(notpkg, sizeof(notpkg), &a, &b, &why));
	CHECK(strstr(why, "not a package") != NULL);
	/* The package claims 0x30 bytes, the table ends after 4. */
	static const u8 runs_off[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x30, 0x04, 0x00, 0x00 };
	CHECK(!scan(runs_off, sizeof(runs_off), &a, &b, &why));
	CHECK(strstr(why, "runs past") != NULL);
	/* A 4-byte PkgLength cut off by the end of the table. */
	static const u8 cut[] = { 0x08, '_', 'S', '5', '_', 0x12, 0xC0, 0x01 };
	CHECK(!scan(cut, sizeof(cut), &a, &b, &why));
	/* SLP_TYP 8 does not fit 3 bits. */
	static const u8 big[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02, 0x0A, 0x08, 0x00 };
	CHECK(!scan(big, sizeof(big), &a, &b, &why));
	CHECK(strstr(why, "3-bit") != NULL);
	/* An integer prefix whose bytes run past the package. */
	static const u8 trunc[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x04, 0x02, 0x0C, 0x01 };
	CHECK(!scan(trunc, sizeof(trunc), &a, &b, &why));
	/* Shorter than a name, and empty. */
	CHECK(!scan((const u8 *)"_S5", 3, &a, &b, &why));
	CHECK(!scan(NULL, 0, &a, &b, &why));
}

int main(void)
{
	check_suite("acpi_aml");
	RUN(t_qemu_form);
	RUN(t_rooted_bytes);
	RUN(t_long_pkglength_one_element);
	RUN(t_refusals);
	return check_done();
}
