/* kernel/debug/nmi_backtrace.h. One bit per CPU in `pending`: the asking CPU
 * sets the bits, sends the NMIs and waits for the bits to clear; each
 * asked CPU prints its registers and call trace from the frame the NMI
 * interrupted and clears its bit. One request at a time (`busy`): a
 * second `bt all` while one runs waits its turn, bounded.
 *
 * printk in NMI context: the console lock may be held by the very code the
 * NMI interrupted, so printk waits for it only a bounded time there
 * (kernel/printk.c); a line may then interleave with another, but it comes
 * out. The NMI path reads no preempt count: the handler runs on an IST
 * stack, where the ti model would look for it in the wrong place. */
#include "kernel/debug/nmi_backtrace.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "kernel/preempt.h"
#include "kernel/debug/ksyms.h"
#include "process/process.h"
#include "kernel/entry/common.h"
#include "arch/x86_64/kernel/nmi.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/cpu.h"
#include "sched/sched.h"

static volatile u64 pending;   /* CPUs asked and not yet answered */
static volatile int busy;      /* a request is in progress */

static void print_cpu(u32 cpu, const struct pt_regs *regs)
{
	struct thread *t = this_cpu_read(current);
	printk(KERN_EMERG "NMI backtrace for cpu %u: thread %u (%s) flags 0x%llx\n", cpu,
	       t ? t->id : 0, t ? t->name : "-", t ? (unsigned long long)t->flags : 0ULL);
	if (user_mode(regs)) {
		printk(KERN_EMERG " in user mode at %04llx:%016llx sp %016llx (pid %d)\n",
		       (unsigned long long)regs->cs, (unsigned long long)regs->rip,
		       (unsigned long long)regs->rsp, t && t->proc ? t->proc->pid : -1);
		return;
	}
	dump_regs(regs);
	dump_backtrace(regs->rip, regs->rbp);
}

bool nmi_cpu_backtrace(struct pt_regs *regs)
{
	u32 cpu = raw_smp_processor_id();
	u64 bit = 1UL << cpu;
	if (!(READ_ONCE(pending) & bit))
		return false;
	print_cpu(cpu, regs);
	__atomic_fetch_and(&pending, ~bit, __ATOMIC_RELEASE);
	return true;
}

/* Bits set in a mask (Linux's hweight64; no popcnt: the kernel is built
 * for the baseline x86-64 ISA). */
static u32 hweight64(u64 w)
{
	u32 n = 0;
	for (; w; w &= w - 1)
		n++;
	return n;
}

static u64 others_online(void)
{
	u64 mask = 0;
	u32 self = raw_smp_processor_id();
	for_each_online_cpu(c)
		if (c != self)
			mask |= 1UL << c;
	return mask;
}

u32 nmi_backtrace_wait_ms(void)
{
	return clock_icount ? NMI_BACKTRACE_WAIT_ICOUNT_MS : NMI_BACKTRACE_WAIT_MS;
}

/* Wait for the asked CPUs, then name the ones that stayed silent. */
static u64 wait_answers(void)
{
	if (!READ_ONCE(pending))
		return 0;
	u64 end = ktime_get_ns() + nmi_backtrace_wait_ms() * NSEC_PER_MSEC;
	while (READ_ONCE(pending) && ktime_get_ns() < end)
		cpu_relax();
	u64 silent = __atomic_exchange_n(&pending, 0, __ATOMIC_ACQ_REL);
	for (u32 c = 0; c < MAX_CPUS; c++)
		if (silent & (1UL << c))
			printk(KERN_EMERG "NMI backtrace: CPU %u did not answer within %u ms\n", c,
			       nmi_backtrace_wait_ms());
	return silent;
}

/* One request at a time; false (and a message) if another one runs on
 * past the wait. */
static bool claim(void)
{
	u64 end = ktime_get_ns() + nmi_backtrace_wait_ms() * NSEC_PER_MSEC;
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) {
		if (ktime_get_ns() > end) {
			printk(KERN_WARNING "NMI backtrace: another request is still running\n");
			return false;
		}
		cpu_relax();
	}
	return true;
}

/* NMIs to the other online CPUs; returns how many answered. Called with
 * preemption or IRQs off (this CPU must not be in the mask). */
static u32 ask_others(void)
{
	u64 others = others_online();
	printk(KERN_EMERG "NMI backtrace: sending NMIs to %u other CPUs\n",
	       hweight64(others));
	__atomic_store_n(&pending, others, __ATOMIC_RELEASE);
	for (u32 c = 0; c < MAX_CPUS; c++)
		if (others & (1UL << c))
			arch_send_nmi(c);
	return hweight64(others & ~wait_answers());
}

u32 trigger_all_cpu_backtrace(void)
{
	if (!claim())
		return 0;
	preempt_disable(); /* stay on this CPU: it is not in the mask */
	printk(KERN_EMERG "NMI backtrace for cpu %u (the asking CPU)\n", raw_smp_processor_id());
	dump_stack();
	u32 answered = 1 + ask_others();
	preempt_enable();
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return answered;
}

u32 nmi_backtrace_others(void)
{
	if (!claim())
		return 0;
	u32 answered = ask_others();
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return answered;
}

void nmi_backtrace_request_others(void)
{
	__atomic_store_n(&pending, others_online(), __ATOMIC_RELEASE);
}

void nmi_backtrace_wait_others(void)
{
	wait_answers();
}
