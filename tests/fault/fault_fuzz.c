/* The fuzzers under fault injection (tests/fault/fault_fuzz.h). */
#include "tests/fault/fault_fuzz.h"
#include "tests/fault/leak_check.h"
#include "tests/kernel/user_run.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/time/time.h"
#include "kernel/printk.h"
#include "process/process.h"
#include "ipc/ipc.h"
#include "mm/mm.h"
#include "sched/sched.h"
#include "uapi/syscall.h"
#include "lib/format.h"
#include "lib/string.h"

/* Adding an allocator to the set is one line here. */
struct fault_attr *const fault_fuzz_attrs[] = {
	&failslab,
	&fail_page_alloc,
	&fail_kobject_alloc,
	&fail_stack_alloc,
	NULL,
};

/* A run stops here whatever its count (virtual time under -icount). */
#define RUN_BUDGET_NS (120 * NSEC_PER_SEC)

static const char *const fuzzer_name[] = { "sysfuzz", "ipcfuzz" };

static u64 processes_now(void)
{
	struct leak_snapshot s;
	leak_snapshot(&s);
	return s.processes;
}

/* Every process of the run gone: an orphan a fuzzer left (a child it did
 * not wait for) is reaped once it has exited. */
static void settle(u64 processes_before)
{
	for (int i = 0; i < 1000; i++) {
		process_reap_detached();
		if (processes_now() <= processes_before)
			return;
		sleep_ns(NSEC_PER_MSEC);
	}
}

static struct user_run sys_run;

static void run_sysfuzz(struct fault_fuzz_run *r)
{
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "sysfuzz calls=%llu seed=%llu spawn=true",
		 (unsigned long long)r->count, (unsigned long long)r->seed);
	u64 calls = stat_sum(syscalls);
	user_run(&sys_run, cmd, 0);
	r->calls = stat_sum(syscalls) - calls;
	r->fuzzers = 1;
	/* Its children's fate, for the log: how many spawns injection failed. */
	char *spawned = strstr(sys_run.out, "sysfuzz: spawned ");
	if (spawned) {
		char *nl = strchr(spawned, '\n');
		if (nl)
			*nl = 0;
		pr_info("fault fuzz: %s\n", spawned);
	}
	if (sys_run.err || !WIFEXITED(sys_run.status) || WEXITSTATUS(sys_run.status)) {
		pr_err("fault fuzz: %s: error %d, wait status 0x%x\n", cmd, sys_run.err,
		       sys_run.status);
		r->bad++;
	}
}

/* ---- four ipcfuzz sharing four handles, as the ipc suite's fuzz_four */

#define IPC_FUZZERS 4
static struct ipc_state *kstate;
static struct process *fz[IPC_FUZZERS];
static const int shared[] = { 0, 1, 2, 3 };

static struct process *start_ipcfuzz(int i, u64 ops, u64 seed)
{
	char o[32], sd[32];
	snprintf(o, sizeof(o), "ops=%llu", (unsigned long long)ops);
	snprintf(sd, sizeof(sd), "seed=%llu", (unsigned long long)seed);
	const char *argv[] = { "ipcfuzz", o, sd, "spawn=true" };
	u64 cpus = nr_cpus_online > 1 ? 1UL << (i % 2) : 0;
	struct spawn_args a = { "ipcfuzz", 4, argv, NULL, false, cpus, kstate, 4, shared };
	int err = 0;
	return process_spawn(&a, &err);
}

static bool ipcfuzz_ended_well(int status)
{
	return (WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
	       (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Kernel-side handles the fuzzers start with: two endpoints with every
 * right, a notification, a badged send-only copy of the first. */
static bool ipc_setup(void)
{
	kstate = ipc_state_create(NULL, current_thread());
	struct endpoint *a = endpoint_create(), *b = endpoint_create();
	struct notification *n = notification_create();
	if (!kstate || !a || !b || !n) {
		pr_err("fault fuzz: out of memory for the shared handles\n");
		return false;
	}
	handle_install(kstate, &a->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	handle_install(kstate, &b->obj, 0, RIGHT_SEND | RIGHT_RECV | RIGHT_GRANT);
	handle_install(kstate, &n->obj, 0, RIGHT_SIGNAL | RIGHT_WAIT);
	handle_mint(kstate, 0, 7, RIGHT_SEND);
	return true;
}

static void run_ipcfuzz(struct fault_fuzz_run *r)
{
	if (!ipc_setup()) {
		r->bad++;
		goto out;
	}
	u64 seed = r->seed, per = r->count / 2 + 1;
	u64 start = stat_sum(syscalls), last = start, idle = 0;
	u64 end = ktime_get_ns() + RUN_BUDGET_NS;
	int victim = 0;
	user_quiet_begin();
	for (int i = 0; i < IPC_FUZZERS; i++, r->fuzzers++)
		fz[i] = start_ipcfuzz(i, per, seed++);
	while (stat_sum(syscalls) - start < r->count && ktime_get_ns() < end) {
		sleep_ns(NSEC_PER_MSEC);
		for (int i = 0; i < IPC_FUZZERS; i++)
			if (!fz[i] || READ_ONCE(fz[i]->state) == PROC_ZOMBIE) {
				r->bad += fz[i] ? !ipcfuzz_ended_well(process_wait(fz[i])) : 1;
				fz[i] = start_ipcfuzz(i, per, seed++);
				r->fuzzers++;
			}
		/* All of them waiting for partners that never come: kill one
		 * (round robin) and start another. */
		u64 now = stat_sum(syscalls);
		idle = now == last ? idle + 1 : 0;
		last = now;
		if (idle < 2)
			continue;
		if (fz[victim]) {
			process_kill(fz[victim]->pid, SIGKILL);
			r->bad += !ipcfuzz_ended_well(process_wait(fz[victim]));
		}
		fz[victim] = start_ipcfuzz(victim, per, seed++);
		r->fuzzers++;
		victim = (victim + 1) % IPC_FUZZERS;
		idle = 0;
	}
	r->calls = stat_sum(syscalls) - start;
	for (int i = 0; i < IPC_FUZZERS; i++)
		if (fz[i]) {
			process_kill(fz[i]->pid, SIGKILL);
			r->bad += !ipcfuzz_ended_well(process_wait(fz[i]));
			fz[i] = NULL;
		}
	user_quiet_end();
out:
	if (kstate)
		ipc_state_destroy(kstate);
	kstate = NULL;
}

int fault_fuzz_one(struct fault_fuzz_run *r)
{
	struct leak_snapshot before, after;
	r->calls = r->injected = r->fuzzers = r->bad = 0;
	process_reap_detached();
	leak_snapshot(&before);
	u64 t0 = ktime_get_ns();
	struct fault_config on = { 1, r->percent, 0, -1 }, off = FAULT_CONFIG_OFF;
	fault_inject_seed(r->seed);
	fault_attr_set(r->attr, &on);
	if (r->fuzzer == FAULT_FUZZ_SYS)
		run_sysfuzz(r);
	else
		run_ipcfuzz(r);
	fault_attr_set(r->attr, &off);
	r->injected = r->attr->injected;
	settle(before.processes);
	r->ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	leak_snapshot(&after);
	r->leaks = leak_check(&before, &after);
	bool ok = !r->leaks && !r->bad && r->injected;
	printk("fault fuzz: %s, %s at %u%%: %llu system calls, %llu failures injected, "
	       "%llu fuzzer%s, %llu ended badly, %d leaks (%llu ms): %s\n",
	       fuzzer_name[r->fuzzer], r->attr->name, r->percent,
	       (unsigned long long)r->calls, (unsigned long long)r->injected,
	       (unsigned long long)r->fuzzers, r->fuzzers == 1 ? "" : "s",
	       (unsigned long long)r->bad, r->leaks, (unsigned long long)r->ms,
	       ok ? "ok" : !r->injected ? "FAILED (nothing was injected)" : "FAILED");
	return ok ? 0 : -1;
}

int fault_fuzz_matrix(int fuzzer, u64 count, u64 seed)
{
	static const u32 percents[] = FAULT_FUZZ_PERCENTS;
	int failed = 0, runs = 0, i;
	for (i = 0; fault_fuzz_attrs[i]; i++)
		for (size_t p = 0; p < ARRAY_SIZE(percents); p++, runs++) {
			struct fault_fuzz_run r = { .fuzzer = fuzzer, .attr = fault_fuzz_attrs[i],
						    .percent = percents[p], .count = count,
						    .seed = seed };
			failed += fault_fuzz_one(&r) != 0;
		}
	char at[32] = "";
	for (size_t p = 0; p < ARRAY_SIZE(percents); p++)
		snprintf(at + strlen(at), sizeof(at) - strlen(at), " %u%%", percents[p]);
	printk("fault fuzz: %s matrix: %d runs (%d allocators, each at%s), %d %s\n",
	       fuzzer_name[fuzzer], runs, i, at, failed, failed ? "FAILED" : "failed");
	return failed;
}
