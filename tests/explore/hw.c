/* The hardware under the real scheduler (sched/core.c, wake.c, wait.c,
 * handoff.c, rt.c, idle.c, preempt_mode.c, and kernel/locking/
 * raw_spinlock.c, compiled as they are with tests/explore/hw/ first on
 * the quote path): the CPUs, their IF flags, per-CPU areas and pending
 * interrupts, and the context switch. Nothing of the scheduler is here.
 *
 * A CPU runs one context at a time: cpu_ctx[c], the engine thread of the
 * kernel thread it runs. The engine may pick a thread only while it is
 * its CPU's context (may_run); switch_to() makes next the context and
 * waits until some CPU makes prev one again, then returns the thread that
 * CPU switched from, as switch.asm does. So the engine's coroutine switch
 * is the context switch, and a thread may come back on another CPU.
 *
 * An interrupt (the RESCHEDULE IPI, the tick) is a pending bit of its
 * CPU. At each scheduling point of a thread whose CPU has IF set, the
 * point also reads that CPU's pending word (the engine's extra object),
 * so that DPOR tries the sender's step before and after each of the
 * target's: the interrupt is delivered at every point where it could
 * be. When the engine runs such a thread on with a bit pending, the
 * thread first takes the interrupt, on its own stack as the CPU does:
 * hardirq count, the handler (scheduler_ipi(), scheduler_tick()), and
 * the IRQ exit's preemption (arch/x86_64/entry/irq.c's test of the
 * count, then irqentry_exit_cond_resched()); then its own operation.
 *
 * The ticket lock's two words are one point: the load of `serving` that
 * starts raw_spin_lock() waits until the lock is free, and the
 * compare-and-exchange of `next` then succeeds in the same step (a CPU
 * spinning on a held lock changes nothing: it is simply not run). The
 * unlock's store of `serving` is a point too, but only with IF set: with
 * IF clear no interrupt can come between the section's last step and
 * the release, and a release commutes with every other CPU's step before
 * it (none can take the lock meanwhile; Lipton's reduction, "Reduction:
 * a method of proving properties of parallel programs", CACM 1975: an
 * unlock is a left mover), so it joins the step before it. switch_to()'s
 * change of context is joined to the step before it the same way (IF
 * is clear there, and the run-queue lock held). The cuts left the
 * scenarios' counts of interleavings as they were (INVARIANTS.md has
 * the figures) and a third to a half of their steps. Every other
 * atomic of the compiled kernel files is a point on its address. */
#include "tests/explore/hw_sched.h"
#include "tests/explore/explore.h"
#include "tests/explore/shim.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/preempt.h"
#include "sched/rq.h"
#include "sched/preempt_mode.h"
#include "arch/x86_64/entry/switch.h"
#include "arch/x86_64/kernel/apic/ipi.h"
#include "arch/x86_64/kernel/patch_site.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/stop_machine.h"
#include "mm/mm.h"

#include <stdio.h>
#include <string.h>

struct percpu percpu_area[MAX_CPUS];
u32 nr_cpus_online, nr_cpus_possible;
volatile u64 cpu_online_bits;
u32 tick_hz_param = 1000;

static int ncpus;
static int cpu_ctx[HW_MAX_CPUS];        /* the engine thread each CPU runs */
static int exec_cpu[EX_MAX_THREADS];    /* the CPU each engine thread runs on, or last ran on */
static struct thread *kthread[EX_MAX_THREADS];
static int nkthreads;
static bool irq_on[HW_MAX_CPUS];
static u32 irq_pending[HW_MAX_CPUS];
static bool halting[HW_MAX_CPUS];
static struct thread *switched_from[HW_MAX_CPUS];
static struct thread idle_threads[HW_MAX_CPUS];
static int nidle;
static bool slept_on_lock[EX_MAX_THREADS];
static const volatile void *read_watched;   /* READ_ONCE() a point here */
/* Every ticket lock met so far: a run cut short (a sleep set, a
 * violation) leaves some held, and the next run starts them free. */
static raw_spinlock_t *locks_seen[64];
static int nlocks_seen;

/* ---- the machine, for the front end (hw_sched.h) ---- */

void hw_reset(int cpus)
{
	ncpus = cpus;
	nkthreads = nidle = 0;
	memset(percpu_area, 0, sizeof(percpu_area));
	memset(irq_pending, 0, sizeof(irq_pending));
	memset(halting, 0, sizeof(halting));
	memset(switched_from, 0, sizeof(switched_from));
	memset(slept_on_lock, 0, sizeof(slept_on_lock));
	read_watched = NULL;
	for (int i = 0; i < nlocks_seen; i++) {
		locks_seen[i]->serving = locks_seen[i]->next;
		locks_seen[i]->owner_cpu = -1;
	}
	nr_cpus_online = nr_cpus_possible = (u32)cpus;
	cpu_online_bits = (1UL << cpus) - 1;
	for (int c = 0; c < cpus; c++) {
		struct percpu *p = &percpu_area[c];
		p->self = p;
		p->cpu = (u32)c;
		p->online = 1;
		p->preempt_count = PREEMPT_ENABLED;
		irq_on[c] = true;
	}
}

void hw_bind(int engine_thread, struct thread *t, int cpu)
{
	kthread[engine_thread] = t;
	exec_cpu[engine_thread] = cpu;
	if (engine_thread >= nkthreads)
		nkthreads = engine_thread + 1;
}

bool hw_ticket_locks_held(void)
{
	for (int i = 0; i < nlocks_seen; i++)
		if (locks_seen[i]->next != locks_seen[i]->serving)
			return true;
	return false;
}

void hw_set_context(int cpu, int engine_thread)
{
	cpu_ctx[cpu] = engine_thread;
	percpu_area[cpu].current = kthread[engine_thread];
}

bool hw_may_run(int t)
{
	return cpu_ctx[exec_cpu[t]] == t;
}

int hw_cpus(void) { return ncpus; }
bool hw_slept_on_lock(int t) { return slept_on_lock[t]; }
int hw_context(int cpu) { return cpu_ctx[cpu]; }

/* sched/thread.c's allocation of an idle thread, for the real
 * sched_prepare_cpu(): a struct of our own, no stack. */
struct thread *thread_alloc(const char *name, int prio, u64 allowed)
{
	struct thread *t = &idle_threads[nidle++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->prio = t->normal_prio = prio;
	t->allowed_cpus = allowed;
	INIT_LIST_HEAD(&t->pi_locks);
	INIT_LIST_HEAD(&t->rq_node);
	return t;
}

/* ---- the CPU: IF, hlt, pause, the count ---- */

u32 hw_cpu(void)
{
	return ex_self() < 0 ? 0 : (u32)exec_cpu[ex_self()];
}

u32 *hw_count(void)
{
	return &percpu_area[hw_cpu()].preempt_count;
}

void hw_irq_enable(void) { irq_on[hw_cpu()] = true; }
void hw_irq_disable(void) { irq_on[hw_cpu()] = false; }
bool hw_irqs_disabled(void) { return !irq_on[hw_cpu()]; }

static bool woken_from_halt(const void *arg)
{
	int c = (int)(intptr_t)arg;
	return !halting[c] || irq_pending[c];
}

/* sti; hlt: waits for an interrupt, which the point then takes. */
void hw_safe_halt(void)
{
	u32 c = hw_cpu();
	irq_on[c] = true;
	halting[c] = true;
	ex_log("hlt");
	ex_point1(&irq_pending[c], EX_READ, woken_from_halt, (const void *)(intptr_t)c);
	halting[c] = false;
}

/* pause in idle=poll's loop: spinning changes nothing until the polled
 * flag or an interrupt does, so the loop waits for one of them. */
static bool poll_ends(const void *arg)
{
	int c = (int)(intptr_t)arg;
	const struct thread *t = percpu_area[c].current;
	return (t->flags & _TIF_NEED_RESCHED) || (irq_on[c] && irq_pending[c]);
}

void hw_cpu_relax(void)
{
	u32 c = hw_cpu();
	ex_point1((const void *)&percpu_area[c].current->flags, EX_READ, poll_ends,
		  (const void *)(intptr_t)c);
}

void hw_send_irq(u32 cpu, u32 bits)
{
	ex_point1(&irq_pending[cpu], EX_WRITE, NULL, NULL);
	irq_pending[cpu] |= bits;
	ex_log("%s to CPU %u", bits & HW_IRQ_TICK ? "the tick" : "RESCHEDULE IPI", cpu);
}

void smp_send_reschedule(u32 cpu)
{
	hw_send_irq(cpu, HW_IRQ_RESCHEDULE);
}

/* The engine's hooks (explore.h). */
const void *hw_extra(uint8_t *kind)
{
	if (ex_self() < 0 || !irq_on[hw_cpu()])
		return NULL;
	*kind = EX_READ;
	return &irq_pending[hw_cpu()];
}

/* The interrupt, at this point of the running thread: the entry
 * (arch/x86_64/entry/irq.c: IF off, hardirq count), the handlers, and
 * the exit's preemption test on the count. */
bool hw_take_interrupt(void)
{
	u32 c = hw_cpu();
	if (!irq_on[c] || !irq_pending[c])
		return false;
	u32 bits = irq_pending[c];
	irq_pending[c] = 0;
	irq_on[c] = false;
	halting[c] = false;
	ex_log("takes the %s", bits & HW_IRQ_TICK ? "tick" : "RESCHEDULE IPI");
	preempt_count_add(HARDIRQ_OFFSET);
	if (bits & HW_IRQ_RESCHEDULE)
		scheduler_ipi();
	if (bits & HW_IRQ_TICK)
		scheduler_tick();
	preempt_count_sub(HARDIRQ_OFFSET);
	if (arch_irqentry_exit_need_resched())
		irqentry_exit_cond_resched();
	irq_on[hw_cpu()] = true; /* iretq: IF as it was (on) */
	return true;
}

/* ---- the context switch ---- */

static int engine_of(const struct thread *t)
{
	for (int i = 0; i < nkthreads; i++)
		if (kthread[i] == t)
			return i;
	ex_fail("switch_to(%s): not a thread of the scenario", t->name);
	ex_thread_abort();
}

struct thread *switch_to(struct thread *prev, struct thread *next)
{
	int n = engine_of(next);
	u32 c = hw_cpu();
	if (irq_on[c])
		ex_point1(&next->ksp, EX_WRITE, NULL, NULL);
	/* The hardware's own view of "no thread on two CPUs": next's stack
	 * is still in use wherever next has not yet switched away. */
	for (int d = 0; d < ncpus; d++)
		if (d != (int)c && cpu_ctx[d] == n) {
			ex_fail("one CPU: CPU %u switches to %s, still running on CPU %d",
				c, next->name, d);
			ex_thread_abort();
		}
	exec_cpu[n] = (int)c;
	cpu_ctx[c] = n;
	switched_from[c] = prev;
	if (prev->pi_blocked_on)
		slept_on_lock[engine_of(prev)] = true;
	ex_log("CPU %u switches from %s to %s", c, prev->name, next->name);
	ex_point1(&prev->ksp, EX_WRITE, NULL, NULL); /* until a CPU switches to prev */
	return switched_from[hw_cpu()];
}

/* A thread's first run, switched to (thread_entry, then thread_start()'s
 * first half): the switch's end, then the count its caller had. */
void hw_first_switch_in(void)
{
	struct thread *me = kthread[ex_self()];
	ex_point1(&me->ksp, EX_WRITE, NULL, NULL);
	finish_switch(switched_from[hw_cpu()]);
	preempt_enable();
}

/* ---- the points of shim/explore_shim.h ---- */

static bool ticket_free(const void *arg)
{
	const raw_spinlock_t *l = arg;
	return l->next == l->serving;
}

void explore_atomic_point(const volatile void *p, int write, const char *expr)
{
	if (ex_self() < 0)
		return;
	if (!strcmp(expr, "&l->next"))
		return; /* the lock's compare-and-exchange: the load's step */
	if (!strcmp(expr, "&l->serving")) {
		raw_spinlock_t *l = container_of((volatile u32 *)p, raw_spinlock_t, serving);
		int i;
		for (i = 0; i < nlocks_seen && locks_seen[i] != l; i++)
			;
		if (i == nlocks_seen && i < (int)(sizeof(locks_seen) / sizeof(locks_seen[0])))
			locks_seen[nlocks_seen++] = l;
		if (write) {
			if (irq_on[hw_cpu()])
				ex_point1(l, EX_WRITE, NULL, NULL);
			ex_log("releases %s", l->name);
		} else {
			ex_point1(l, EX_WRITE, ticket_free, l);
			ex_log("takes %s", l->name);
		}
		return;
	}
	ex_point1((const void *)p, write ? EX_WRITE : EX_READ, NULL, NULL);
}

static const char *state_str(int s)
{
	static const char *const names[] = { "RUNNING", "SLEEPING", "DEAD", "RTLOCK_WAIT" };
	return s >= 0 && s < 4 ? names[s] : "?";
}

void explore_atomic_done(const volatile void *p, const char *op, u64 before)
{
	if (!ex_logging || ex_self() < 0)
		return;
	for (int i = 0; i < nkthreads; i++) {
		struct thread *t = kthread[i];
		if (p == &t->state)
			ex_log("%s %s's state: %s -> %s", op, t->name, state_str((int)before),
			       state_str(t->state));
		else if (p == &t->flags)
			ex_log("%s %s's flags: %#llx -> %#llx", op, t->name,
			       (unsigned long long)before, (unsigned long long)t->flags);
		else if (p == &t->on_cpu)
			ex_log("%s %s's on_cpu: %llu -> %d", op, t->name,
			       (unsigned long long)before, t->on_cpu);
	}
}

void hw_watch_read(const volatile void *p)
{
	read_watched = p;
}

bool explore_read_watched(const volatile void *p)
{
	return p == read_watched && ex_self() >= 0;
}

void explore_write_point(const volatile void *p)
{
	if (ex_self() >= 0)
		ex_point1((const void *)p, EX_WRITE, NULL, NULL);
}

void explore_write_done(const volatile void *p)
{
	(void)p;
}

/* ---- never reached in the explorer: boot-time code the compiled files
 * reference (sched_init()'s stack, the boot options, patching) ---- */

static __noreturn void never(const char *what)
{
	ex_fail("%s: not reached in the explorer", what);
	ex_thread_abort();
}

u64 stack_alloc_boot(const char *what) { (void)what; never("stack_alloc_boot()"); }
void thread_setup_stack(struct thread *t, u64 top) { (void)t, (void)top; never("thread_setup_stack()"); }
bool patch_sites_init(void) { never("patch_sites_init()"); }
bool patch_sites_apply(int mode, const char *what) { (void)mode, (void)what; never("patch_sites_apply()"); }
int stop_machine(int (*fn)(void *arg), void *arg) { (void)fn, (void)arg; never("stop_machine()"); }
void lock_contended(struct raw_spinlock *l) { (void)l; never("lock_contended()"); }
void lock_contended_end(struct raw_spinlock *l) { (void)l; never("lock_contended_end()"); }
struct thread boot_thread; /* sched_init()'s, never called */

/* sched/thread.c's walk of every thread: the scenario's. */
void thread_for_each(void (*fn)(struct thread *t, void *arg), void *arg)
{
	for (int i = 0; i < nkthreads; i++)
		if (kthread[i])
			fn(kthread[i], arg);
}
