/* Bringing up the application processors with the INIT-SIPI-SIPI
 * sequence: INIT, wait 10 ms, STARTUP, wait 200 us, STARTUP again if the
 * AP has not answered (Intel MP spec 1.4, B.4 "Application Processor
 * Startup"; SDM Vol. 3A 9.4.4.1 "Typical BSP Initialization Sequence").
 * Every AP gets that timing, but the 10 ms after INIT is waited once for
 * all of them: the BSP INITs every AP it will start, waits 10 ms, then
 * sends each its STARTUPs in turn (the SDM's own sequence broadcasts the
 * INIT to all APs at once). One at a time from there, since they share
 * one trampoline (its stack and CPU number slots), but an AP's start-up
 * takes microseconds: 31 serial 10 ms waits were most of a 32-CPU boot,
 * and under -icount each polled nanosecond costs a round of every vCPU
 * (QEMU moves on to the next vCPU at `pause`). Linux since 6.5 goes
 * further and lets the APs run their start-up code in parallel (commit
 * "x86/smpboot: Support parallel startup of secondary CPUs"), each AP
 * finding its stack from its APIC ID; fold's trampoline has one slot.
 * A CPU that never reports in gets a message and is skipped; a bring-up
 * of more than SMP_PROGRESS_EVERY CPUs says how far it has got. */
#include "arch/x86_64/entry/syscall.h"
#include "arch/x86_64/mm/uaccess.h"
#include "arch/x86_64/kernel/smpboot.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/kernel/timer.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/entry/idt.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "mm/mm.h"
#include "kernel/time/time.h"
#include "kernel/cmdline.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/watchdog.h"
#include "sched/sched.h"
#include "lib/string.h"
#include "boot/multiboot.h"

/* Where the AP trampoline goes: 0x8000 when the memory map says that page
 * is free RAM (as under a BIOS), else the lowest page it says is
 * (mb_low_page(): under UEFI nothing below 1 MiB is promised free). */
#define TRAMPOLINE_PREFERRED 0x8000UL
static u64 trampoline_phys;
#define TRAMPOLINE_PHYS trampoline_phys
#define AP_TIMEOUT_MS 500

extern const u8 trampoline_start[], trampoline_end[];
extern const u8 tr_cr3[], tr_efer[], tr_stack[], tr_entry[], tr_cpu[];

static void ap_main(u32 cpu);
static volatile u32 ap_alive;

static void tr_set(const u8 *field, u64 v, size_t size)
{
	u8 *dst = (u8 *)phys_to_virt(TRAMPOLINE_PHYS) + (field - trampoline_start);
	memcpy(dst, &v, size);
}

static void wait_ns(u64 ns)
{
	ndelay_spin(ns);
}

static bool wait_alive(u32 cpu, u64 timeout_ns)
{
	u64 end = ktime_get_ns() + timeout_ns;
	while (ktime_get_ns() < end) {
		if (READ_ONCE(ap_alive) == cpu)
			return true;
		cpu_relax();
	}
	return READ_ONCE(ap_alive) == cpu;
}

#define SMP_PROGRESS_EVERY 8

/* INIT (level assert): the AP resets and waits for a STARTUP. */
static void send_init(u32 apic_id)
{
	apic->send_ipi(apic_id, ICR_INIT | ICR_LEVEL_ASSERT);
}

/* STARTUP to an AP INITed at least 10 ms ago (MP spec B.4), twice. */
static bool start_ap(u32 cpu, u32 apic_id)
{
	u64 top = stack_alloc_boot("an AP's idle thread"); /* boot only */
	preempt_count_init_stack(top, PREEMPT_ENABLED + PREEMPT_DISABLE_OFFSET);
	tr_set(tr_stack, top, 8);
	tr_set(tr_cpu, cpu, 4);
	per_cpu(apic_id, cpu) = apic_id;
	sched_prepare_cpu(cpu);
	per_cpu(idle, cpu)->stack_top = top; /* the AP's start-up stack becomes its idle stack */

	for (int i = 0; i < 2; i++) {
		/* A second STARTUP to an AP the first one started is ignored:
		 * only an AP in wait-for-SIPI acts on it (SDM Vol. 3A 9.4.4.1). */
		apic->send_ipi(apic_id, ICR_STARTUP | (TRAMPOLINE_PHYS >> 12));
		if (wait_alive(cpu, 200 * NSEC_PER_USEC))
			return true;
	}
	return wait_alive(cpu, AP_TIMEOUT_MS * NSEC_PER_MSEC);
}

u32 setup_max_cpus;

static int set_maxcpus(const char *v)
{
	return cmdline_u32(v, &setup_max_cpus, 1, 64);
}
early_param(maxcpus, set_maxcpus, setup_max_cpus, "a CPU count from 1 to 64", "all");

static u32 start_aps(void)
{
	u32 bsp_id = apic->id();
	u32 want = madt.valid ? madt.ncpus : 1;
	if (setup_max_cpus && setup_max_cpus < want)
		want = setup_max_cpus;
	if (want <= 1)
		return 1;
	trampoline_phys = mb_low_page(TRAMPOLINE_PREFERRED);
	if (!trampoline_phys) {
		pr_err("smp: the memory map has no free page below 1 MiB for the AP trampoline; running on one CPU\n");
		return 1;
	}
	if (trampoline_phys != TRAMPOLINE_PREFERRED)
		pr_info("smp: AP trampoline at %#llx (%#lx is not free RAM in the memory map)\n",
			(unsigned long long)trampoline_phys, TRAMPOLINE_PREFERRED);

	/* The trampoline runs at its physical address with paging on for a
	 * few instructions: map that page 1:1 while APs start. */
	BUG_ON(kernel_cr3() >= (1UL << 32));
	size_t size = trampoline_end - trampoline_start;
	memcpy(phys_to_virt(TRAMPOLINE_PHYS), trampoline_start, size);
	map_page(TRAMPOLINE_PHYS, TRAMPOLINE_PHYS, PTE_W);
	tr_set(tr_cr3, kernel_cr3(), 8);
	tr_set(tr_efer, rdmsr(MSR_EFER), 8);
	tr_set(tr_entry, (u64)ap_main, 8);

	/* INIT the first want - 1 APs of the MADT, then one 10 ms wait. */
	u32 inited = 0;
	for (u32 i = 0; i < madt.ncpus && inited < want - 1; i++) {
		if (madt.apic_ids[i] == bsp_id)
			continue;
		send_init(madt.apic_ids[i]);
		inited++;
	}
	if (want > SMP_PROGRESS_EVERY)
		pr_info("smp: starting %u CPUs: INIT to %u APs, 10 ms, then STARTUP to each\n",
			want, inited);
	wait_ns(10 * NSEC_PER_MSEC);

	u32 cpu = 1, seen = 0;
	for (u32 i = 0; i < madt.ncpus && cpu < want; i++) {
		u32 id = madt.apic_ids[i];
		if (id == bsp_id)
			continue;
		if (seen++ >= inited) {
			/* past the INITed ones: an earlier AP failed */
			send_init(id);
			wait_ns(10 * NSEC_PER_MSEC);
		}
		if (start_ap(cpu, id)) {
			cpu++;
			if (want > SMP_PROGRESS_EVERY && cpu % SMP_PROGRESS_EVERY == 0 && cpu < want)
				pr_info("smp: %u of %u CPUs up\n", cpu, want);
		} else {
			pr_err("smp: CPU with APIC ID %u did not answer INIT-SIPI-SIPI within %d ms; continuing without it\n",
			       id, AP_TIMEOUT_MS);
		}
	}
	/* Done: remove the 1:1 mapping and poison the page with HLT, so a
	 * late AP halts instead of running stale code. */
	unmap_page(TRAMPOLINE_PHYS);
	memset(phys_to_virt(TRAMPOLINE_PHYS), 0xF4, PAGE_SIZE);
	return cpu;
}

/* An AP's first C code, on its own stack, with the kernel page tables. */
static void ap_main(u32 cpu)
{
	percpu_init_cpu(cpu, per_cpu(apic_id, cpu)); /* GS base first */
	sched_init_ap(cpu);                 /* `current` = this CPU's idle thread */
	vm_load();                          /* CR4.PGE, CR0.WP, CR3 */
	gdt_init_cpu(cpu);                  /* own GDT, TSS, IST stacks */
	syscall_init();                     /* the syscall MSRs are per CPU */
	cpu_init_smap_smep();
	idt_load();
	apic_init_cpu();
	u32 hw = apic->id(), cpuid_id = apic_cpuid_id();
	if (hw != per_cpu(apic_id, cpu) || cpuid_id != hw)
		panic("smp: CPU %u: APIC ID %u from the APIC, %u from CPUID, %u from the MADT",
		      cpu, hw, cpuid_id, per_cpu(apic_id, cpu));
	hrtimer_init_cpu();                 /* the tick on this CPU */
	watchdog_init_cpu();                /* its soft-lockup detector */
	set_cpu_online(cpu);
	WRITE_ONCE(ap_alive, cpu);          /* tell the boot CPU */
	cpu_idle();                         /* never returns */
}

void smp_boot_aps(void)
{
	nr_cpus_possible = start_aps();
	pr_info("smp: %u CPUs online (%s, timer %llu MHz, HZ %u)\n", nr_cpus_online, apic->name,
		(unsigned long long)(apic_timer_hz / 1000000), tick_hz);
}
