/* fold's boot outline: one commented call per step. boot/entry.asm gets
 * here in 64-bit mode, on the boot stack, with the early page tables. */
#include "kernel/main.h"
#include "kernel/version.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/multiboot.h"
#include "kernel/cmdline.h"
#include "kernel/mm.h"
#include "kernel/panic.h"
#include "kernel/ktest.h"
#include "kernel/preempt.h"
#include "kernel/time.h"
#include "kernel/banner.h"
#include "sched/sched.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/serial.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/switch.h"
#include "arch/x86_64/smpboot.h"
#include "kernel/smp.h"
#include "kernel/hrtimer.h"
#include "kernel/shell.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

/* What `make run` shows when nothing else is asked for: well under a
 * minute of benchmarks under wall-clock TCG. */
#define DEFAULT_BENCH "cpus;bench preempt;bench latency loops=500;" \
	"bench latency loops=500 load=hog;bench throughput ops=50000 rounds=2000;stat"

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
	frame_init();                      /* physical frames from the memory map */
	vm_init();                         /* kernel page tables: direct map, W^X */
	gdt_init_cpu(0);                   /* GDT + TSS with IST stacks */
	u64 top = stack_alloc();           /* a stack with a guard page ... */
	boot_thread.stack_top = top;
	preempt_count_init_stack(top, preempt_count_raw()); /* (ti: count on the stack) */
	switch_to_stack(kmain_on_stack, NULL, top); /* ... to finish booting on */
}

static void kmain_on_stack(void *arg)
{
	(void)arg;
	preempt_mode_init(cmdline.preempt_mode); /* none, voluntary or full */
	smp_init();                        /* CALL_FUNCTION IPIs */
	sched_init();                      /* run queue 0, idle thread */
	acpi_init();                       /* MADT: which CPUs exist */
	init_IRQ();                        /* local APIC (xAPIC or x2APIC), IPI vectors */
	hrtimer_init_cpu();                /* LAPIC timer calibrated, the tick */
	set_cpu_online(0);
	local_irq_enable();
	smp_boot_aps();                    /* INIT-SIPI-SIPI, one AP at a time */
	pr_info("preempt: count model %s, mode %s\n", preempt_model_name(),
		preempt_mode_name(preempt_mode));
	preempt_enable();                  /* boot is done with its own count */

	if (!strcmp(cmdline.test, "panic"))
		panic("test=panic: a deliberate panic, to show what one looks like");
	if (cmdline.test[0]) {             /* test=...: run suites, then exit */
		int failed = ktest_run(cmdline.test);
		qemu_exit(failed == 0 ? EXIT_PASS : EXIT_FAIL);
	}
	if (cmdline.autorun[0])            /* autorun=CMD;CMD: the shell, scripted */
		shell_exec_list(cmdline.autorun);
	else if (cmdline.bench)            /* the default benchmark set */
		shell_exec_list(DEFAULT_BENCH);
	if (cmdline.shell)                 /* at a terminal: the prompt */
		shell_interactive();
	pr_info("fold: done; powering off (shell=on gives a prompt instead)\n");
	qemu_exit(ktest_failures ? EXIT_FAIL : EXIT_PASS); /* tests run from the shell count */
}
