/* SMEP and SMAP (SDM Vol. 3A 2.5 CR4 and 5.6.1): with CR4.SMEP the kernel
 * cannot execute from a user page; with CR4.SMAP it cannot read or write
 * one unless EFLAGS.AC is set (STAC ... CLAC, arch/x86_64/mm/uaccess.h). CPUID
 * leaf 7, subleaf 0, EBX bit 7 (SMEP) and bit 20 (SMAP) say whether the
 * CPU has them (SDM Vol. 2A CPUID); QEMU's default qemu64 CPU has neither,
 * `-cpu max` has both. Set on every CPU; the flags are the boot CPU's.
 *
 * nosmap and nosmep on the command line leave them off, as Linux's boot
 * parameters of those names do (Documentation/admin-guide/
 * kernel-parameters.txt): for a hypervisor that reports SMAP but cannot
 * run CLAC and STAC (a KVM that emulates the guest kernel's privileged
 * instructions, such as PVM, docs/09-booting.md), and to measure what
 * the two cost. */
#include "arch/x86_64/mm/uaccess.h"
#include "arch/x86_64/cpu.h"
#include "kernel/cmdline.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

bool smap_enabled, smep_enabled;
static bool nosmap, nosmep;

static int set_nosmap(const char *v) { return cmdline_flag(v, &nosmap); }
static int set_nosmep(const char *v) { return cmdline_flag(v, &nosmep); }
early_param(nosmap, set_nosmap, nosmap, "nothing, on or off", "off");
early_param(nosmep, set_nosmep, nosmep, "nothing, on or off", "off");

/* What the boot line says of one feature. */
static const char *state(bool on, bool has, const char *param)
{
	if (on)
		return "on";
	return has ? param : "off (not in this CPU)";
}

void cpu_init_smap_smep(void)
{
	u32 a, b, c, d, max;
	cpuid(0, &max, &b, &c, &d);
	if (max < 7)
		return;
	cpuid_count(7, 0, &a, &b, &c, &d);
	bool has_smep = b & (1u << 7), has_smap = b & (1u << 20);
	u64 cr4 = read_cr4();
	if (has_smep && !nosmep)
		cr4 |= X86_CR4_SMEP;
	if (has_smap && !nosmap)
		cr4 |= X86_CR4_SMAP;
	write_cr4(cr4);
	if (raw_smp_processor_id() == 0) {
		smep_enabled = (cr4 & X86_CR4_SMEP) != 0;
		smap_enabled = (cr4 & X86_CR4_SMAP) != 0;
		pr_info("cpu: SMEP %s, SMAP %s\n", state(smep_enabled, has_smep, "off (nosmep)"),
			state(smap_enabled, has_smap, "off (nosmap)"));
	}
}
