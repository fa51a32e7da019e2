/* Lab L5, the IPC fast path's conditions (docs/10-labs.md, L5): the
 * tests in ipc_fastpath() (ipc/fastpath.c) that send a message down the
 * slow path (ipc/endpoint.c) instead.
 *
 * ping calls pong (user/ping.c, user/pong.c) N times, both pinned to one
 * CPU; the fast path's count (ipc_fastpath, over every CPU) says which
 * messages took it. Every call and every reply may take it when both
 * run at one priority with no payload; none with a payload; and only the
 * messages to a partner of no lower priority when one is FIFO. ping
 * checks every reply (exit status 0). Each seed varies N, the payload's
 * size, the FIFO priority and the CPU. */
#include "tests/labs/lab.h"
#include "tests/kernel/user_run.h"
#include "process/process.h"
#include "kernel/percpu.h"
#include "sched/sched.h"
#include "ipc/ipc.h"
#include "uapi/syscall.h"
#include "lib/format.h"
#include "kernel/preempt.h"
#include "kernel/entry/common.h"
#include "kernel/time/hrtimer.h"
#include "arch/x86_64/kernel/nmi.h"
#include "arch/x86_64/kernel/apic/apic.h"
#include "arch/x86_64/kernel/timer.h"
#include "kernel/printk.h"

struct pp_result {
	bool ok;          /* both started, ping exited 0 (every reply right) */
	u64 fast, messages;
};

/* ping (with ping_extra) and pong on `cpu`; pong at pong_prio; with
 * pong_to, once pong sleeps waiting for the first call (still on `cpu`,
 * its last CPU), its allowed CPUs become pong_to's alone. */
static struct pp_result pingpong_to(u32 cpu, u32 calls, const char *ping_extra, int pong_prio,
				    u64 pong_to)
{
	struct pp_result res = { false, 0, 0 };
	struct ipc_state *k = ipc_state_create(NULL, current_thread());
	if (!k)
		return res;
	struct endpoint *ep = endpoint_create();
	int h = handle_install(k, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	char arg[32];
	snprintf(arg, sizeof(arg), "calls=%u", calls);
	const char *pong_argv[] = { "pong" };
	const char *ping_argv[] = { "ping", arg, ping_extra };
	int err = 0;
	u64 fast0 = stat_sum(ipc_fastpath), msg0 = stat_sum(ipc_messages);
	user_quiet_begin();
	struct spawn_args sa = { "pong", 1, pong_argv, NULL, false, 1UL << cpu, k, 1, &h };
	struct process *server = process_spawn(&sa, &err);
	if (server && pong_prio)
		sched_setscheduler(server->thread, pong_prio);
	for (u32 i = 0; server && pong_to && i < 500 &&
			READ_ONCE(server->thread->state) != THREAD_SLEEPING; i++)
		sleep_ns(20 * NSEC_PER_USEC);
	if (server && pong_to)
		thread_set_allowed_cpus(server->thread, pong_to);
	struct spawn_args ca = { "ping", 3, ping_argv, NULL, false, 1UL << cpu, k, 1, &h };
	struct process *client = server ? process_spawn(&ca, &err) : NULL;
	int status = client ? process_wait(client) : -1;
	if (server && !client)
		process_kill(server->pid, SIGKILL);
	if (server)
		process_wait(server);
	user_quiet_end();
	ipc_state_destroy(k);
	res.ok = client && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	res.fast = stat_sum(ipc_fastpath) - fast0;
	res.messages = stat_sum(ipc_messages) - msg0;
	return res;
}

static struct pp_result pingpong(u32 cpu, u32 calls, const char *ping_extra, int pong_prio)
{
	return pingpong_to(cpu, calls, ping_extra, pong_prio, 0);
}

static bool have_programs(struct ktest *t)
{
	return user_have(t, "ping") && user_have(t, "pong");
}

static u32 pick_cpu(struct prandom_state *rs)
{
	return prandom_below(rs, lab_cpu_x() + 1);
}

static void same_cpu_calls_take_the_fast_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 1);
		u32 calls = 100 + prandom_below(&rs, 200), cpu = pick_cpu(&rs);
		struct pp_result r = pingpong(cpu, calls, "bytes=0", 0);
		/* 2 per call, less the first call and reply (pong's first recv
		 * waits on the slow path) and now and then a tick's request. */
		bool ok = r.ok && r.fast >= 2 * calls * 9 / 10;
		if (!ok)
			lab_fail(t, "seed %llu: %u calls with no payload, ping and pong on CPU %u, "
				   "one priority: %llu of %llu messages by the fast path (expected at "
				   "least %u)%s", (unsigned long long)seed, calls, cpu,
				   (unsigned long long)r.fast, (unsigned long long)r.messages,
				   2 * calls * 9 / 10, r.ok ? "" : "; ping failed: a reply was wrong");
	}
}

static void payload_takes_the_slow_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 2);
		u32 calls = 50 + prandom_below(&rs, 100), cpu = pick_cpu(&rs);
		u32 bytes = 1 + prandom_below(&rs, IPC_BUF_MAX);
		char arg[24];
		snprintf(arg, sizeof(arg), "bytes=%u", bytes);
		struct pp_result r = pingpong(cpu, calls, arg, 0);
		/* ping's probe, pong's answer to it and ping's quit carry none. */
		bool ok = r.ok && r.fast <= 3;
		if (!ok)
			lab_fail(t, "seed %llu: %u calls of %u bytes on CPU %u: %llu of %llu messages "
				   "by the fast path (expected at most 3: it moves no payload)%s",
				   (unsigned long long)seed, calls, bytes, cpu, (unsigned long long)r.fast,
				   (unsigned long long)r.messages,
				   r.ok ? "" : "; ping failed: a reply was wrong");
	}
}

static void lower_priority_partner_takes_the_slow_path(struct ktest *t)
{
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 3);
		for (int fifo_ping = 0; fifo_ping < 2; fifo_ping++) {
			u32 calls = 100 + prandom_below(&rs, 200), cpu = pick_cpu(&rs);
			int prio = 1 + (int)prandom_below(&rs, 99);
			char arg[16];
			snprintf(arg, sizeof(arg), fifo_ping ? "prio=%d" : "bytes=0", prio);
			struct pp_result r = pingpong(cpu, calls, arg, fifo_ping ? 0 : prio);
			/* One way only: the calls (FIFO pong) or the replies (FIFO ping). */
			bool ok = r.ok && r.fast >= calls * 8 / 10 && r.fast <= calls + 3;
			if (!ok)
				lab_fail(t, "seed %llu: %u calls on CPU %u, %s FIFO %d, the other "
					   "normal: %llu of %llu messages by the fast path (expected "
					   "%u..%u: those to the FIFO side only)%s",
					   (unsigned long long)seed, calls, cpu, fifo_ping ? "ping" : "pong",
					   prio, (unsigned long long)r.fast, (unsigned long long)r.messages,
					   calls * 8 / 10, calls + 3,
					   r.ok ? "" : "; ping failed: a reply was wrong");
		}
		/* A partner that last ran here but may no longer run here (its
		 * allowed CPUs changed while it slept): every message slow. */
		u32 x = lab_cpu_x(), cpu = pick_cpu(&rs), calls = 20 + prandom_below(&rs, 20);
		if (!x)
			continue;
		struct pp_result r = pingpong_to(cpu, calls, "bytes=0", 0, 1UL << (cpu ? 0 : x));
		if (!r.ok || r.fast)
			lab_fail(t, "seed %llu: %u calls on CPU %u to pong, which slept there when its "
				   "allowed CPUs became CPU %u's alone: %llu of %llu messages by the fast "
				   "path (expected none: the fast path gives this CPU only to a partner "
				   "that may run here)%s", (unsigned long long)seed, calls, cpu,
				   cpu ? 0 : x, (unsigned long long)r.fast, (unsigned long long)r.messages,
				   r.ok ? "" : "; ping failed: a reply was wrong");
	}
}

/* Work pending for the sender: the slow path, where it is done before the
 * sender blocks. ping and pong run on X; from CPU 0 NMIs are sent to X
 * until one finds one of them in user mode, between two messages, and
 * there puts work on it the way a request or a kill does, but without
 * the IPI that would serve it at once (an NMI returns to user mode as it
 * came, with no exit work): the work is pending at its next system call,
 * its next message, as it is when the IPI is still on its way then.
 *   a reschedule (TIF_NEED_RESCHED): that message takes the slow path
 *       (the scheduler decides, when the sender blocks, who runs next);
 *   a kill (a fatal signal: TIF_SIGPENDING): that message takes the slow
 *       path, which sees the signal before the sender blocks: it dies
 *       without waiting for an answer, and no message goes by the fast
 *       path from then on. */
static struct {
	struct thread *ping, *pong, *target;
	u64 work;
	bool kill;
	volatile int armed, done;
	u64 fast0, msgs0;
} inj;

/* An interrupt pending on this CPU, or its timer's within 50 us: one
 * that would come before the sender's next call and serve the work
 * there (the APIC's IRR, SDM Vol. 3A 12.8.4; the timer's current count,
 * 12.5.4). Under icount an NMI often arrives together with the timer's
 * interrupt: QEMU runs this vCPU again at its timer's deadline. */
#define APIC_IRR 0x200
static bool irq_due(void)
{
	for (u32 i = 1; i < 8; i++) /* vectors 32..255 */
		if (apic->read(APIC_IRR + 0x10 * i))
			return true;
	u64 left = apic->read(APIC_TIMER_CURRENT);
	return apic_timer_hz && left * NSEC_PER_SEC / apic_timer_hz < 50 * NSEC_PER_USEC;
}

static void inject_nmi(struct pt_regs *regs)
{
	if (!READ_ONCE(inj.armed))
		return;
	struct thread *me = current_thread();
	if (!user_mode(regs) || (me != inj.ping && me != inj.pong) || irq_due()) {
		WRITE_ONCE(inj.armed, 0); /* the sampler sends the next */
		return;
	}
	struct cpu_stats *st = &this_cpu_ptr()->stats;
	inj.fast0 = st->ipc_fastpath;
	inj.msgs0 = st->ipc_messages;
	inj.target = me;
	if (inj.kill) {
		int none = 0;
		__atomic_compare_exchange_n(&me->proc->kill_sig, &none, SIGKILL, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	__atomic_fetch_or(&me->flags, inj.work, __ATOMIC_SEQ_CST);
	WRITE_ONCE(inj.armed, 0);
	WRITE_ONCE(inj.done, 1);
}

/* The NMIs come from a timer on this CPU, every few us: under icount
 * QEMU runs X until the next timer deadline of any CPU, so each of this
 * timer's deadlines stops X at a point of its own, where the NMI then
 * finds it. (Sent from a thread spinning here instead, an NMI finds X
 * where QEMU's round robin last stopped it, each a slice apart.) */
static struct {
	struct hrtimer timer;
	u32 x, left, rnd;
} sampler;

static void sample(struct hrtimer *h)
{
	if (READ_ONCE(inj.done) || !sampler.left)
		return;
	if (!READ_ONCE(inj.armed)) { /* the last NMI was taken */
		sampler.left--;
		WRITE_ONCE(inj.armed, 1);
		arch_send_nmi(sampler.x);
	}
	sampler.rnd = sampler.rnd * 1103515245u + 12345u;
	hrtimer_start(h, ktime_get_ns() + 2 * NSEC_PER_USEC + (sampler.rnd >> 16) % 4000);
}

/* Until an NMI finds ping or pong in user mode on x: true if one did. */
static bool inject(u32 x, struct prandom_state *rs)
{
	sampler.x = x;
	sampler.left = 4000;
	sampler.rnd = (u32)prandom_below(rs, 1u << 31);
	hrtimer_init(&sampler.timer, sample);
	nmi_set_test_handler(inject_nmi);
	preempt_disable(); /* the timer runs on this CPU */
	hrtimer_start(&sampler.timer, ktime_get_ns() + NSEC_PER_USEC);
	preempt_enable();
	lab_spin_until(READ_ONCE(inj.done), 40 * NSEC_PER_MSEC);
	hrtimer_cancel(&sampler.timer);
	lab_spin_until(!READ_ONCE(inj.armed), NSEC_PER_MSEC); /* the last NMI */
	nmi_set_test_handler(NULL);
	return READ_ONCE(inj.done);
}

/* ping (calls without end) and pong on x; ping calling by the fast path. */
static bool start_pair(u32 x, struct ipc_state **k, struct process **server,
		       struct process **client)
{
	*k = ipc_state_create(NULL, current_thread());
	*server = *client = NULL;
	if (!*k)
		return false;
	struct endpoint *ep = endpoint_create();
	int h = handle_install(*k, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	static const char *pong_argv[] = { "pong" };
	static const char *ping_argv[] = { "ping", "calls=100000000", "bytes=0" };
	int err = 0;
	struct spawn_args sa = { "pong", 1, pong_argv, NULL, false, 1UL << x, *k, 1, &h };
	*server = process_spawn(&sa, &err);
	struct spawn_args ca = { "ping", 3, ping_argv, NULL, false, 1UL << x, *k, 1, &h };
	*client = *server ? process_spawn(&ca, &err) : NULL;
	u64 fast = per_cpu(stats.ipc_fastpath, x);
	return *client && lab_spin_until(per_cpu(stats.ipc_fastpath, x) - fast >= 20,
					 5 * NSEC_PER_MSEC);
}

static void stop_pair(struct ipc_state *k, struct process *server, struct process *client)
{
	if (client) {
		process_kill(client->pid, SIGKILL);
		process_wait(client);
	}
	if (server) {
		process_kill(server->pid, SIGKILL);
		process_wait(server);
	}
	if (k)
		ipc_state_destroy(k);
}

static void pending_work_takes_the_slow_path(struct ktest *t)
{
	u32 x = lab_cpu_x();
	if (!x)
		KT_SKIP(t, "one CPU: the work is put on the sender from another");
	if (!have_programs(t))
		return;
	u64 seed;
	for_each_lab_seed(si, seed) {
		struct prandom_state rs;
		prandom_seed(&rs, seed, 4);
		for (int kill = 0; kill < 2; kill++) {
			/* Again if the sender never sent (an interrupt came first, or
			 * for a kill, the message was not the sender's to make). */
			for (u32 attempt = 0; attempt < 3; attempt++) {
				struct ipc_state *k;
				struct process *server, *client;
				user_quiet_begin();
				bool running = start_pair(x, &k, &server, &client);
				inj = (typeof(inj)){ .ping = client ? client->thread : NULL,
						     .pong = server ? server->thread : NULL,
						     .work = kill ? _TIF_SIGPENDING : _TIF_NEED_RESCHED,
						     .kill = kill };
				bool put = running && inject(x, &rs);
				bool ping = put && inj.target == inj.ping;
				if (put && kill) {
					/* it dies, one way or the other */
					process_wait(ping ? client : server);
					if (ping)
						client = NULL;
					else
						server = NULL;
				} else if (put) {
					lab_spin_until(!(READ_ONCE(inj.target->flags) & _TIF_NEED_RESCHED),
						       2 * NSEC_PER_MSEC);
				}
				u64 fast = per_cpu(stats.ipc_fastpath, x) - inj.fast0;
				u64 msgs = per_cpu(stats.ipc_messages, x) - inj.msgs0;
				stop_pair(k, server, client);
				user_quiet_end();
				if (!running) {
					lab_fail(t, "seed %llu: ping and pong on CPU %u did not take the fast "
						 "path (same_cpu_calls_take_the_fast_path): this case, which "
						 "needs it, did not run", (unsigned long long)seed, x);
					return;
				}
				if (!put) {
					lab_fail(t, "seed %llu: no NMI found ping or pong in user mode on CPU "
						 "%u, to put work on it: not your code's doing; rerun the case",
						 (unsigned long long)seed, x);
					break;
				}
				if (!msgs)
					continue;
				bool ok = kill ? !fast : msgs > fast;
				if (!ok)
					lab_fail(t, "seed %llu: %s with %s pending: %llu of the %llu messages "
						 "from then went by the fast path (expected %s): a sender with "
						 "work pending (EXIT_TO_USER_MODE_WORK) takes the slow path%s",
						 (unsigned long long)seed,
						 ping ? "ping called pong" : "pong replied to ping",
						 kill ? "a kill (TIF_SIGPENDING)" : "TIF_NEED_RESCHED",
						 (unsigned long long)fast, (unsigned long long)msgs,
						 kill ? "none" : "its own to go slow",
						 kill ? ", which acts on the signal before the sender blocks" :
							", where the scheduler decides who runs next");
				break;
			}
		}
	}
}

LAB_SUITE(lab_l5,
	KTEST_CASE_TIMED(same_cpu_calls_take_the_fast_path, 50),
	KTEST_CASE_TIMED(payload_takes_the_slow_path, 50),
	KTEST_CASE_TIMED(lower_priority_partner_takes_the_slow_path, 50),
	KTEST_CASE_TIMED(pending_work_takes_the_slow_path, 50));
