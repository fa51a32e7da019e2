/* CPU exceptions (vectors 0-31): a readable oops for every one, then a
 * panic, unless the exception test suite armed a fault catcher. Names and
 * error-code meanings: SDM Vol. 3A 7.15 "Exception and Interrupt
 * Reference" and 5.7 (page-fault error code, Figure 5-12). */
#include "arch/x86_64/traps.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fault_catch.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/mm.h"

static const char *const names[32] = {
	"divide error", "debug", "non-maskable interrupt", "breakpoint",
	"overflow", "bound range exceeded", "invalid opcode",
	"device not available", "double fault", "coprocessor segment overrun",
	"invalid TSS", "segment not present", "stack-segment fault",
	"general protection fault", "page fault", "reserved (15)",
	"x87 floating-point error", "alignment check", "machine check",
	"SIMD floating-point exception", "virtualization exception",
	"control protection exception", "reserved (22)", "reserved (23)",
	"reserved (24)", "reserved (25)", "reserved (26)", "reserved (27)",
	"hypervisor injection", "VMM communication", "security exception",
	"reserved (31)",
};
static const char *const mnemonics[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO",
	"#TS", "#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM",
	"#VE", "#CP", "#22", "#23", "#24", "#25", "#26", "#27", "#HV", "#VC",
	"#SX", "#31",
};

const char *exception_name(int v)
{
	return v >= 0 && v < 32 ? names[v] : "interrupt";
}
const char *exception_mnemonic(int v)
{
	return v >= 0 && v < 32 ? mnemonics[v] : "IRQ";
}

static void describe_pf(u64 err, u64 cr2)
{
	/* Figure 5-12: P (bit 0), W/R (1), U/S (2), RSVD (3), I/D (4). */
	printk(KERN_EMERG "#PF: %s %s at %016llx: %s%s\n",
	       err & 0x10 ? "instruction fetch" : "data",
	       err & 0x2 ? "write" : "read", (unsigned long long)cr2,
	       err & 0x1 ? "protection violation" : "page not present",
	       err & 0x8 ? ", reserved bit set" : "");
	const char *what = mm_describe_address(cr2);
	if (what)
		printk(KERN_EMERG "#PF: address is in %s\n", what);
}

void do_exception(struct pt_regs *regs)
{
	int v = (int)regs->vector;
	u64 cr2 = read_cr2();
	struct fault_catcher *c = NULL;
	if (percpu_area[0].self)
		c = this_cpu_read(fault_catcher);
	/* An NMI during a panic is the panicking CPU stopping this one. */
	if (v == 2 && panic_in_progress()) {
		for (;;)
			halt();
	}

	printk(KERN_EMERG "Oops: %s %s (vector %d) error code 0x%llx%s\n",
	       mnemonics[v], names[v], v, (unsigned long long)regs->error_code,
	       c ? " [caught by test]" : "");
	if (v == 14)
		describe_pf(regs->error_code, cr2);
	if (v == 8) {
		/* #DF after a #PF that could not push its frame: the classic
		 * kernel stack overflow into the guard page. */
		const char *what = mm_describe_address(cr2);
		if (what)
			printk(KERN_EMERG "#DF: CR2 %016llx is in %s: kernel stack overflow?\n",
			       (unsigned long long)cr2, what);
	}
	dump_context();
	dump_regs(regs);
	dump_backtrace(regs->rip, regs->rbp);
	printk(KERN_EMERG "---[ end Oops ]---\n");

	if (c) {
		c->vector = v;
		c->error_code = regs->error_code;
		c->cr2 = cr2;
		c->rip = regs->rip;
		c->rsp = regs->rsp;
		c->caught = true;
		regs->rip = (u64)fault_catch_resume;
		regs->rsp = c->saved_rsp;
		regs->rdi = (u64)c;
		return;
	}
	panic("fatal exception: %s %s at %016llx", mnemonics[v], names[v],
	      (unsigned long long)regs->rip);
}
