#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/kernel/acpi/acpi_aml.h"
#include "boot/multiboot.h"
#include "kernel/printk.h"
#include "mm/mm.h"
#include "lib/string.h"
#include "lib/unaligned.h"

struct madt_info madt;
struct acpi_pm_info acpi_pm = { .why = "no FADT in the ACPI tables" };

struct rsdp {
	char sig[8];
	u8 checksum;
	char oem[6];
	u8 revision;
	u32 rsdt;
	/* ACPI 2.0+ */
	u32 length;
	u64 xsdt;
	u8 ext_checksum;
	u8 reserved[3];
} __packed;

struct sdt_header {
	char sig[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem[6];
	char oem_table[8];
	u32 oem_rev;
	u32 creator, creator_rev;
} __packed;

/* Every ACPI structure's bytes sum to 0 mod 256 (ACPI 5.2.5.3, 5.2.6). */
static bool checksum_ok(const void *p, size_t n)
{
	u8 sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += ((const u8 *)p)[i];
	return sum == 0;
}

/* Table fields need not be aligned (a MADT entry's u64 sits at offset 4):
 * lib/unaligned.h reads them. */

/* ACPI tables may sit in RAM the direct map does not cover (QEMU puts
 * them in a "reserved" range): map them if needed. A range that wraps
 * past the top of the address space is never in the direct map. */
static const void *acpi_map(u64 pa, size_t len)
{
	bool mapped = pa + len >= pa;
	for (u64 p = ALIGN_DOWN(pa, PAGE_SIZE); mapped && p < pa + len; p += PAGE_SIZE)
		if (!virt_is_mapped((u64)phys_to_virt(p)) || p + PAGE_SIZE < p)
			mapped = false;
	return mapped ? phys_to_virt(pa) : memremap(pa, len);
}

static const struct sdt_header *map_table(u64 pa, const char *why)
{
	const struct sdt_header *h = acpi_map(pa, sizeof(*h));
	if (h->length < sizeof(*h) || h->length > (1 << 20)) {
		pr_warn("acpi: %s at %#llx has a bad length %u\n", why,
			(unsigned long long)pa, h->length);
		return NULL;
	}
	h = acpi_map(pa, h->length);
	if (!checksum_ok(h, h->length)) {
		pr_warn("acpi: %.4s at %#llx fails its checksum\n", h->sig,
			(unsigned long long)pa);
		return NULL;
	}
	return h;
}

/* The smallest length of each MADT entry type read here (ACPI 6.5
 * 5.2.12.2, .3, .8, .12); a shorter one is skipped. */
static u8 madt_entry_min(u8 type)
{
	switch (type) {
	case 0: return 8;
	case 1: return 12;
	case 5: return 12;
	case 9: return 16;
	default: return 2;
	}
}

static void parse_madt(const struct sdt_header *h)
{
	const u8 *p = (const u8 *)h + sizeof(*h);
	const u8 *end = (const u8 *)h + h->length;
	if (end - p < 8) {
		madt.skipped++; /* no room for the LAPIC address and flags */
		return;
	}
	madt.lapic_phys = get_unaligned_le32(p); /* Local Interrupt Controller Address */
	p += 8;                       /* ... and Flags */
	while (end - p >= 2 && p[1] >= 2 && p[1] <= end - p) {
		u8 type = p[0];
		u32 id = 0, flags = 0;
		bool cpu = false;
		if (p[1] < madt_entry_min(type)) {
			madt.skipped++;
			p += p[1];
			continue;
		}
		switch (type) {
		case 0: /* Processor Local APIC (5.2.12.2) */
			id = p[3];
			flags = get_unaligned_le32(p + 4);
			cpu = true;
			break;
		case 9: /* Processor Local x2APIC (5.2.12.12) */
			id = get_unaligned_le32(p + 4);
			flags = get_unaligned_le32(p + 8);
			cpu = true;
			break;
		case 1: /* I/O APIC (5.2.12.3) */
			if (madt.nioapics < MAX_IOAPICS) {
				madt.ioapics[madt.nioapics].id = p[2];
				madt.ioapics[madt.nioapics].phys = get_unaligned_le32(p + 4);
				madt.ioapics[madt.nioapics].gsi_base = get_unaligned_le32(p + 8);
				madt.nioapics++;
			}
			break;
		case 5: /* Local APIC Address Override (5.2.12.8) */
			madt.lapic_phys = get_unaligned_le64(p + 4);
			break;
		}
		if (cpu) {
			/* Flags bit 0: enabled; bit 1: online capable. */
			bool dup = false;
			for (u32 i = 0; i < madt.ncpus; i++)
				dup |= madt.apic_ids[i] == id;
			if (!(flags & 1) || dup || madt.ncpus == MAX_CPUS)
				madt.skipped++;
			else
				madt.apic_ids[madt.ncpus++] = id;
		}
		p += p[1];
	}
}

/* FADT fields (ACPI 6.5 5.2.9, Table 5.9): byte offsets. */
#define FADT_DSDT 40
#define FADT_SMI_CMD 48
#define FADT_ACPI_ENABLE 52
#define FADT_PM1A_CNT_BLK 64
#define FADT_PM1B_CNT_BLK 68
#define FADT_FLAGS 112
#define FADT_X_DSDT 140
#define FADT_X_PM1A_CNT_BLK 172    /* Generic Address Structures (5.2.3.2) */
#define FADT_X_PM1B_CNT_BLK 184
#define FADT_HW_REDUCED_ACPI (1u << 20)
#define GAS_SYSTEM_IO 1

/* A PM1 control block's I/O port: the 32-bit field, else the extended
 * one if it is in system I/O space; 0 if neither fits a port. */
static u16 pm1_port(const u8 *f, u32 len, u32 off, u32 xoff)
{
	u32 port = get_unaligned_le32(f + off);
	if (!port && len >= xoff + 12 && f[xoff] == GAS_SYSTEM_IO &&
	    get_unaligned_le64(f + xoff + 4) <= 0xFFFF)
		port = (u32)get_unaligned_le64(f + xoff + 4);
	return port <= 0xFFFF ? (u16)port : 0;
}

static void parse_fadt(const struct sdt_header *h)
{
	const u8 *f = (const u8 *)h;
	u32 len = h->length;
	if (len < FADT_PM1B_CNT_BLK + 4) {
		acpi_pm.why = "the FADT is too short for its PM1 control blocks";
		return;
	}
	if (len >= FADT_FLAGS + 4 && (get_unaligned_le32(f + FADT_FLAGS) & FADT_HW_REDUCED_ACPI)) {
		acpi_pm.why = "hardware-reduced ACPI (SLEEP_CONTROL_REG): not supported";
		return;
	}
	acpi_pm.pm1a_cnt = pm1_port(f, len, FADT_PM1A_CNT_BLK, FADT_X_PM1A_CNT_BLK);
	acpi_pm.pm1b_cnt = pm1_port(f, len, FADT_PM1B_CNT_BLK, FADT_X_PM1B_CNT_BLK);
	u32 smi = get_unaligned_le32(f + FADT_SMI_CMD);
	acpi_pm.smi_cmd = smi <= 0xFFFF ? (u16)smi : 0;
	acpi_pm.acpi_enable = f[FADT_ACPI_ENABLE];
	if (!acpi_pm.pm1a_cnt) {
		acpi_pm.why = "the FADT gives no PM1a control block in I/O space";
		return;
	}
	/* X_DSDT, when present, takes precedence over DSDT (5.2.9). */
	u64 dsdt = get_unaligned_le32(f + FADT_DSDT);
	if (len >= FADT_X_DSDT + 8 && get_unaligned_le64(f + FADT_X_DSDT))
		dsdt = get_unaligned_le64(f + FADT_X_DSDT);
	const struct sdt_header *d = dsdt ? map_table(dsdt, "DSDT") : NULL;
	if (!d || memcmp(d->sig, "DSDT", 4)) {
		acpi_pm.why = "no valid DSDT";
		return;
	}
	acpi_pm.s5_valid = aml_find_s5((const u8 *)d + sizeof(*d), d->length - sizeof(*d),
				       &acpi_pm.slp_typa, &acpi_pm.slp_typb, &acpi_pm.why);
}

bool acpi_init(void)
{
	if (!boot_info.rsdp_len) {
		acpi_pm.why = "the boot loader found no ACPI RSDP";
		pr_warn("acpi: the boot loader found no ACPI RSDP (ACPI off?): booting on one CPU\n");
		return false;
	}
	const struct rsdp *r = (const void *)boot_info.rsdp;
	if (memcmp(r->sig, "RSD PTR ", 8) || !checksum_ok(r, 20)) {
		pr_warn("acpi: the RSDP is invalid (signature or checksum): booting on one CPU\n");
		return false;
	}
	bool xsdt = r->revision >= 2 && boot_info.rsdp_len >= 36 && r->xsdt;
	if (xsdt && !checksum_ok(r, 36)) {
		pr_warn("acpi: the RSDP's extended checksum is wrong; using the RSDT\n");
		xsdt = false;
	}
	const struct sdt_header *root = map_table(xsdt ? r->xsdt : r->rsdt, xsdt ? "XSDT" : "RSDT");
	if (!root) {
		pr_warn("acpi: no valid root table: booting on one CPU\n");
		return false;
	}
	size_t entry = xsdt ? 8 : 4;
	size_t n = (root->length - sizeof(*root)) / entry;
	const u8 *ents = (const u8 *)root + sizeof(*root);
	bool seen_madt = false, seen_fadt = false;
	for (size_t i = 0; i < n; i++) {
		u64 pa = 0;
		memcpy(&pa, ents + i * entry, entry);
		const struct sdt_header *h = acpi_map(pa, sizeof(*h));
		if (!memcmp(h->sig, "APIC", 4) && !seen_madt) {
			seen_madt = true;
			h = map_table(pa, "MADT");
			if (h) {
				parse_madt(h);
				madt.valid = madt.ncpus > 0;
			}
		} else if (!memcmp(h->sig, "FACP", 4) && !seen_fadt) {
			seen_fadt = true;
			h = map_table(pa, "FADT");
			if (h)
				parse_fadt(h);
			else
				acpi_pm.why = "the FADT is invalid";
		}
	}
	if (!madt.valid) {
		pr_warn("acpi: no valid MADT with an enabled processor: booting on one CPU\n");
		return false;
	}
	pr_info("acpi: %s rev %u, MADT: %u CPUs, %u IOAPICs, LAPIC at %#llx%s\n",
		xsdt ? "XSDT" : "RSDT", r->revision, madt.ncpus, madt.nioapics,
		(unsigned long long)madt.lapic_phys, madt.skipped ? " (some entries skipped)" : "");
	if (!acpi_pm.s5_valid)
		pr_warn("acpi: no S5 power-off: %s\n", acpi_pm.why);
	return true;
}
