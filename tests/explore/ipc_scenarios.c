/* The IPC scenarios: a call on an endpoint and its reply, over the
 * real ipc/endpoint.c and ipc/object.c (tests/explore/ipc_shim.c below
 * them), while a third thread kills one of the two partners, waits for
 * it to exit and reaps it (thread_join()'s put of its struct thread,
 * ipc_state_destroy(), the process freed), the way process/process.c's
 * kill(), do_exit() and wait4() do. C calls, S receives, replies and
 * receives again (ipc_reply_recv()), K kills and reaps.
 *
 * Both partners last ran on CPU 0, so the slow path's direct switch
 * (sched_handoff()) is taken whenever its test passes; K runs on CPU 1.
 * The window: the caller of sched_handoff() ended the partner's wait
 * under the endpoint's lock and dropped it; the kill wakes the partner,
 * which returns, exits and is reaped before the switch. Its memory is
 * poisoned when freed; the shim reports any use of it afterwards as a
 * use-after-free, with the schedule.
 *
 * A kill of S between ipc_reply_recv()'s handoff test (TIF_SIGPENDING)
 * and its SLEEPING store would find S RUNNING and wake nothing; S would
 * then switch away asleep, queued as a receiver, its kill pending until
 * the next call came (a lost wake-up): ipc-call-kill finds it if the
 * store does not come first.
 *
 * What must hold at the end: every thread finished, but for S in
 * ipc-reply-kill, which may be left asleep as a receiver waiting for the
 * next call; C's call returned the reply or -EPIPE (its server died
 * first) when C was not the one killed. */
#include "tests/explore/ipc_scenarios.h"
#include "tests/explore/explore.h"
#include "tests/explore/shim.h"
#include "ipc/ipc.h"
#include "kernel/preempt.h"
#include "mm/mm.h"
#include "process/process.h"
#include "sched/sched.h"
#include "uapi/errno.h"

#include <stdio.h>
#include <string.h>

enum { C, S, K };
/* A scenario's arg: the victim, and REMOTE for C on CPU 1 (no direct
 * switch then: the partner is woken where it ran). */
#define REMOTE 0x10
#define VICTIM (cur->arg & ~REMOTE)

struct party {
	struct thread *t;
	struct process *p;
	struct ipc_state *s;
	long result;
};

static struct party pt[2];
static struct thread killer;
static struct thread *thp[3];
static struct endpoint *ep;
static const struct ex_scenario *cur;
static char why[256];

static void new_party(int i, const char *name)
{
	char buf[32];
	struct thread *t = kzalloc(sizeof(*t));
	struct process *p = kzalloc(sizeof(*p));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->state = THREAD_RUNNING;
	t->allowed_cpus = 1; /* CPU 0 */
	t->usage = 1;        /* thread_join()'s */
	t->proc = p;
	INIT_LIST_HEAD(&t->pi_locks);
	p->pid = 10 + i;
	p->thread = t;
	p->state = PROC_RUNNING;
	p->ipc = ipc_state_create(p, t);
	pt[i] = (struct party){ t, p, p->ipc, 1 };
	snprintf(buf, sizeof(buf), "%s's struct thread", name);
	shim_heap_name(t, buf);
	snprintf(buf, sizeof(buf), "%s's struct process", name);
	shim_heap_name(p, buf);
	snprintf(buf, sizeof(buf), "%s's ipc_state", name);
	shim_heap_name(p->ipc, buf);
	thp[i] = t;
}

static void reset(const struct ex_scenario *sc)
{
	cur = sc;
	shim_heap_reset();
	new_party(C, "C");
	new_party(S, "S");
	if (sc->arg & REMOTE) {
		pt[C].t->cpu = 1;
		pt[C].t->allowed_cpus = 2;
	}
	memset(&killer, 0, sizeof(killer));
	snprintf(killer.name, sizeof(killer.name), "K");
	killer.cpu = 1;
	INIT_LIST_HEAD(&killer.pi_locks);
	thp[K] = &killer;
	ep = endpoint_create();
	shim_heap_name(ep, "the endpoint");
	/* S holds the creator's reference, with the right to receive; C a
	 * handle to send (and call). */
	handle_install(pt[S].s, &ep->obj, 0, RIGHT_SEND | RIGHT_RECV);
	kobject_get(&ep->obj);
	handle_install(pt[C].s, &ep->obj, 0, RIGHT_SEND);
	shim_reset(thp, 3, NULL, 0);
}

static bool is_dead(const void *arg)
{
	return ((const struct thread *)arg)->state == THREAD_DEAD;
}

static bool kill_pending(const void *arg)
{
	return fatal_signal_pending((struct process *)arg);
}

/* The return to user mode (exit_to_user_mode()), where a fatal signal
 * pending is acted on: do_exit()'s IPC part (the caller of a dying server
 * learns it died, the handles close), then thread_exit()'s THREAD_DEAD,
 * which lets the reaper in. After its last IPC, the victim runs on in
 * user mode until the kill comes. */
static bool exits_if_killed(int i, bool last)
{
	struct party *me = &pt[i];
	ex_point1(me->p, EX_READ, last && i == VICTIM ? kill_pending : NULL, me->p);
	if (!fatal_signal_pending(me->p)) {
		ex_log("back in user mode, no fatal signal");
		return false;
	}
	ex_activity("do_exit()");
	ex_log("a fatal signal is pending: exits");
	ipc_state_exit(me->s);
	ex_point1(me->t, EX_WRITE, NULL, NULL);
	me->p->state = PROC_ZOMBIE;
	me->t->state = THREAD_DEAD;
	ex_log("%s's state = DEAD", me->t->name);
	return true;
}

static void client(int self)
{
	(void)self;
	struct ipc_state *s = pt[C].s;
	s->msg.w[0] = 1;
	ex_activity("ipc_send(call)");
	pt[C].result = ipc_send(s, ep, 7, true);
	ex_log("the call returns %ld", pt[C].result);
	exits_if_killed(C, true);
}

static void server(int self)
{
	(void)self;
	struct ipc_state *s = pt[S].s;
	ex_activity("ipc_recv()");
	long r = ipc_recv(s, ep);
	ex_log("ipc_recv() returns %ld", r);
	if (exits_if_killed(S, false))
		return;
	s->msg.w[0] = 2; /* the reply */
	ex_activity("ipc_reply_recv()");
	r = ipc_reply_recv(s, ep);
	ex_log("ipc_reply_recv() returns %ld", r);
	exits_if_killed(S, true);
}

/* kill() (send_fatal()), wait4() and release(): the victim's thread
 * joined (thread_join()'s put), its ipc_state and process freed. */
static void kill_and_reap(int self)
{
	(void)self;
	struct party *v = &pt[VICTIM];
	struct thread *t = v->t;
	ex_activity("kill(%s)", t->name);
	struct ex_op op = { { v->p, v->s }, { EX_WRITE, EX_WRITE } };
	ex_point(&op, NULL, NULL);
	v->p->kill_sig = 9; /* SIGKILL (uapi/syscall.h, whose names clash with libc's) */
	t->flags |= _TIF_SIGPENDING;
	ex_log("%s: kill_sig = SIGKILL, TIF_SIGPENDING", t->name);
	wake_up_thread(t);
	ex_activity("wait4(%s)", t->name);
	ex_point1(t, EX_READ, is_dead, t);
	ex_log("%s is DEAD: reaps it", t->name);
	ex_activity("thread_join(%s)", t->name);
	ex_point1(t, EX_WRITE, NULL, NULL);
	ex_log("put_task_struct(%s): usage %u -> %u", t->name, t->usage, t->usage - 1);
	put_task_struct(t);
	ex_activity("release(%s)", ex_thread_name(VICTIM)); /* t is freed */
	ex_point1(v->s, EX_WRITE, NULL, NULL);
	ex_log("ipc_state_destroy()");
	ipc_state_destroy(v->s);
	kfree(v->p);
}

static const char *check_end(void)
{
	for (int i = 0; i < 3; i++) {
		if (ex_thread_done(i))
			continue;
		struct ipc_state *s = i < K ? pt[i].s : NULL;
		if (i == S && VICTIM == C && s->wait == IPC_WAIT_RECV && !list_empty(&s->node))
			continue; /* asleep, queued: waits for the next call */
		snprintf(why, sizeof(why), "%s never finishes (%s, wait %d): a lost wake-up",
			 thp[i]->name, shim_state_str(thp[i]->state), s ? s->wait : -1);
		return why;
	}
	long r = pt[C].result;
	if (VICTIM == S && r != -EPIPE && !(r == 0 && pt[C].s->msg.w[0] == 2)) {
		snprintf(why, sizeof(why), "C's call returns %ld with word %llu: neither S's "
			 "reply (2) nor -EPIPE", r, (unsigned long long)pt[C].s->msg.w[0]);
		return why;
	}
	return NULL;
}

#define IPC_SCENARIO(nm, w, q, victim) {                                      \
	.name = nm, .what = w, .quick = q, .arg = victim, .nthreads = 3,      \
	.threads = { { "C", 0, client, NULL }, { "S", 0, server, NULL },       \
		     { "K", 0, kill_and_reap, NULL } },                        \
	.reset = reset, .check_end = check_end, .object = ipc_object }

const struct ex_scenario ipc_scenarios[] = {
	IPC_SCENARIO("ipc-call-kill", "C's call hands off to S; K kills S, which exits, is reaped",
		     true, S),
	IPC_SCENARIO("ipc-reply-kill", "S's reply_recv hands off to C; K kills C, which exits, is reaped",
		     false, C),
	IPC_SCENARIO("ipc-reply-kill-remote", "S's reply_recv wakes C on another CPU; K kills C, "
		     "which exits, is reaped", false, C | REMOTE),
};
const int ipc_nscenarios = sizeof(ipc_scenarios) / sizeof(ipc_scenarios[0]);
