/* fold's boot outline: one commented call per step. boot/entry.asm gets
 * here in 64-bit mode, on the boot stack, with the early page tables. */
#include "init/main.h"
#include "init/version.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "boot/multiboot.h"
#include "drivers/fbcon.h"
#include "kernel/cmdline.h"
#include "mm/mm.h"
#include "boot/module.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "kernel/time/time.h"
#include "init/banner.h"
#include "kernel/locking/lockdep.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/kernel/serial.h"
#include "arch/x86_64/kernel/gdt.h"
#include "arch/x86_64/entry/idt.h"
#include "arch/x86_64/kernel/tsc.h"
#include "arch/x86_64/kernel/apic/pic.h"
#include "arch/x86_64/kernel/acpi/acpi.h"
#include "arch/x86_64/entry/irq.h"
#include "arch/x86_64/entry/switch.h"
#include "arch/x86_64/kernel/smpboot.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/watchdog.h"
#include "init/init.h"
#include "process/process.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/syscall.h"
#include "arch/x86_64/mm/uaccess.h"

static void kmain_on_stack(void *arg);

void kmain(u64 multiboot_info_phys)
{
	percpu_init_cpu(0, 0);             /* GS base first: printk and locks use %gs */
	this_cpu_write(current, &boot_thread); /* `current` for the boot CPU */
	serial_init();                     /* COM1, 115200 8N1 */
	idt_init();                        /* exceptions now give an oops ... */
	idt_load();                        /* ... on this CPU */
	pic_disable();                     /* the 8259s: remapped, all masked */
	tsc_init();                        /* TSC frequency: printk timestamps */
	multiboot_parse(multiboot_info_phys); /* memory map, command line, RSDP */
	cmdline_parse(boot_info.cmdline);  /* warnings for bad options */
	print_banner();                    /* version, CPU, memory, command line */
	lockdep_init();                    /* LOCKDEP=1: locks tracked from here on */
	frame_init();                      /* physical frames from the memory map */
	vm_init();                         /* kernel page tables: direct map, W^X */
	fbcon_init();                      /* the screen console, if GRUB set a mode */
	module_init();                     /* boot modules by name: the user programs */
	gdt_init_cpu(0);                   /* GDT + TSS with IST stacks */
	syscall_init();                    /* STAR, LSTAR, FMASK, EFER.SCE */
	cpu_init_smap_smep();              /* CR4.SMEP, CR4.SMAP where the CPU has them */
	u64 top = stack_alloc_boot("kmain"); /* a stack with a guard page ... */
	boot_thread.stack_top = top;
	preempt_count_init_stack(top, preempt_count_raw()); /* (ti: count on the stack) */
	switch_to_stack(kmain_on_stack, NULL, top); /* ... to finish booting on */
}

static void kmain_on_stack(void *arg)
{
	(void)arg;
	preempt_mode_init(preempt_mode_requested); /* PREEMPT_MODES (sched/preempt_mode.h) */
	smp_init();                        /* CALL_FUNCTION IPIs */
	sched_init();                      /* run queue 0, idle thread */
	acpi_init();                       /* MADT: which CPUs exist */
	init_IRQ();                        /* local APIC (xAPIC or x2APIC), IPI vectors */
	hrtimer_init_cpu();                /* LAPIC timer calibrated, the tick */
	watchdog_init_cpu();               /* the soft-lockup detector's timer */
	set_cpu_online(0);
	local_irq_enable();
	smp_boot_aps();                    /* INIT-SIPI-SIPI, one AP at a time */
	preempt_enable();                  /* boot is done with its own count */
	process_init();                    /* the spawn limits: threads-max, nproc */

	kernel_init_run();                 /* test=, autorun=, the benchmarks, the shell */
}
