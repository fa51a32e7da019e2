/* The scheduler trace's buffers (kernel/trace/trace.h): one array of records per
 * CPU, written only by its CPU with IRQs off, so a record is never torn
 * by an interrupt on the same CPU and needs no lock. The dump reads them
 * after tracing stopped. `trace clear` is meant for a stopped trace too:
 * a CPU in the middle of a record while another clears may keep one
 * record from before the clear.
 *
 * The dump's lines, between `TRACE begin` and `TRACE end`, each end in
 * a Fletcher-16 checksum (RFC 1146 Appendix I) of the text before it,
 * four hex digits, so the host tool can tell a line the serial log
 * garbled (another CPU's printk in the middle of it, say):
 *   TRACE begin v1 cpus=N entry=48 types=T
 *   TC pid name                the thread names (cmdlines)
 *   TI vector name             the IRQ vectors' names
 *   TR cpu ts type flags pc pid a0 a1 a2 a3     one record (hex)
 *   TL cpu records lost        each CPU's totals
 *   TRACE end records=N lost=N */
#include "kernel/trace/trace.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/time/time.h"
#include "mm/mm.h"
#include "sched/sched.h"
#include "sched/thread.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/entry/irq.h"
#include "lib/format.h"
#include "lib/string.h"

struct trace_cpu {
	struct trace_entry *buf;
	u32 len;          /* records written */
	u64 lost;         /* records dropped: the buffer was full */
};
static struct trace_cpu trace_cpus[MAX_CPUS];

struct trace_comm {
	u32 pid;
	char name[TRACE_COMM_LEN];
};
static struct trace_comm comms[TRACE_COMM_SLOTS];

#define TRACE_BUF_FRAMES ((TRACE_ENTRIES * sizeof(struct trace_entry) + PAGE_SIZE - 1) / PAGE_SIZE)

u32 trace_pid(const struct thread *t)
{
	if (t->prio < 0)
		return 0;
	if (t == &boot_thread)
		return per_cpu(idle, 0)->id;
	return t->id;
}

void trace_save_comm(const struct thread *t)
{
	u32 pid = trace_pid(t);
	struct trace_comm *c = &comms[pid % TRACE_COMM_SLOTS];
	if (!pid || (c->pid == pid && !strncmp(c->name, t->name, TRACE_COMM_LEN)))
		return;
	c->pid = pid;
	memcpy(c->name, t->name, TRACE_COMM_LEN);
}

void trace_record(u16 type, u64 a, u64 b, u64 c, u64 d)
{
	u8 flags = irqs_disabled() ? TRACE_FLAG_IRQS_OFF : 0;
	u64 f = local_irq_save();
	struct trace_cpu *tc = &trace_cpus[raw_smp_processor_id()];
	u32 count = preempt_count();
	if (!tc->buf || tc->len >= TRACE_ENTRIES) {
		tc->lost++;
		local_irq_restore(f);
		return;
	}
	if (tif_need_resched())
		flags |= TRACE_FLAG_NEED_RESCHED;
	if (count & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	struct trace_entry *e = &tc->buf[tc->len];
	e->ts = ktime_get_ns();
	e->type = type;
	e->flags = flags;
	e->preempt_count = (u8)(count & PREEMPT_MASK);
	e->pid = trace_pid(current_thread());
	e->arg[0] = a;
	e->arg[1] = b;
	e->arg[2] = c;
	e->arg[3] = d;
	__atomic_store_n(&tc->len, tc->len + 1, __ATOMIC_RELEASE);
	local_irq_restore(f);
}

int trace_start(void)
{
	for (u32 cpu = 0; cpu < nr_cpus_possible; cpu++) {
		if (trace_cpus[cpu].buf)
			continue;
		u64 pa = frame_alloc_contig(TRACE_BUF_FRAMES);
		if (!pa) {
			pr_warn("trace: no memory for CPU %u's buffer (%lu frames)\n", cpu,
				(unsigned long)TRACE_BUF_FRAMES);
			return -1;
		}
		trace_cpus[cpu].buf = phys_to_virt(pa);
	}
	if (static_key_enable(STATIC_KEY_TRACE)) {
		pr_warn("trace: the hooks could not be patched in (above): tracing stays off\n");
		return -1;
	}
	return 0;
}

void trace_stop(void)
{
	if (static_key_disable(STATIC_KEY_TRACE))
		pr_warn("trace: the hooks could not be patched out (above): tracing stays on\n");
}

void trace_clear(void)
{
	for (u32 cpu = 0; cpu < MAX_CPUS; cpu++) {
		WRITE_ONCE(trace_cpus[cpu].len, 0);
		WRITE_ONCE(trace_cpus[cpu].lost, 0);
	}
}

/* Fletcher-16 (RFC 1146, Appendix I: two running sums mod 255). */
static u32 fletcher16(const char *s, size_t n)
{
	u32 a = 0, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + (u8)s[i]) % 255;
		b = (b + a) % 255;
	}
	return b << 8 | a;
}

static void __printf(1, 2) dump_line(const char *fmt, ...)
{
	char line[200];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)strlen(line);
	console_printf("%s %04x\n", line, fletcher16(line, (size_t)n));
}

/* A name as one word: blanks and control bytes become '_'. */
static void comm_word(char *out, const char *name)
{
	size_t i;
	for (i = 0; i < TRACE_COMM_LEN - 1 && name[i]; i++)
		out[i] = name[i] > ' ' && name[i] < 0x7f ? name[i] : '_';
	out[i] = 0;
	if (!i)
		memcpy(out, "?", 2);
}

static void dump_live_comm(struct thread *t, void *arg)
{
	(void)arg;
	trace_save_comm(t);
}

void trace_dump(void)
{
	if (static_key_enabled(STATIC_KEY_TRACE)) {
		trace_stop();
		console_printf("trace: stopped for the dump\n");
	}
	u64 total = 0, lost = 0;
	dump_line("TRACE begin v1 cpus=%u entry=%u types=%u", nr_cpus_possible,
		  (unsigned)sizeof(struct trace_entry), (unsigned)NR_TRACE_TYPES);
	trace_save_comm(&boot_thread);
	thread_for_each(dump_live_comm, NULL);
	char word[TRACE_COMM_LEN];
	for (u32 i = 0; i < TRACE_COMM_SLOTS; i++) {
		if (!comms[i].pid)
			continue;
		comm_word(word, comms[i].name);
		dump_line("TC %u %s", comms[i].pid, word);
	}
	for (int v = 32; v < 256; v++) {
		const char *name = irq_name(v);
		if (strcmp(name, "?"))
			dump_line("TI %d %s", v, name);
	}
	for (u32 cpu = 0; cpu < nr_cpus_possible; cpu++) {
		struct trace_cpu *tc = &trace_cpus[cpu];
		u32 len = __atomic_load_n(&tc->len, __ATOMIC_ACQUIRE);
		for (u32 i = 0; i < len; i++) {
			const struct trace_entry *e = &tc->buf[i];
			dump_line("TR %u %llx %x %x %x %x %llx %llx %llx %llx", cpu,
				  (unsigned long long)e->ts, e->type, e->flags, e->preempt_count,
				  e->pid, (unsigned long long)e->arg[0],
				  (unsigned long long)e->arg[1], (unsigned long long)e->arg[2],
				  (unsigned long long)e->arg[3]);
		}
		dump_line("TL %u %u %llu", cpu, len, (unsigned long long)tc->lost);
		total += len;
		lost += tc->lost;
	}
	dump_line("TRACE end records=%llu lost=%llu", (unsigned long long)total,
		  (unsigned long long)lost);
}

int cmd_trace(int argc, char **argv)
{
	const char *op = argc == 2 ? argv[1] : "";
	if (!strcmp(op, "on")) {
		if (trace_start())
			return -1;
	} else if (!strcmp(op, "off")) {
		trace_stop();
	} else if (!strcmp(op, "clear")) {
		trace_clear();
	} else if (!strcmp(op, "dump")) {
		trace_dump();
	} else {
		console_printf("usage: trace on|off|clear|dump\n");
		return -1;
	}
	return 0;
}
