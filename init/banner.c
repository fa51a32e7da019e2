/* The boot banner: what is running, on what, with how much memory and
 * which command line. */
#include "init/banner.h"
#include "init/version.h"
#include "kernel/printk.h"
#include "boot/multiboot.h"
#include "kernel/time/time.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"
#include "kernel/debug/checks.h"

static void cpu_brand(char *vendor, char *brand)
{
	u32 a, b, c, d, max;
	cpuid(0, &max, &b, &c, &d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	brand[0] = 0;
	cpuid(0x80000000, &max, &b, &c, &d);
	if (max >= 0x80000004) {
		u32 *w = (u32 *)brand;
		for (u32 leaf = 0; leaf < 3; leaf++)
			cpuid(0x80000002 + leaf, &w[leaf * 4], &w[leaf * 4 + 1],
			      &w[leaf * 4 + 2], &w[leaf * 4 + 3]);
		brand[48] = 0;
	}
	cpuid(1, &a, &b, &c, &d);
	if (!brand[0])
		strlcpy(brand, "unknown model", 49);
}

void print_banner(void)
{
	char vendor[13], brand[49];
	u64 usable = 0, top = 0;
	cpu_brand(vendor, brand);
	for (u32 i = 0; i < boot_info.mmap_count; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		if (m->type == MB_MEM_AVAILABLE) {
			usable += m->len;
			if (m->base + m->len > top)
				top = m->base + m->len;
		}
	}
	const char *b = brand;
	while (*b == ' ')
		b++;
	/* A release build says so (make RELEASE=1, kernel/debug/checks.h);
	 * the debug build, the default, says nothing more, and its boot runs
	 * the very instructions it ran before there was a release build (the
	 * docs' icount excerpts are that exact). */
	if (DEBUG_CHECKS)
		printk(KERN_NOTICE "fold %s: a teaching kernel for preemption (count model %s, default preemption %s)\n",
		       FOLD_VERSION, preempt_model_name(), PREEMPT_MODE_DEFAULT_NAME);
	else
		printk(KERN_NOTICE "fold %s: a teaching kernel for preemption (count model %s, default preemption %s, release build)\n",
		       FOLD_VERSION, preempt_model_name(), PREEMPT_MODE_DEFAULT_NAME);
	printk(KERN_NOTICE "cpu: %s %s, TSC %llu.%03llu MHz (%s)\n", vendor, b,
	       (unsigned long long)(tsc_hz / 1000000), (unsigned long long)(tsc_hz / 1000 % 1000),
	       tsc_source);
	printk(KERN_NOTICE "memory: %llu MiB usable, highest address %#llx\n",
	       (unsigned long long)(usable >> 20), (unsigned long long)top);
	for (u32 i = 0; i < boot_info.mmap_count; i++) {
		struct mb_mmap_entry *m = &boot_info.mmap[i];
		pr_info("  [mem 0x%012llx-0x%012llx] %s\n", (unsigned long long)m->base,
			(unsigned long long)(m->base + m->len - 1), mb_mem_type_name(m->type));
	}
	printk(KERN_NOTICE "boot loader: %s\n", boot_info.loader[0] ? boot_info.loader : "unknown");
	printk(KERN_NOTICE "command line: %s\n", boot_info.cmdline[0] ? boot_info.cmdline : "(empty)");
}
