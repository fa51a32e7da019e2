/* The smp suite: per-CPU areas, APIC IDs, IPIs, cross-CPU calls, a
 * spinlock stress, a contention counted, the tick and one-shot timers on every CPU,
 * an idle CPU pulling a queued thread. */
#include "tests/kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/lock_stat.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "kernel/preempt.h"
#include "sched/sched.h"
#include "sched/migrate.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/cpu.h"

struct where {
	u64 gs_base, self;
	u32 cpu, apic_hw, apic_cpuid;
};

static void where_am_i(void *arg)
{
	struct where *w = arg;
	w->gs_base = rdmsr(MSR_GS_BASE);
	w->self = (u64)this_cpu_read(self);
	w->cpu = raw_smp_processor_id();
	w->apic_hw = apic->id();
	w->apic_cpuid = apic_cpuid_id();
}

static void percpu_areas(struct ktest *t)
{
	KT_EXPECT_EQ(t, nr_cpus_online, nr_cpus_possible);
	/* The online mask and the per-CPU flags say the same thing. */
	u64 flags = 0;
	for_each_online_cpu(c)
		flags |= 1UL << c;
	KT_EXPECT_EQ(t, cpu_online_mask(), flags);
	/* CPUs 0..n-1: (1 << n) - 1, but a shift by 64 is undefined in C
	 * (C11 6.5.7p3; x86 masks the count, so it gave 0 with -smp 64). */
	KT_EXPECT_EQ(t, cpu_online_mask(),
		     nr_cpus_online >= 64 ? ~0UL : (1UL << nr_cpus_online) - 1);
	for_each_online_cpu(c) {
		struct where w = { 0 };
		KT_ASSERT_EQ(t, smp_call_function_single(c, where_am_i, &w, true), 0);
		/* smp_call_function_single ran on that CPU and says so. */
		KT_EXPECT_EQ(t, w.cpu, c);
		KT_EXPECT_EQ(t, w.gs_base, (u64)&percpu_area[c]);
		KT_EXPECT_EQ(t, w.self, (u64)&percpu_area[c]);
		for_each_online_cpu(d)
			if (d != c)
				KT_EXPECT(t, &percpu_area[c] != &percpu_area[d]);
	}
}

static void apic_ids(struct ktest *t)
{
	for_each_online_cpu(c) {
		struct where w = { 0 };
		smp_call_function_single(c, where_am_i, &w, true);
		KT_EXPECT_EQ(t, w.apic_hw, per_cpu(apic_id, c));
		KT_EXPECT_EQ(t, w.apic_cpuid, w.apic_hw);
	}
	ktest_diag(t, "%u CPUs, %s", nr_cpus_online, apic->name);
}

static volatile u64 pongs;
static volatile u64 pinged_mask;

static void pong(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&pongs, 1, __ATOMIC_SEQ_CST);
}

static void ping(void *arg)
{
	(void)arg;
	__atomic_fetch_or(&pinged_mask, 1UL << raw_smp_processor_id(), __ATOMIC_SEQ_CST);
	smp_call_function_single(0, pong, NULL, false); /* and back, by IPI */
}

static void ipi_round_trip(struct ktest *t)
{
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU");
	pongs = 0;
	pinged_mask = 0;
	u64 recv_before[MAX_CPUS];
	for_each_online_cpu(c)
		recv_before[c] = per_cpu(stats.call_function_ipis, c);
	u32 sent = 0;
	for_each_online_cpu(c) {
		if (c == 0)
			continue;
		smp_call_function_single(c, ping, NULL, true);
		sent++;
	}
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	while (READ_ONCE(pongs) < sent && ktime_get_ns() < end)
		cpu_relax();
	KT_EXPECT_EQ(t, pongs, sent);
	KT_EXPECT_EQ(t, pinged_mask, cpu_online_mask() & ~1UL);
	for_each_online_cpu(c)
		KT_EXPECT_OP(t, per_cpu(stats.call_function_ipis, c), >, recv_before[c]);
}

static void broadcast(struct ktest *t)
{
	pinged_mask = 0;
	pongs = 0;
	preempt_disable();
	u32 self = raw_smp_processor_id();
	preempt_enable();
	smp_call_function_many(~0UL, ping, NULL, true);
	u64 others = cpu_online_mask() & ~(1UL << self);
	KT_EXPECT_EQ(t, pinged_mask, others);
}

struct stress {
	raw_spinlock_t lock;
	volatile u64 counter;
	u64 per_thread;
	u64 deadline;              /* guest time: stop here on a slow host */
	u64 done[MAX_CPUS];        /* round trips each thread made */
};

static void stress_fn(void *arg)
{
	struct stress *s = arg;
	u64 i = 0;
	for (; i < s->per_thread && ktime_get_ns() < s->deadline; i++) {
		u64 f = raw_spin_lock_irqsave(&s->lock);
		s->counter = s->counter + 1; /* a non-atomic read-modify-write */
		raw_spin_unlock_irqrestore(&s->lock, f);
	}
	s->done[current_thread()->cpu] = i;
}

static void spinlock_stress(struct ktest *t)
{
	static struct stress s;
	struct thread *th[MAX_CPUS];
	raw_spin_lock_init(&s.lock, "stress");
	s.counter = 0;
	/* About 40000 lock round trips in all. With more vCPUs than free host
	 * cores (-smp 16 on 2 cores, or -smp 4 beside another busy QEMU) a
	 * ticket lock convoys behind descheduled vCPUs, each hand-off waiting
	 * for the host to run the next ticket's thread: so the stress also
	 * stops after 5 s of guest time, and then needs 1000 round trips. */
	s.per_thread = 40000 / nr_cpus_online;
	u64 start = ktime_get_ns();
	s.deadline = start + 5 * NSEC_PER_SEC;
	u32 n = 0, missing = 0;
	for_each_online_cpu(c) {
		s.done[c] = 0;
		struct thread *x = thread_create(stress_fn, &s, "stress", 0, 1UL << c);
		if (x)
			th[n++] = x;
		else
			missing++; /* no kernel stack or memory left */
	}
	for (u32 i = 0; i < n; i++)
		thread_join(th[i]);
	KT_EXPECT_EQ(t, missing, 0);
	u64 total = 0;
	for_each_online_cpu(c)
		total += s.done[c];
	/* Not one increment lost: the lock excluded every other CPU. */
	KT_EXPECT_EQ(t, s.counter, total);
	KT_EXPECT_OP(t, total, >=, (u64)1000);
	ktest_diag(t, "%llu lock round trips on %u CPUs in %llu ms%s",
		   (unsigned long long)total, n,
		   (unsigned long long)((ktime_get_ns() - start) / NSEC_PER_MSEC),
		   total < s.per_thread * n ? " (stopped at the time budget: a slow host)" : "");
}

/* lock_stat (kernel/locking/lock_stat.h): this CPU holds a lock while a
 * thread on another CPU takes it. The holder lets go only once the waiter
 * has drawn its ticket (two outstanding), so the wait is certain whatever
 * the timing, and exactly one contended acquisition is counted for the
 * lock's class; an uncontended lock and unlock counts none. */
struct contend {
	raw_spinlock_t lock;
	volatile int go;
};

static void contend_fn(void *arg)
{
	struct contend *c = arg;
	while (!READ_ONCE(c->go))
		cpu_relax();
	raw_spin_lock(&c->lock);
	raw_spin_unlock(&c->lock);
}

static void contention_counted(struct ktest *t)
{
	static struct contend c;
	if (nr_cpus_online < 2) {
		KT_SKIP(t, "one CPU: nobody to contend with");
		return;
	}
	raw_spin_lock_init(&c.lock, "ktest_contend");
	c.go = 0;
	u64 before = lock_stat_contentions("ktest_contend");
	raw_spin_lock(&c.lock);
	raw_spin_unlock(&c.lock);
	KT_EXPECT_EQ(t, lock_stat_contentions("ktest_contend"), before);
	migrate_disable(); /* the waiter must be on another CPU than the holder */
	u32 me = raw_smp_processor_id();
	struct thread *x = thread_create(contend_fn, &c, "contend", 0,
					 cpu_online_mask() & ~(1UL << me));
	if (!x) {
		migrate_enable();
		KT_ASSERT(t, x);
	}
	raw_spin_lock(&c.lock);
	c.go = 1;
	u64 deadline = ktime_get_ns() + NSEC_PER_SEC;
	while (READ_ONCE(c.lock.next) - READ_ONCE(c.lock.serving) < 2 && ktime_get_ns() < deadline)
		cpu_relax();
	bool waiting = READ_ONCE(c.lock.next) - READ_ONCE(c.lock.serving) == 2;
	raw_spin_unlock(&c.lock);
	migrate_enable();
	thread_join(x);
	KT_ASSERT(t, waiting);
	KT_EXPECT_EQ(t, lock_stat_contentions("ktest_contend"), before + 1);
}

static void tick_everywhere(struct ktest *t)
{
	u64 before[MAX_CPUS];
	for_each_online_cpu(c)
		before[c] = tick_count(c);
	sleep_ns(20 * NSEC_PER_MSEC);
	for_each_online_cpu(c)
		KT_EXPECT_OP(t, tick_count(c), >, before[c]);
}

struct oneshot {
	struct hrtimer timer;
	volatile int fired;
	u64 late_ns;
	bool early;
};

static void oneshot_fn(struct hrtimer *timer)
{
	struct oneshot *o = container_of(timer, struct oneshot, timer);
	u64 now = ktime_get_ns();
	o->early = now < timer->expires;
	o->late_ns = now - timer->expires;
	o->fired = 1;
}

static void arm_oneshot(void *arg)
{
	struct oneshot *o = arg;
	hrtimer_init(&o->timer, oneshot_fn);
	hrtimer_start(&o->timer, ktime_get_ns() + 300 * NSEC_PER_USEC);
}

/* Fires no earlier than asked, and within a bound: under -icount
 * (clock=icount) virtual time is the instruction count of every vCPU, run
 * one after another, so the lateness is the interrupt path plus what the
 * other vCPUs run before this one gets its turn (their ticks, all due at
 * about the same time): 50 us plus 1 us per CPU (-smp 64 measured up to
 * 57 us, -smp 32 up to 22 us). Wall-clock TCG shares 2 host cores among
 * all vCPUs, so a vCPU may wait for the host scheduler: 100 ms there. */
static void oneshot_timer(struct ktest *t)
{
	for_each_online_cpu(c) {
		static struct oneshot o;
		o.fired = 0;
		smp_call_function_single(c, arm_oneshot, &o, true);
		u64 end = ktime_get_ns() + NSEC_PER_SEC;
		while (!READ_ONCE(o.fired) && ktime_get_ns() < end)
			cpu_relax();
		KT_EXPECT(t, o.fired);
		KT_EXPECT(t, !o.early);
		/* How late: under icount only. On the wall clock a loaded host
		 * stalls a vCPU for longer than any fixed bound (130 ms seen). */
		if (clock_icount)
			KT_EXPECT_OP(t, o.late_ns, <, (50 + nr_cpus_online) * NSEC_PER_USEC);
		ktest_diag(t, "CPU %u: one-shot timer fired %llu ns after its deadline", c,
			   (unsigned long long)o.late_ns);
	}
}

/* An idle CPU pulls a queued thread that may run there (sched_pull_work(),
 * which looks only at run queues holding such a thread: migratory_queued).
 * M, allowed here and on X, is woken while both CPUs are busy, so it
 * queues here, behind this thread, which then keeps the CPU with
 * preemption off; when X's hog leaves, X goes idle and must take M.
 * It takes microseconds; the bound is for a host that stalls a vCPU. */
struct pull {
	volatile int hog_running, hog_leave, m_cpu;
};

static void pull_hog(void *arg)
{
	struct pull *p = arg;
	p->hog_running = 1;
	while (!READ_ONCE(p->hog_leave))
		cpu_relax();
}

static void pull_m(void *arg)
{
	struct pull *p = arg;
	WRITE_ONCE(p->m_cpu, (int)raw_smp_processor_id());
}

static void idle_cpu_pulls_queued_thread(struct ktest *t)
{
	static struct pull p;
	if (nr_cpus_online < 2)
		KT_SKIP(t, "one CPU: no CPU to pull to");
	u32 self = raw_smp_processor_id(), x = self ? 0 : 1;
	if (current_thread()->allowed_cpus != 1UL << self)
		KT_SKIP(t, "the suite's thread may move: M would not queue behind it");
	p = (struct pull){ .m_cpu = -1 };
	struct thread *hog = thread_create(pull_hog, &p, "pull-hog", 50, 1UL << x);
	struct thread *m = kthread_create(pull_m, &p, "pull-m", PRIO_NORMAL,
					  (1UL << self) | (1UL << x));
	if (!hog || !m) { /* no hog left spinning on X, no M left unstarted */
		WRITE_ONCE(p.hog_leave, 1);
		if (m) {
			wake_up_thread(m);
			thread_join(m);
		}
		if (hog)
			thread_join(hog);
		KT_ASSERT(t, hog && m);
	}
	u64 end = ktime_get_ns() + 500 * NSEC_PER_MSEC;
	while (!READ_ONCE(p.hog_running) && ktime_get_ns() < end)
		cpu_relax();
	m->cpu = (int)self; /* both busy: select_cpu() keeps it where it was */
	preempt_disable();
	wake_up_thread(m);
	int queued_on = READ_ONCE(m->cpu);
	WRITE_ONCE(p.hog_leave, 1);
	end = ktime_get_ns() + 500 * NSEC_PER_MSEC;
	while (READ_ONCE(p.m_cpu) < 0 && ktime_get_ns() < end)
		cpu_relax();
	int ran_on = READ_ONCE(p.m_cpu);
	preempt_enable(); /* not pulled: M runs here now */
	thread_join(m);
	thread_join(hog);
	KT_EXPECT_EQ(t, queued_on, (int)self);
	KT_EXPECT_EQ(t, ran_on, (int)x);
}

KTEST_SUITE(smp,
	KTEST_CASE(percpu_areas),
	KTEST_CASE(apic_ids),
	KTEST_CASE(ipi_round_trip),
	KTEST_CASE(broadcast),
	KTEST_CASE(spinlock_stress),
	KTEST_CASE(contention_counted),
	KTEST_CASE(tick_everywhere),
	KTEST_CASE(oneshot_timer),
	KTEST_CASE(idle_cpu_pulls_queued_thread));
