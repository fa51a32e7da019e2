/* Scenarios over the real scheduler (sched/ on tests/explore/hw.c's
 * CPUs): kernel threads, each a script, placed on CPUs (the first on a
 * CPU runs there, the others wait on its run queue), an idle thread per
 * CPU running the real cpu_idle(), and a timer that sends ticks. The
 * rules they keep: tests/explore/sched_checks.c. Part A's rt_mutex
 * scenarios that fit here (release-boost, setscheduler-owner, cycle,
 * cycle3, multi-owner, rtlock-wait, two, steal) give each thread a CPU
 * of its own, as the shim's scheduler did: a thread that blocks
 * switches to its CPU's idle thread, and its wake-up comes back there
 * by the RESCHEDULE IPI. */
#include "tests/explore/sched_scenarios.h"
#include "tests/explore/sched_checks.h"
#include "tests/explore/explore.h"
#include "tests/explore/hw_sched.h"
#include "kernel/preempt.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/irq/irq_thread.h"
#include "sched/rq.h"
#include "sched/wait.h"
#include "sched/preempt_mode.h"

#include <stdio.h>
#include <string.h>

struct thread sched_th[EX_MAX_THREADS];
static bool queued_at_start[EX_MAX_THREADS];
bool sched_exited[EX_MAX_THREADS];
static struct wait_queue wq;
static struct mutex M;
static struct completion done;
struct rt_mutex sched_L[SCHED_NLOCKS];
int sched_inside[SCHED_NLOCKS + 1];
int sched_edeadlk;
static spinlock_t S;                    /* a PREEMPT_RT spinlock_t */
static int event;

/* irq_thread.c's lock, static there: explore.mk makes the symbol global
 * in the explorer's copy of the object (objcopy), so that each run
 * starts with it free. */
extern struct rt_mutex irq_request_mutex;
#define IRQ_LINE 4
static struct irq_thread line;          /* one device line's */
static struct thread line_thread;
static int line_threads_made, line_maker;

int sched_irq_threads_made(void)
{
	return line_threads_made;
}

/* sched/thread.c's thread_create(), for irq_thread_start(): a struct of
 * our own, never run (the explorer raises no device interrupt, so it
 * would only sleep on the line's queue). A second thread for the line
 * is the violation: its first waits for the line's interrupts. */
struct thread *thread_create(void (*fn)(void *), void *arg, const char *name, int prio,
			     u64 allowed_cpus)
{
	(void)fn, (void)prio, (void)allowed_cpus;
	if (arg == &line && line_threads_made)
		ex_fail("%s makes a second thread for IRQ %d: %s, made by %s, already waits "
			"for its interrupts", ex_thread_name(ex_self()), IRQ_LINE,
			line_thread.name, ex_thread_name(line_maker));
	line_threads_made++;
	line_maker = ex_self();
	snprintf(line_thread.name, sizeof(line_thread.name), "%s", name);
	line_thread.id = 100 + (u32)line_threads_made;
	ex_log("thread_create(%s)", name);
	return &line_thread;
}

static void line_work(void *arg)
{
	(void)arg;
}

/* irq_thread.c's thread loop, static there (made global as the lock). */
void irq_thread_fn(void *arg);

bool sched_line_lost(void)
{
	return READ_ONCE(line.pending) && line.t;
}

unsigned sched_line_runs(void)
{
	return (unsigned)line.runs;
}

struct rt_mutex *sched_lock(int l)
{
	return l < SCHED_NLOCKS ? &sched_L[l] : l == SCHED_NLOCKS ? &S.lock : &irq_request_mutex;
}
static volatile int flag[4];
const struct ex_scenario *sched_cur;

/* A thread's placement and kind: its script's first word. "@1" CPU 1
 * (default 0), "@1m" may run on every CPU; "idle" the CPU's idle
 * thread (in CPU order); "timer" no kernel thread: it sends ticks. */
static int cpu_of(const char *prog)
{
	return prog[0] == '@' ? prog[1] - '0' : 0;
}

bool sched_is_idle(int i) { return !strcmp(sched_cur->threads[i].prog, "idle"); }
bool sched_is_timer(int i) { return !strncmp(sched_cur->threads[i].prog, "timer", 5); }

static void reset(const struct ex_scenario *sc)
{
	sched_cur = sc;
	int ncpus = 0;
	for (int i = 0; i < sc->nthreads; i++)
		ncpus += sched_is_idle(i);
	hw_reset(ncpus);
	preempt_mode = sc->arg & SC_LAZY ? PREEMPT_MODE_LAZY : PREEMPT_MODE_FULL;
	idle_poll = sc->arg & SC_POLL;
	memset(rqs, 0, sizeof(rqs));
	for (int c = 0; c < ncpus; c++)
		sched_prepare_cpu((u32)c);
	sched_running = true;
	wait_queue_init(&wq);
	static const char *const names[SCHED_NLOCKS] = { "L0", "L1", "L2" };
	for (int l = 0; l < SCHED_NLOCKS; l++)
		rt_mutex_init(&sched_L[l], names[l]);
	spin_lock_init(&S, "S");
	memset(sched_inside, 0, sizeof(sched_inside));
	memset(report_deadlocks, 0, EX_MAX_THREADS * sizeof(int));
	sched_edeadlk = event = 0;
	rt_mutex_init(&irq_request_mutex, "irq_request_mutex");
	memset(&line, 0, sizeof(line));
	memset(&line_thread, 0, sizeof(line_thread));
	line_threads_made = 0;
	line_maker = -1;
	wait_queue_init(&line.wq);
	line.fn = line_work;
	mutex_init(&M);
	init_completion(&done);
	sched_checks_reset();
	memset((void *)flag, 0, sizeof(flag));
	memset(sched_exited, 0, sizeof(sched_exited));
	int idle = 0;
	for (int i = 0; i < sc->nthreads; i++) {
		const char *prog = sc->threads[i].prog;
		queued_at_start[i] = false;
		if (sched_is_timer(i)) {
			hw_bind(i, NULL, 0);
			continue;
		}
		if (sched_is_idle(i)) {
			struct rq *rq = &rqs[idle];
			hw_bind(i, rq->idle, idle);
			queued_at_start[i] = rq->curr != rq->idle;
			if (!queued_at_start[i]) { /* no thread placed before it */
				hw_set_context(idle, i);
				rq->idle->on_cpu = 1;
			}
			idle++;
			continue;
		}
		struct thread *t = &sched_th[i];
		int c = cpu_of(prog);
		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", sc->threads[i].name);
		t->prio = t->normal_prio = sc->threads[i].prio;
		t->state = t->saved_state = THREAD_RUNNING;
		t->cpu = c;
		t->migratory = prog[0] == '@' && prog[2] == 'm';
		t->allowed_cpus = t->migratory ? ALL_CPUS : 1UL << c;
		t->slice = SCHED_SLICE_TICKS;
		t->usage = 1;
		INIT_LIST_HEAD(&t->pi_locks);
		INIT_LIST_HEAD(&t->rq_node);
		hw_bind(i, t, c);
		struct rq *rq = &rqs[c];
		if (rq->curr == rq->idle) {
			rq->curr = t;
			t->on_rq = t->on_cpu = 1;
			hw_set_context(c, i);
		} else {
			enqueue(rq, t, false);
			queued_at_start[i] = true;
		}
	}
}

/* ---- the scripts ----
 * w1 wait_event() until flag 1; s1 set flag 1, then wake_up_all();
 * k2 wake_up_thread(thread 2) after flag 3; y yield(); L0/U0
 * rt_mutex_lock/unlock(L0); p2=40 rt_mutex_adjust_pi(thread 2, 40);
 * t1 a tick to CPU 1 (the timer); r1 resched_curr(1); n1 a lazy
 * request to CPU 1 (resched_curr_lazy); P preempt_disable() ... E
 * preempt_enable(); f2 set flag 2 only; h1 block, handing the CPU to
 * thread 1 (sched_handoff(), else wake it), until flag 2 (then k0 from
 * another thread ends the wait); M/m mutex_lock/unlock (sched/wait.c);
 * c complete(), C wait_for_completion(); and Part A's: T0
 * rt_mutex_trylock(L0) (a failed lock or trylock skips its unlock), W1
 * spin until flag 1 (f sets it), B2 spin until thread 2 has been
 * switched away from while it waits on an rt_mutex, Q/q
 * spin_lock/spin_unlock(S), a PREEMPT_RT spinlock_t, Z mark itself
 * SLEEPING, Y then sleep until the event (schedule() unless it came),
 * e0 the event, then wake_up_thread(thread 0); I irq_thread_start() of
 * one device line (IRQ 4, whose thread is made but never run); i run
 * the line's thread loop (irq_thread_fn(), for ever: the run ends with
 * it asleep), R irq_thread_wake() of the line, as its hard handler. */

static void set_flag(int n)
{
	ex_point1((const void *)&flag[n], EX_WRITE, NULL, NULL);
	flag[n] = 1;
	ex_log("flag %d = 1", n);
}

/* wait_event()'s condition: a point, the read another CPU races. */
static bool flag_set(int n)
{
	ex_point1((const void *)&flag[n], EX_READ, NULL, NULL);
	return flag[n] != 0;
}

static bool is_set(const void *arg)
{
	return *(const volatile int *)arg != 0;
}

static bool slept_on_lock(const void *arg)
{
	return hw_slept_on_lock((int)(intptr_t)arg);
}

/* Inside lock l's section, from the step its lock returned in: mutual
 * exclusion, checked there (the section's end is its unlock's start). */
static void enter(int self, int l)
{
	for (int i = 0; i <= SCHED_NLOCKS; i++)
		if (i == l && sched_inside[i])
			ex_fail("mutual exclusion: %s enters %s while %s is inside",
				sched_th[self].name, i < SCHED_NLOCKS ? sched_L[i].name : "S",
				sched_th[sched_inside[i] - 1].name);
	sched_inside[l] = self + 1;
}

static void run_script(int self)
{
	if (sched_is_idle(self)) {
		if (queued_at_start[self]) /* not current at the start: switched to */
			hw_first_switch_in();
		ex_activity("cpu_idle()");
		cpu_idle();
	}
	const char *p = sched_cur->threads[self].prog;
	if (*p == '@')
		p += p[2] == 'm' ? 3 : 2;
	if (sched_is_timer(self))
		p += 5;
	else if (queued_at_start[self])
		hw_first_switch_in();
	bool skip[SCHED_NLOCKS] = { false };
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		char op = *p++;
		int n = 0, v = 0;
		while (*p >= '0' && *p <= '9')
			n = n * 10 + (*p++ - '0');
		if (*p == '=')
			for (p++; *p >= '0' && *p <= '9'; p++)
				v = v * 10 + (*p - '0');
		switch (op) {
		case 'w':
			ex_activity("wait_event(flag %d)", n);
			wait_event(&wq, flag_set(n));
			break;
		case 's':
			ex_activity("flag %d, wake_up_all()", n);
			set_flag(n);
			wake_up_all(&wq);
			break;
		case 'k':
			ex_activity("wake_up_thread(%s)", sched_th[n].name);
			wake_up_thread(&sched_th[n]);
			break;
		case 'f':
			ex_activity("flag %d", n);
			set_flag(n);
			break;
		case 'h':
			ex_activity("hand off to %s until flag 2", sched_th[n].name);
			for (;;) {
				__atomic_store_n(&sched_th[self].state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
				if (flag_set(2))
					break;
				if (!sched_handoff(&sched_th[n])) {
					wake_up_thread(&sched_th[n]);
					schedule();
				}
			}
			__atomic_store_n(&sched_th[self].state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
			wake_up_thread(&sched_th[n]); /* if the flag came first: no handoff */
			break;
		case 'M':
			ex_activity("mutex_lock(M)");
			mutex_lock(&M);
			break;
		case 'm':
			ex_activity("mutex_unlock(M)");
			mutex_unlock(&M);
			break;
		case 'c':
			ex_activity("complete()");
			complete(&done);
			break;
		case 'C':
			ex_activity("wait_for_completion()");
			wait_for_completion(&done);
			break;
		case 'y':
			ex_activity("yield()");
			yield();
			break;
		case 'L':
			ex_activity("rt_mutex_lock(%s)", sched_L[n].name);
			if (rt_mutex_lock(&sched_L[n]) == 0) {
				enter(self, n);
			} else {
				sched_edeadlk++;
				skip[n] = true;
				ex_log("rt_mutex_lock(%s) returns -EDEADLK", sched_L[n].name);
			}
			break;
		case 'T':
			ex_activity("rt_mutex_trylock(%s)", sched_L[n].name);
			if (rt_mutex_trylock(&sched_L[n]))
				enter(self, n);
			else
				skip[n] = true;
			break;
		case 'U':
			if (skip[n]) {
				skip[n] = false;
				break;
			}
			ex_activity("rt_mutex_unlock(%s)", sched_L[n].name);
			sched_inside[n] = 0;
			rt_mutex_unlock(&sched_L[n]);
			break;
		case 'W':
			ex_activity("spin until flag %d", n);
			ex_point1((const void *)&flag[n], EX_READ, is_set, (const void *)&flag[n]);
			ex_log("sees flag %d", n);
			break;
		case 'B':
			ex_activity("wait until %s sleeps on a lock", sched_th[n].name);
			ex_point1(&sched_th[n].ksp, EX_READ, slept_on_lock, (const void *)(intptr_t)n);
			ex_log("sees that %s went to sleep on a lock", sched_th[n].name);
			break;
		case 'Q':
			ex_activity("spin_lock(S)");
			spin_lock(&S);
			enter(self, SCHED_NLOCKS);
			break;
		case 'q':
			ex_activity("spin_unlock(S)");
			sched_inside[SCHED_NLOCKS] = 0;
			spin_unlock(&S);
			break;
		case 'Z':
			ex_activity("prepare to wait");
			__atomic_store_n(&sched_th[self].state, THREAD_SLEEPING, __ATOMIC_SEQ_CST);
			break;
		case 'Y':
			ex_activity("wait for the event");
			ex_point1(&event, EX_READ, NULL, NULL);
			if (!event)
				schedule();
			__atomic_store_n(&sched_th[self].state, THREAD_RUNNING, __ATOMIC_SEQ_CST);
			break;
		case 'e':
			ex_activity("the event, wake_up_thread(%s)", sched_th[n].name);
			ex_point1(&event, EX_WRITE, NULL, NULL);
			event = 1;
			ex_log("event = 1");
			wake_up_thread(&sched_th[n]);
			break;
		case 'i':
			ex_activity("irq_thread_fn(IRQ %d)", IRQ_LINE);
			line.t = &sched_th[self];
			hw_watch_read(&line.pending);
			irq_thread_fn(&line); /* never returns */
			break;
		case 'R':
			ex_activity("irq_thread_wake(IRQ %d)", IRQ_LINE);
			irq_thread_wake(&line);
			break;
		case 'I':
			ex_activity("irq_thread_start(IRQ %d)", IRQ_LINE);
			ex_point1(&line.t, EX_READ, NULL, NULL); /* its test of it->t */
			ex_log("the line's thread (it->t) is %s", line.t ? line.t->name : "none yet");
			irq_thread_start(&line, IRQ_LINE, "notify", line_work, NULL);
			break;
		case 'p':
			ex_activity("rt_mutex_adjust_pi(%s, %d)", sched_th[n].name, v);
			rt_mutex_adjust_pi(&sched_th[n], v);
			break;
		case 't':
			ex_activity("the tick");
			hw_send_irq((u32)n, HW_IRQ_TICK);
			break;
		case 'r':
			ex_activity("resched_curr(%d)", n);
			resched_curr((u32)n);
			break;
		case 'n':
			ex_activity("resched_curr_lazy(%d)", n);
			resched_curr_lazy((u32)n);
			break;
		case 'P':
			ex_activity("preempt_disable()");
			preempt_disable();
			break;
		case 'E':
			ex_activity("preempt_enable()");
			preempt_enable();
			break;
		}
	}
	if (sched_is_timer(self))
		return;
	ex_activity("exits");
	sched_exited[self] = true;
	__atomic_store_n(&sched_th[self].state, THREAD_DEAD, __ATOMIC_SEQ_CST);
	schedule();
	ex_fail("%s runs after its exit", sched_th[self].name);
	ex_thread_abort();
}

#define T(n, p, s) { n, p, run_script, s }
#define IDLE(n) { n, -1, run_script, "idle" }
#define SCENARIO(nm, w, q, a, ...) {                                          \
	.name = nm, .what = w, .quick = q, .arg = a,                          \
	.nthreads = sizeof((struct ex_thread_def[]){ __VA_ARGS__ }) /          \
		    sizeof(struct ex_thread_def),                              \
	.threads = { __VA_ARGS__ }, .reset = reset,                            \
	.check_step = sched_check_step, .check_end = sched_check_end,                      \
	.may_run = hw_may_run, .extra = hw_extra, .resume = hw_take_interrupt }

const struct ex_scenario sched_scenarios[] = {
	SCENARIO("lost-wakeup", "a wake-up on CPU 1 races W's wait_event() on CPU 0", true, 0,
		 T("W", 0, "@0 w0"), T("S", 0, "@1 s0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("wake-fifo", "a FIFO thread woken where a normal one runs preempts it", true, 0,
		 T("W", 10, "@0 w0"), T("N", 0, "@0 y"), T("S", 0, "@1 s0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("poll-idle", "resched_curr() of a polling idle CPU: the flag, no IPI", true,
		 SC_POLL, T("W", 5, "@1 w0"), T("S", 0, "@0 s0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("full-tick", "a full request and the tick on a CPU with preemption off", false,
		 0, T("A", 0, "@0 P E"), T("R", 0, "@1 r0"), T("timer", 0, "timer t0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("lazy-tick", "a lazy request, promoted by the tick (preempt=lazy)", true,
		 SC_LAZY, T("A", 0, "@0 y"), T("B", 0, "@0"), T("R", 0, "@1 n0"),
		 T("timer", 0, "timer t0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("boost-remote", "W on CPU 1 boosts O, the owner running on CPU 0", false, 0,
		 T("O", 1, "@0 L0 s0 w1 U0"), T("W", 20, "@1 w0 s1 L0 U0"), IDLE("idle/0"),
		 IDLE("idle/1")),
	SCENARIO("waiter-lowered", "W, blocked on O's lock, lowered by P: O's boost drops",
		 false, 0, T("P", 50, "@0 w0 p2=5 s1"), T("O", 1, "@1 L0 s0 w1 U0"),
		 T("W", 20, "@0 L0 U0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("handoff-wake", "A hands CPU 0 to B (sched_handoff) as C wakes A from CPU 1",
		 true, 0, T("B", 0, "@0 w0"), T("A", 0, "@0 f0 h0"), T("C", 0, "@1 f2 k1"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("mutex", "two CPUs contend for a sleeping mutex (sched/wait.c)", true, 0,
		 T("A", 0, "@0 M m"), T("B", 0, "@1 M m"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("completion", "complete() on CPU 1 races wait_for_completion() on CPU 0", true,
		 0, T("W", 0, "@0 C"), T("S", 0, "@1 c"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("setprio-queued", "P raises N, queued behind A on CPU 0: a remote reschedule",
		 true, 0, T("A", 10, "@0 w0"), T("N", 0, "@0"), T("P", 50, "@1 p1=40 s0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("yield-tick", "two normal threads yield while ticks come", true, 0,
		 T("A", 0, "@0 y"), T("B", 0, "@0 y"), T("timer", 0, "timer t0 t0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("rt-equal", "two waiters of equal priority: FIFO among equals", false, 0,
		 T("O", 1, "@0 L0 s0 U0"), T("A", 10, "@1 w0 L0 U0"), T("B", 10, "@1 w0 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("chain", "a chain: A waits on L1 (B's), B on L0 (O's), O boosted to 30",
		 false, 0, T("B", 5, "@0 L1 s1 w0 L0 U0 U1"), T("O", 1, "@0 L0 s0 U0"),
		 T("A", 30, "@1 w1 L1 U1"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("two", "two threads contend for one rt_mutex", true, 0,
		 T("A", 10, "@0 L0 U0"), T("B", 20, "@1 L0 U0"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("steal", "a woken waiter's lock taken first by a higher priority", false, 0,
		 T("H", 30, "@1 w0 L0 U0"), T("O", 1, "@0 L0 s0 U0"), T("W", 10, "@1 w0 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("release-boost", "O is boosted through L1 while it releases L0", false, 0,
		 T("O", 1, "@0 L0 L1 f0 U0 U1"), T("W", 10, "@1 W0 L0 U0"),
		 T("X", 30, "@2 W0 L1 U1"), IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("setscheduler-owner", "the owner lowered, its waiter raised, while boosted",
		 true, 0, T("O", 5, "@0 L0 f0 U0"), T("W", 10, "@1 W0 L0 U0"),
		 T("S", 50, "@2 W0 p0=1 p1=30"), IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("cycle", "A and B each wait for the other's lock: one -EDEADLK", true,
		 SC_EDEADLK(1), T("A", 10, "@0 L0 f0 W1 L1 U1 U0"),
		 T("B", 20, "@1 L1 f1 W0 L0 U0 U1"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("cycle3", "a cycle of three threads and three locks", false, SC_EDEADLK(1),
		 T("A", 10, "@0 L0 f0 W1 W2 L1 U1 U0"), T("B", 20, "@1 L1 f1 W0 W2 L2 U2 U1"),
		 T("C", 30, "@2 L2 f2 W0 W1 L0 U0 U2"), IDLE("idle/0"), IDLE("idle/1"),
		 IDLE("idle/2")),
	SCENARIO("multi-owner", "an owner of two contended locks releases them one by one",
		 false, 0, T("A", 1, "@0 L0 L1 f0 U1 U0"), T("B", 10, "@1 W0 L0 U0"),
		 T("C", 20, "@2 W0 L1 U1"), IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("rtlock-wait", "a wake-up for the state saved under a spinlock_t's sleep",
		 true, 0, T("T", 10, "@0 Z Q q Y"), T("U", 20, "@1 Q q"), T("V", 5, "@2 e0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("three", "three priorities contend for one lock", false, 0,
		 T("A", 10, "@0 L0 U0"), T("B", 20, "@1 L0 U0"), T("C", 30, "@2 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("chain3", "a chain of three owners boosted by one waiter", false, 0,
		 T("D", 1, "@0 L2 f0 B2 U2"), T("C", 2, "@1 W0 L1 f1 L2 U2 U1"),
		 T("B", 3, "@2 W1 L0 f2 L1 U1 U0"), T("A", 30, "@3 B2 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2"), IDLE("idle/3")),
	SCENARIO("setscheduler-walk", "sched_setscheduler() of a waiter during a chain walk",
		 false, 0, T("C", 1, "@0 L1 f0 U1"), T("B", 2, "@1 W0 L0 L1 U1 U0"),
		 T("A", 10, "@2 W0 L0 U0"), T("S", 50, "@3 p2=40"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2"), IDLE("idle/3")),
	SCENARIO("trylock", "trylock's fast path against sleeping takers", false, 0,
		 T("A", 10, "@0 T0 U0"), T("B", 20, "@1 L0 U0"), T("C", 5, "@2 L0 U0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("adjust-chain-wake", "O releases L0 while X boosts Z, L0's waiter behind W",
		 true, 0, T("O", 1, "@0 L0 f0 B1 B2 U0"), T("W", 10, "@1 W0 L0 U0"),
		 T("Z", 5, "@2 L1 f1 W0 L0 U0 U1"), T("X", 30, "@3 B2 L1 U1"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2"), IDLE("idle/3")),
	SCENARIO("irq-start-twice", "two binds of one device line start its thread at once",
		 true, 0, T("A", 1, "@0 I"), T("B", 2, "@1 I"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("irq-thread-wake", "irq_thread_wake() twice on CPU 1 races the line's thread",
		 true, 0, T("T", 50, "@0 i"), T("H", 0, "@1 R R"), IDLE("idle/0"), IDLE("idle/1")),
	SCENARIO("setprio-woken", "rt_mutex_adjust_pi() of a thread being woken", true, 0,
		 T("W", 5, "@0 w0"), T("S", 0, "@1 s0"), T("P", 50, "@2 p0=40"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("wake-migrate", "W, free to run anywhere, woken from CPU 1 to idle CPU 2",
		 true, 0, T("W", 0, "@0m w0"), T("S", 0, "@1 s0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("setprio-pull", "P raises N, queued on CPU 0, as idle CPU 2 pulls N away",
		 false, 0, T("A", 10, "@0 w0"), T("N", 0, "@0m"), T("P", 50, "@1 p1=40 s0"),
		 IDLE("idle/0"), IDLE("idle/1"), IDLE("idle/2")),
	SCENARIO("pull", "A and B, free to run anywhere, on CPU 0; idle CPU 1 pulls one",
		 true, 0, T("A", 0, "@0m y"), T("B", 0, "@0m y"), IDLE("idle/0"), IDLE("idle/1")),
};
const int sched_nscenarios = sizeof(sched_scenarios) / sizeof(sched_scenarios[0]);
