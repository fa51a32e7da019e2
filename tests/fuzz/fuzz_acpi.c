/* Fuzz target: ACPI CPU discovery and power-off data (arch/x86_64/kernel/acpi/acpi.c):
 * the RSDP, the RSDT or XSDT, the MADT, the FADT and the \_S5 package in
 * the DSDT it points to (arch/x86_64/kernel/acpi/acpi_aml.c, also run directly on the
 * whole memory). The input's first 36 bytes are the RSDP as
 * GRUB copied it into boot_info; the rest is physical memory from
 * FUZZ_PHYS (where QEMU puts its tables, near the top of RAM): tables,
 * pointers and all. Before parsing, the target fixes up every checksum it
 * can find, so that random contents get past them: the RSDP's two, the
 * RSDT's and the XSDT's, those of the tables their entries point to
 * inside the memory, and a FADT's DSDT and X_DSDT (a table whose length runs out of the memory keeps
 * its bytes). Byte 33 of the RSDP (reserved; the parser ignores it) says
 * which fix-ups to skip, so the checksum failures are reached too:
 * bit 0 the RSDP's, bit 1 the root tables', bit 2 the other tables'; bit
 * 3 makes it an ACPI 1.0 RSDP of 20 bytes; bit 4 keeps table lengths
 * that run out of the memory (see fix_table).
 *
 * Every table is read through memremap(), which hands out an exact-size
 * heap copy (tests/fuzz/shim.c): a read past what the parser mapped is an
 * ASan report. After parsing, `madt` must be within its arrays and the
 * CPUs it lists distinct, and `acpi_pm` either valid (a PM1a port, SLP_TYP
 * values of 3 bits) or saying why not. */
#include "tests/fuzz/fuzz.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/kernel/acpi/acpi_aml.h"
#include "boot/multiboot.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define FUZZ_PHYS 0x07FE0000ULL
#define SDT_HEADER 36


/* Make n bytes at p sum to 0 by changing the byte at p[at]. */
static void fix_sum(u8 *p, size_t n, size_t at)
{
	u8 sum = 0;
	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		sum += p[i];
	p[at] = (u8)-sum;
}

static u8 skip; /* RSDP byte 33: the fix-ups not to do */

/* The table at physical pa, if its header lies in mem: its checksum fixed
 * up; returns its length, or 0. A length the parser takes (36 bytes to
 * 1 MiB) that runs out of mem is folded into it first, unless skip bit 4
 * says not to: the parser would read and sum up to a MiB of 0xFF for
 * each, and the fuzzer would spend its time there. */
static u32 fix_table(u8 *mem, size_t size, u64 pa)
{
	if (pa < FUZZ_PHYS || pa - FUZZ_PHYS > size || size - (pa - FUZZ_PHYS) < SDT_HEADER)
		return 0;
	u8 *t = mem + (pa - FUZZ_PHYS);
	u32 len = get_unaligned_le32(t + 4), room = (u32)(size - (pa - FUZZ_PHYS));
	if (len > room && len <= (1u << 20) && !(skip & 0x10)) {
		len = SDT_HEADER + len % (room - SDT_HEADER + 1);
		memcpy(t + 4, &len, 4);
	}
	if (len < SDT_HEADER || len > room)
		return 0;
	fix_sum(t, len, 9);
	return len;
}

/* If pa is a FADT in mem: the checksums of its DSDT and X_DSDT (ACPI 6.5
 * 5.2.9: offsets 40 and 140), which the root table does not list. */
static void fix_dsdt(u8 *mem, size_t size, u64 pa)
{
	if (pa < FUZZ_PHYS || pa - FUZZ_PHYS > size || size - (pa - FUZZ_PHYS) < SDT_HEADER)
		return;
	const u8 *t = mem + (pa - FUZZ_PHYS);
	u32 len = get_unaligned_le32(t + 4), room = (u32)(size - (pa - FUZZ_PHYS));
	if (memcmp(t, "FACP", 4) || len > room)
		return;
	if (len >= 44 && get_unaligned_le32(t + 40) != pa)
		fix_table(mem, size, get_unaligned_le32(t + 40));
	if (len >= 148 && get_unaligned_le64(t + 140) != pa)
		fix_table(mem, size, get_unaligned_le64(t + 140));
}

/* A root table's entries first (their tables), then the root itself. */
static void fix_root(u8 *mem, size_t size, u64 pa, size_t entry)
{
	u32 len = fix_table(mem, size, pa);
	if (!len)
		return;
	const u8 *t = mem + (pa - FUZZ_PHYS);
	for (size_t off = SDT_HEADER; off + entry <= len; off += entry) {
		u64 child = entry == 8 ? get_unaligned_le64(t + off) : get_unaligned_le32(t + off);
		if (!(skip & 4) && child != pa) {
			fix_dsdt(mem, size, child);
			fix_table(mem, size, child);
		}
	}
	if (!(skip & 2))
		fix_table(mem, size, pa);
	else
		mem[pa - FUZZ_PHYS + 9] ^= 0x5A; /* a checksum that fails */
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	if (size < 36)
		return -1;
	u8 rsdp[36];
	memcpy(rsdp, data, 36);
	size_t msize = size - 36;
	u8 *mem = malloc(msize ? msize : 1);
	FUZZ_ASSERT(mem);
	memcpy(mem, data + 36, msize);
	skip = rsdp[33];

	fix_root(mem, msize, get_unaligned_le64(rsdp + 24), 8); /* XSDT */
	fix_root(mem, msize, get_unaligned_le32(rsdp + 16), 4); /* RSDT */
	if (!(skip & 1)) {
		fix_sum(rsdp, 20, 8);
		fix_sum(rsdp, 36, 32);
	}

	memset(&boot_info, 0, sizeof(boot_info));
	memset(&madt, 0, sizeof(madt));
	FUZZ_RESTORE_EACH_INPUT(acpi_pm);
	memcpy(boot_info.rsdp, rsdp, 36);
	boot_info.rsdp_len = skip & 8 ? 20 : 36;
	boot_info.rsdp_version = skip & 8 ? 1 : 2;
	fake_phys_set(FUZZ_PHYS, mem, msize);

	bool ok = acpi_init();

	/* The scan alone, over the whole memory (an exact-size copy). */
	u8 typa = 0xEE, typb = 0xEE;
	const char *why = NULL;
	bool s5 = aml_find_s5(mem, msize, &typa, &typb, &why);
	FUZZ_ASSERT(s5 ? typa <= 7 && typb <= 7 : why != NULL);

	fake_phys_reset();
	free(mem);
	FUZZ_ASSERT(acpi_pm.s5_valid || acpi_pm.why);
	FUZZ_ASSERT(!acpi_pm.s5_valid || (acpi_pm.pm1a_cnt && acpi_pm.slp_typa <= 7 &&
					  acpi_pm.slp_typb <= 7));
	FUZZ_ASSERT(ok == madt.valid);
	FUZZ_ASSERT(!ok || madt.ncpus >= 1);
	FUZZ_ASSERT(madt.ncpus <= MAX_CPUS);
	FUZZ_ASSERT(madt.nioapics <= MAX_IOAPICS);
	for (u32 i = 0; i < madt.ncpus; i++)
		for (u32 j = 0; j < i; j++)
			FUZZ_ASSERT(madt.apic_ids[i] != madt.apic_ids[j]);
	return 0;
}
