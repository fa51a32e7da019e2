#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/debug/ksyms.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "mm/mm.h"
#include "kernel/smp.h"
#include "kernel/debug/nmi_backtrace.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "sched/thread.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kernel/acpi/acpi_poweroff.h"
#include "lib/format.h"

volatile u64 bug_reports;
static volatile int panicking = -1;

__noreturn void qemu_exit(int code)
{
	/* isa-debug-exit at 0xf4 (QEMU -device isa-debug-exit): QEMU exits
	 * with (value << 1) | 1 inside this instruction. Without the device
	 * (Bochs, real hardware) the write is ignored and we get past it:
	 * power off through ACPI, and if that fails too, say so and halt. */
	outl(0xF4, (u32)code);
	printk(KERN_EMERG "fold: no isa-debug-exit at port 0xf4 (exit code %d): powering off through ACPI\n",
	       code);
	acpi_power_off();
	printk(KERN_EMERG "fold: could not power off; halting\n");
	for (;;) {
		local_irq_disable();
		halt();
	}
}

static bool frame_ok(u64 rbp, u64 prev)
{
	return rbp && !(rbp & 7) && rbp > prev && virt_is_mapped(rbp) &&
	       virt_is_mapped(rbp + 15);
}

/* An odd rbp is an interrupt or exception entry's struct pt_regs plus 1
 * (arch/x86_64/entry/entry.asm, Linux's ENCODE_FRAME_POINTER): the
 * interrupted code's rip and rbp are there. */
void dump_backtrace(u64 rip, u64 rbp)
{
	char sym[128];
	printk(KERN_EMERG "Call Trace:\n");
	if (rip) {
		ksym_format(sym, sizeof(sym), rip);
		printk(KERN_EMERG " [<%016llx>] %s\n", (unsigned long long)rip, sym);
	}
	u64 prev = 0;
	for (int depth = 0; depth < 32; depth++) {
		const struct pt_regs *regs = (const struct pt_regs *)(rbp - 1);
		bool entry = rbp & 1;
		u64 at = entry ? rbp - 1 : rbp;
		if (!frame_ok(at, prev) || (entry && !virt_is_mapped(at + sizeof(*regs) - 1)))
			break;
		u64 ret = entry ? regs->rip : ((u64 *)rbp)[1];
		if (!ret)
			break;
		ksym_format(sym, sizeof(sym), ret);
		printk(KERN_EMERG " [<%016llx>] %s\n", (unsigned long long)ret, sym);
		prev = at;
		rbp = entry ? regs->rbp : ((u64 *)rbp)[0];
	}
}

void dump_stack(void)
{
	dump_backtrace(0, read_rbp());
}

void dump_context(void)
{
	char cnt[128];
	u32 cpu = percpu_area[0].self ? raw_smp_processor_id() : 0;
	struct thread *t = percpu_area[0].self ? this_cpu_read(current) : NULL;
	preempt_count_describe(cnt, sizeof(cnt), percpu_area[0].self ? preempt_count_raw() : 0,
			       t ? t->flags : 0);
	printk(KERN_EMERG "CPU: %u Thread: %u (%s) %s\n", cpu, t ? t->id : 0,
	       t ? t->name : "-", cnt);
}

void dump_regs(const struct pt_regs *r)
{
	char sym[128];
	ksym_format(sym, sizeof(sym), r->rip);
	printk(KERN_EMERG "RIP: %04llx:%016llx %s\n", (unsigned long long)r->cs,
	       (unsigned long long)r->rip, sym);
	printk(KERN_EMERG "RSP: %04llx:%016llx RFLAGS: %08llx\n",
	       (unsigned long long)r->ss, (unsigned long long)r->rsp,
	       (unsigned long long)r->rflags);
#define R(a, b, c)                                                                  \
	printk(KERN_EMERG "%-3s: %016llx %-3s: %016llx %-3s: %016llx\n", #a,        \
	       (unsigned long long)r->a, #b, (unsigned long long)r->b, #c,           \
	       (unsigned long long)r->c)
	R(rax, rbx, rcx);
	R(rdx, rsi, rdi);
	R(rbp, r8, r9);
	R(r10, r11, r12);
	R(r13, r14, r15);
#undef R
	printk(KERN_EMERG "CR0: %016llx CR2: %016llx CR3: %016llx CR4: %016llx\n",
	       (unsigned long long)read_cr0(), (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

bool panic_in_progress(void)
{
	return READ_ONCE(panicking) != -1;
}

void report_bug(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&bug_reports, 1, __ATOMIC_RELAXED);
	printk(KERN_ERR "BUG: %s\n", msg);
	dump_context();
	dump_stack();
}

__noreturn void panic(const char *fmt, ...)
{
	char msg[256];
	local_irq_disable();
	u32 cpu = percpu_area[0].self ? raw_smp_processor_id() : 0;
	int expected = -1;
	if (!__atomic_compare_exchange_n(&panicking, &expected, (int)cpu, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		/* Another CPU is already panicking (or this one recursed):
		 * stay out of its way. */
		if (expected == (int)cpu)
			qemu_exit(EXIT_PANIC);
		for (;;)
			halt();
	}
	oops_in_progress = 1;
	printk_capture_stop(); /* a test's quiet capture must not hide a panic */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	console_loglevel = 7;
	printk(KERN_EMERG "PANIC: %s\n", msg);
	dump_context();
	dump_stack();
	/* The other CPUs: each prints its backtrace in the NMI that stops it
	 * (arch/x86_64/kernel/nmi.c), as Linux's panic does with
	 * trigger_all_cpu_backtrace(); bounded, a CPU may not answer. */
	nmi_backtrace_request_others();
	smp_send_stop();
	nmi_backtrace_wait_others();
	printk(KERN_EMERG "---[ end PANIC: %s ]---\n", msg);
	qemu_exit(EXIT_PANIC);
}
