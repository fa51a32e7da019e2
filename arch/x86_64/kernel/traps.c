/* CPU exceptions (vectors 0-31): a readable oops for every one, then a
 * panic, unless the exception test suite armed a fault catcher. Names and
 * error-code meanings: SDM Vol. 3A 7.15 "Exception and Interrupt
 * Reference" and 5.7 (page-fault error code, Figure 5-12). */
#include "arch/x86_64/kernel/traps.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mm/fault_catch.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "mm/mm.h"
#include "process/process.h"
#include "sched/sched.h"
#include "kernel/entry/common.h"
#include "arch/x86_64/mm/extable.h"
#include "arch/x86_64/kernel/nmi.h"
#include "uapi/syscall.h"
#include "uapi/layout.h"

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

/* The signal a user-mode exception gets (Linux's choices, arch/x86/
 * kernel/traps.c): all of them kill the process in fold. */
static int exception_signal(int v)
{
	switch (v) {
	case 0: case 16: case 19: return SIGFPE;   /* #DE #MF #XM */
	case 1: case 3: return SIGTRAP;            /* #DB #BP */
	case 6: return SIGILL;                     /* #UD */
	case 17: return SIGBUS;                    /* #AC */
	default: return SIGSEGV;                   /* #PF #GP #SS #NP ... */
	}
}

/* A fault in ring 3: one line in Linux's style (the #PF one is
 * show_signal_msg's, the others do_trap's), then the process dies on its
 * way back to user mode. The kernel goes on. */
static void user_fault(struct pt_regs *regs, int v, u64 cr2)
{
	struct process *p = current_process();
	const char *name = p ? p->name : current_thread()->name;
	int pid = p ? p->pid : (int)current_thread()->id;
	this_cpu_stat_inc(user_faults);
	if (v == 14)
		printk(KERN_ERR "%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx\n",
		       name, pid, (unsigned long long)cr2, (unsigned long long)regs->rip,
		       (unsigned long long)regs->rsp, (unsigned long long)regs->error_code);
	else
		printk(KERN_ERR "traps: %s[%d] trap %s ip:%llx sp:%llx error:%llx\n", name, pid,
		       names[v], (unsigned long long)regs->rip, (unsigned long long)regs->rsp,
		       (unsigned long long)regs->error_code);
	if (!p)
		panic("user-mode exception in kernel thread %s", name);
	force_sig(exception_signal(v));
}

/* The IRETQ back to ring 3 faulted (entry.asm's native_irq_return_user_iret;
 * SDM Vol. 2A IRET: a non-canonical RIP is a #GP in 64-bit mode, raised
 * before the return, in ring 0). The frame it was returning is at
 * regs->rsp: the fault belongs to the process, which cannot return. */
static __noreturn void bad_iret(struct pt_regs *regs)
{
	const u64 *frame = (const u64 *)regs->rsp; /* RIP, CS, RFLAGS, RSP, SS */
	struct process *p = current_process();
	printk(KERN_ERR "traps: %s[%d] %s returning to ip:%llx sp:%llx (iretq refused the frame)\n",
	       p ? p->name : "?", p ? p->pid : -1, names[regs->vector],
	       (unsigned long long)frame[0], (unsigned long long)frame[3]);
	this_cpu_stat_inc(user_faults);
	if (!p)
		panic("bad iretq frame outside a process");
	local_irq_enable();
	do_exit(W_SIGNALED(SIGSEGV));
}

void do_exception(struct pt_regs *regs)
{
	int v = (int)regs->vector;
	u64 cr2 = read_cr2();
	struct fault_catcher *c = NULL;
	if (v == 2) {
		do_nmi(regs);
		return;
	}
	if (user_mode(regs)) {
		user_fault(regs, v, cr2);
		return;
	}
	/* A user access that faulted: the exception table says where its
	 * -EFAULT is (mm/uaccess.h). No oops: it is the user's error. */
	if (fixup_exception(regs))
		return;
	if (regs->rip == (u64)native_irq_return_user_iret)
		bad_iret(regs);
	if (percpu_area[0].self)
		c = this_cpu_read(fault_catcher);

	printk(KERN_EMERG "Oops: %s %s (vector %d) error code 0x%llx%s\n",
	       mnemonics[v], names[v], v, (unsigned long long)regs->error_code,
	       c ? " [caught by test]" : "");
	if (v == 14)
		describe_pf(regs->error_code, cr2);
	if (v == 14 && cr2 < USER_TOP && (regs->error_code & 1) && !(regs->rflags & X86_EFLAGS_AC))
		printk(KERN_EMERG "#PF: a kernel access to a user page outside STAC/CLAC (SMAP)\n");
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
