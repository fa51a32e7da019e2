/* SMEP and SMAP (SDM Vol. 3A 2.5 CR4 and 5.6.1): with CR4.SMEP the kernel
 * cannot execute from a user page; with CR4.SMAP it cannot read or write
 * one unless EFLAGS.AC is set (STAC ... CLAC, arch/x86_64/mm/uaccess.h). CPUID
 * leaf 7, subleaf 0, EBX bit 7 (SMEP) and bit 20 (SMAP) say whether the
 * CPU has them (SDM Vol. 2A CPUID); QEMU's default qemu64 CPU has neither,
 * `-cpu max` has both. Set on every CPU; the flags are the boot CPU's. */
#include "arch/x86_64/mm/uaccess.h"
#include "arch/x86_64/cpu.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"

bool smap_enabled, smep_enabled;

void cpu_init_smap_smep(void)
{
	u32 a, b, c, d, max;
	cpuid(0, &max, &b, &c, &d);
	if (max < 7)
		return;
	cpuid_count(7, 0, &a, &b, &c, &d);
	u64 cr4 = read_cr4();
	if (b & (1u << 7))
		cr4 |= X86_CR4_SMEP;
	if (b & (1u << 20))
		cr4 |= X86_CR4_SMAP;
	write_cr4(cr4);
	if (raw_smp_processor_id() == 0) {
		smep_enabled = (cr4 & X86_CR4_SMEP) != 0;
		smap_enabled = (cr4 & X86_CR4_SMAP) != 0;
		pr_info("cpu: SMEP %s, SMAP %s\n", smep_enabled ? "on" : "off (not in this CPU)",
			smap_enabled ? "on" : "off (not in this CPU)");
	}
}
