/* lockdep-lite (kernel/locking/lockdep.h): classes, the dependency graph as a bit
 * matrix, a per-CPU held-lock stack, and the two reports. */
#include "kernel/locking/lockdep.h"

#if LOCKDEP
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/debug/ksyms.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "sched/thread.h"
#include "arch/x86_64/cpu.h"

#define WORDS (LOCKDEP_MAX_CLASSES / 64)

struct lock_class {
	const void *key;  /* the init site's lock_class_key, or a static lock */
	const char *name; /* the first lock's name */
	u64 irq_ip;       /* first taken in hardirq context, 0 if never */
	u64 on_ip;        /* first taken with IRQs enabled, 0 if never */
};

struct held_lock {
	raw_spinlock_t *lock;
	struct lock_class *class;
	u64 ip;
};

struct lockdep_cpu {
	struct held_lock held[LOCKDEP_MAX_DEPTH];
	u32 depth;
	bool busy; /* in lockdep (or its report's printk) on this CPU */
};

static struct lock_class classes[LOCKDEP_MAX_CLASSES];
static u32 nr_classes;
static u64 deps[LOCKDEP_MAX_CLASSES][WORDS];          /* a -> b: bit b of deps[a] */
static u64 dep_ip[LOCKDEP_MAX_CLASSES][LOCKDEP_MAX_CLASSES]; /* where b was first taken under a */
static struct lockdep_cpu ld_cpu[MAX_CPUS];
static volatile u32 graph_lock; /* untracked: a test-and-set, IRQs off */
static volatile bool ld_on;
static bool circular_reported, irq_reported, wait_reported;
volatile u64 lockdep_circular_reports;
volatile u64 lockdep_irq_reports;
volatile u64 lockdep_wait_reports;

static void graph_lock_acquire(void)
{
	while (__atomic_exchange_n(&graph_lock, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void graph_lock_release(void)
{
	__atomic_store_n(&graph_lock, 0, __ATOMIC_RELEASE);
}

static u32 class_idx(const struct lock_class *c)
{
	return (u32)(c - classes);
}

static bool dep_test(u32 a, u32 b)
{
	return deps[a][b / 64] & (1ULL << (b % 64));
}

/* Called with the graph lock held. Turns lockdep off when full. */
static struct lock_class *lookup_class(raw_spinlock_t *l)
{
	const void *key = l->key ? (const void *)l->key : (const void *)l;
	for (u32 i = 0; i < nr_classes; i++)
		if (classes[i].key == key)
			return &classes[i];
	if (nr_classes == LOCKDEP_MAX_CLASSES) {
		ld_on = false;
		printk(KERN_ERR "lockdep: more than %u lock classes (lock %s): "
		       "turning off the locking correctness validator\n",
		       LOCKDEP_MAX_CLASSES, l->name ? l->name : "?");
		return NULL;
	}
	struct lock_class *c = &classes[nr_classes++];
	c->key = key;
	c->name = l->name ? l->name : "?";
	return c;
}

/* Breadth-first from `from`: true if `to` is reachable; parent[] gives
 * the path back. */
static bool reaches(u32 from, u32 to, u8 *parent)
{
	u8 queue[LOCKDEP_MAX_CLASSES];
	u64 seen[WORDS] = { 0 };
	u32 head = 0, tail = 0;
	queue[tail++] = (u8)from;
	seen[from / 64] |= 1ULL << (from % 64);
	while (head < tail) {
		u32 a = queue[head++];
		for (u32 w = 0; w < WORDS; w++) {
			u64 next = deps[a][w] & ~seen[w];
			while (next) {
				u32 b = w * 64 + (u32)__builtin_ctzll(next);
				next &= next - 1;
				seen[w] |= 1ULL << (b % 64);
				parent[b] = (u8)a;
				if (b == to)
					return true;
				queue[tail++] = (u8)b;
			}
		}
	}
	return false;
}

static const char *sym(char *buf, size_t size, u64 ip)
{
	ksym_format(buf, size, ip);
	return buf;
}

static void print_thread_line(const char *what)
{
	struct thread *t = this_cpu_read(current);
	printk(KERN_WARNING "thread %u (%s) on CPU %u %s\n", t ? t->id : 0,
	       t ? t->name : "?", raw_smp_processor_id(), what);
}

/* held (taken at held_ip) is held, new is wanted at ip, and new already
 * reaches held: the path is in parent[]. Graph lock held. */
static void report_circular(struct lock_class *held, u64 held_ip,
			    struct lock_class *new, u64 ip, const u8 *parent)
{
	char s[96];
	lockdep_circular_reports++;
	printk(KERN_WARNING "\n======================================================\n"
	       "WARNING: possible circular locking dependency detected\n"
	       "------------------------------------------------------\n");
	print_thread_line("is trying to acquire lock:");
	printk(KERN_WARNING " (%s), at: %s\n", new->name, sym(s, sizeof(s), ip));
	printk(KERN_WARNING "\nbut it already holds lock:\n (%s), at: %s\n",
	       held->name, sym(s, sizeof(s), held_ip));
	printk(KERN_WARNING "\nwhich lock already depends on the new lock.\n\n"
	       "the existing dependency chain (in reverse order) is:\n");
	u32 n = 0;
	for (u32 b = class_idx(held); b != class_idx(new); b = parent[b], n++) {
		u32 a = parent[b];
		printk(KERN_WARNING "-> #%u (%s) taken at %s while holding (%s)\n", n,
		       classes[b].name, sym(s, sizeof(s), dep_ip[a][b]), classes[a].name);
	}
	printk(KERN_WARNING "\nother info that might help us debug this:\n\n"
	       " Possible unsafe locking scenario:\n\n"
	       "       CPU0                    CPU1\n"
	       "       ----                    ----\n"
	       "  lock(%s);\n"
	       "                               lock(%s);\n"
	       "                               lock(%s);\n"
	       "  lock(%s);\n\n"
	       " *** DEADLOCK ***\n\n",
	       new->name, held->name, new->name, held->name);
	dump_stack();
	printk(KERN_WARNING "lockdep: no more circular-dependency reports "
	       "(the locking correctness validator keeps recording, silently)\n");
}

/* Graph lock held. */
static void report_irq(struct lock_class *c, bool now_in_irq, u64 ip)
{
	char s[96];
	const char *was = now_in_irq ? "HARDIRQ-ON-W" : "IN-HARDIRQ-W";
	const char *is = now_in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
	lockdep_irq_reports++;
	printk(KERN_WARNING "\n================================\n"
	       "WARNING: inconsistent lock state\n"
	       "--------------------------------\n"
	       "inconsistent {%s} -> {%s} usage.\n", was, is);
	print_thread_line(now_in_irq ? "in hardirq context takes:" : "with IRQs enabled takes:");
	printk(KERN_WARNING " (%s), at: %s\n", c->name, sym(s, sizeof(s), ip));
	printk(KERN_WARNING "{%s} state was registered at:\n  %s\n", was,
	       sym(s, sizeof(s), now_in_irq ? c->on_ip : c->irq_ip));
	printk(KERN_WARNING "\nother info that might help us debug this:\n"
	       " Possible unsafe locking scenario:\n\n"
	       "       CPU0\n"
	       "       ----\n"
	       "  lock(%s);\n"
	       "  <Interrupt>\n"
	       "    lock(%s);\n\n"
	       " *** DEADLOCK ***\n\n", c->name, c->name);
	dump_stack();
	printk(KERN_WARNING "lockdep: no more inconsistent-lock-state reports "
	       "(the locking correctness validator keeps recording, silently)\n");
}

/* Graph lock held: the IRQ usage of c, taken at ip. */
static void mark_irq_usage(struct lock_class *c, bool hardirq, bool irqs_on, u64 ip)
{
	if (hardirq) {
		if (!c->irq_ip)
			c->irq_ip = ip;
		if (c->on_ip && !irq_reported) {
			irq_reported = true;
			report_irq(c, true, ip);
		}
	} else if (irqs_on) {
		if (!c->on_ip)
			c->on_ip = ip;
		if (c->irq_ip && !irq_reported) {
			irq_reported = true;
			report_irq(c, false, ip);
		}
	}
}

/* Graph lock held: a spinlock_t (LD_WAIT_CONFIG) taken inside a
 * raw_spinlock_t (LD_WAIT_SPIN) would sleep inside a spinning section on
 * PREEMPT_RT. Reported in every build, as Linux's
 * CONFIG_PROVE_RAW_LOCK_NESTING does, so a non-RT run finds RT's bugs. */
static void check_wait_context(struct lockdep_cpu *ld, raw_spinlock_t *l, u64 ip)
{
	if (l->wait_type != LD_WAIT_CONFIG || wait_reported)
		return;
	for (u32 i = ld->depth; i-- > 0;) {
		struct held_lock *h = &ld->held[i];
		if (h->lock->wait_type != LD_WAIT_SPIN)
			continue;
		char s[96];
		wait_reported = true;
		lockdep_wait_reports++;
		printk(KERN_WARNING "\n=============================\n"
		       "BUG: Invalid wait context\n"
		       "-----------------------------\n");
		print_thread_line("is trying to take a spinlock_t:");
		printk(KERN_WARNING " (%s), at: %s\n", l->name ? l->name : "?",
		       sym(s, sizeof(s), ip));
		printk(KERN_WARNING "while it holds the raw_spinlock_t (%s), taken at: %s\n"
		       "On PREEMPT_RT a spinlock_t sleeps, and nothing may sleep "
		       "while a raw_spinlock_t is held.\n", h->class->name,
		       sym(s, sizeof(s), h->ip));
		dump_stack();
		printk(KERN_WARNING "lockdep: no more invalid-wait-context reports "
		       "(the locking correctness validator keeps recording, silently)\n");
		return;
	}
}

/* Graph lock held: the edges from every held lock to c. */
static void add_dependencies(struct lockdep_cpu *ld, struct lock_class *c, u64 ip)
{
	u32 b = class_idx(c);
	for (u32 i = 0; i < ld->depth; i++) {
		u32 a = class_idx(ld->held[i].class);
		if (a == b || dep_test(a, b))
			continue;
		u8 parent[LOCKDEP_MAX_CLASSES];
		if (reaches(b, a, parent)) {
			if (!circular_reported) {
				circular_reported = true;
				report_circular(ld->held[i].class, ld->held[i].ip, c, ip, parent);
			}
			continue; /* the inverted edge is not added */
		}
		deps[a][b / 64] |= 1ULL << (b % 64);
		dep_ip[a][b] = ip;
	}
}

void lock_acquire(raw_spinlock_t *l, bool trylock, u64 ip)
{
	if (!READ_ONCE(ld_on))
		return;
	u64 f = local_irq_save();
	struct lockdep_cpu *ld = &ld_cpu[raw_smp_processor_id()];
	if (ld->busy || in_nmi())
		goto out;
	ld->busy = true;
	bool hardirq = in_hardirq();
	graph_lock_acquire();
	struct lock_class *c = l->class;
	if (!c)
		c = l->class = lookup_class(l);
	if (c && ld->depth == LOCKDEP_MAX_DEPTH) {
		ld_on = false;
		printk(KERN_ERR "lockdep: CPU %u holds more than %u locks (taking %s): "
		       "turning off the locking correctness validator\n",
		       raw_smp_processor_id(), LOCKDEP_MAX_DEPTH, c->name);
		c = NULL;
	}
	if (c) {
		mark_irq_usage(c, hardirq, f & X86_EFLAGS_IF, ip);
		check_wait_context(ld, l, ip);
		if (!trylock)
			add_dependencies(ld, c, ip);
		ld->held[ld->depth++] = (struct held_lock){ l, c, ip };
	}
	graph_lock_release();
	ld->busy = false;
out:
	local_irq_restore(f);
}

/* Only this CPU's stack: no graph lock, so a CPU releasing the console
 * lock never waits for one that is printing a report. A lock this CPU
 * does not hold in the stack (taken before lockdep_init, or while lockdep
 * was busy here) is ignored. */
void lock_release(raw_spinlock_t *l)
{
	if (!READ_ONCE(ld_on))
		return;
	u64 f = local_irq_save();
	struct lockdep_cpu *ld = &ld_cpu[raw_smp_processor_id()];
	if (!ld->busy) {
		for (u32 i = ld->depth; i-- > 0;) {
			if (ld->held[i].lock != l)
				continue;
			for (u32 j = i; j + 1 < ld->depth; j++)
				ld->held[j] = ld->held[j + 1];
			ld->depth--;
			break;
		}
	}
	local_irq_restore(f);
}

void lockdep_init(void)
{
	ld_on = true;
	printk(KERN_INFO "lockdep: on, %u classes, %u held locks per CPU\n",
	       LOCKDEP_MAX_CLASSES, LOCKDEP_MAX_DEPTH);
}

bool lockdep_active(void)
{
	return READ_ONCE(ld_on);
}

u32 lockdep_class_count(void)
{
	return READ_ONCE(nr_classes);
}

u32 lockdep_dependency_count(void)
{
	u32 n = 0;
	for (u32 a = 0; a < LOCKDEP_MAX_CLASSES; a++)
		for (u32 w = 0; w < WORDS; w++)
			for (u64 x = READ_ONCE(deps[a][w]); x; x &= x - 1)
				n++;
	return n;
}

u32 lockdep_dependencies(const char **from, const char **to, u32 max)
{
	u32 n = 0;
	for (u32 a = 0; a < READ_ONCE(nr_classes); a++)
		for (u32 b = 0; b < LOCKDEP_MAX_CLASSES; b++)
			if (dep_test(a, b)) {
				if (n < max) {
					from[n] = classes[a].name;
					to[n] = classes[b].name;
				}
				n++;
			}
	return n;
}

u32 lockdep_held_here(void)
{
	return ld_cpu[raw_smp_processor_id()].depth;
}

void lockdep_rearm(void)
{
	u64 f = local_irq_save();
	graph_lock_acquire();
	circular_reported = false;
	irq_reported = false;
	wait_reported = false;
	graph_lock_release();
	local_irq_restore(f);
}
#endif
