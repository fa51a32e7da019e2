/* Fault injection, after Linux's (Documentation/fault-injection/
 * fault-injection.rst, lib/fault-inject.c): an allocator asks
 * should_fail(attr, size) first and, when told to, fails at once, so that
 * its callers' error paths run on demand rather than once a year. One
 * struct fault_attr per allocator, defined beside it:
 *
 *   failslab            kmalloc(), kzalloc(): NULL          mm/fault_attrs.c
 *   fail_page_alloc     frame_alloc*(): 0                   mm/fault_attrs.c
 *   fail_stack_alloc    stack_alloc(): 0                    mm/fault_attrs.c
 *   fail_kobject_alloc  endpoint_create(),
 *                       notification_create(): NULL         ipc/object.c
 *
 * Each is set at boot by the option of its name, Linux's format
 *
 *   failslab=<interval>,<probability>,<space>,<times>
 *
 * probability: the percent of eligible calls that fail (0: off);
 * interval: only every interval-th eligible call may fail (0 or 1: any);
 * space: eligible calls pass until this many bytes have been asked for;
 * times: failures at most, -1 for no limit. fail_seed=N seeds the
 * generator (lib/prandom.h, one stream per attr), so that under -icount
 * a run fails the same calls every time. The shell's `fail` shows each
 * attr and sets it (shell/shell_fail.c).
 *
 * A call is eligible only where a failure is an answer and not a crash:
 *   - after the boot (fault_inject_start(), from init/init.c): nothing the
 *     kernel sets up for itself is failed;
 *   - in a user process's system call, in task context (Linux's
 *     task-filter): the caller can return -ENOMEM to user space; kernel
 *     threads, the shell and the tests are never failed.
 * Every allocator a system call reaches hands its failure back to the
 * caller (the audit in docs/08-testing.md), so no caller is exempted. */
#ifndef FOLD_KERNEL_FAULT_INJECT_H
#define FOLD_KERNEL_FAULT_INJECT_H
#include "lib/types.h"
#include "lib/prandom.h"
#include "kernel/locking/spinlock.h"
#include "kernel/cmdline.h"

struct thread;

/* What the boot option and the shell set. */
struct fault_config {
	u32 interval;
	u32 probability;   /* percent, 0-100 */
	u64 space;         /* bytes */
	s64 times;         /* -1: no limit */
};

struct fault_attr {
	const char *name;
	struct fault_config cfg;
	/* Under lock: */
	u64 space_left;    /* what is left of cfg.space */
	s64 times_left;    /* of cfg.times: failures still allowed, -1 any */
	u64 asked;         /* eligible calls (past every filter) */
	u64 injected;      /* failures injected */
	struct prandom_state rnd;
	raw_spinlock_t lock;  /* raw: asked from inside the allocators */
};

#define FAULT_CONFIG_OFF { 1, 0, 0, -1 }

/* DEFINE_FAULT_ATTR(failslab): the attr, registered for the shell and
 * fault_inject_start() in the .fault_attrs section (linker.ld), and its
 * boot option failslab= (kernel/cmdline.h; the key is also listed in
 * CMDLINE_KEYS). */
#define DEFINE_FAULT_ATTR(attr)                                                         \
	struct fault_attr attr = { #attr, FAULT_CONFIG_OFF, 0, -1, 0, 0, { 1 },        \
				   RAW_SPINLOCK_INIT(#attr) };                                \
	static struct fault_attr *const __fault_attr_##attr                             \
		__attribute__((used, section(".fault_attrs"), aligned(8))) = &attr;     \
	static int set_##attr(const char *v)                                            \
	{                                                                               \
		return fault_config_parse(v, &attr.cfg) ? -1 : 0;                      \
	}                                                                               \
	early_param(attr, set_##attr, attr.cfg, FAULT_CONFIG_EXPECT, "off")

#define FAULT_CONFIG_EXPECT "interval,probability,space,times (e.g. 1,10,0,-1: 10% of calls)"

/* "1,10,0,-1" into *c: 0, or a message saying what is wrong (c untouched). */
const char *fault_config_parse(const char *v, struct fault_config *c);

bool __should_fail(struct fault_attr *attr, u64 size);
/* Should this allocation of size bytes fail? Inline: with the attr off
 * (probability 0, the default) an allocation pays one load and a branch. */
static inline bool should_fail(struct fault_attr *attr, u64 size)
{
	if (likely(!READ_ONCE(attr->cfg.probability)))
		return false;
	return __should_fail(attr, size);
}

/* Set an attr's configuration: its space, times and interval count start
 * again (the injected count goes on). */
void fault_attr_set(struct fault_attr *attr, const struct fault_config *c);
/* Every attr's generator from seed (stream i for the i-th attr); the
 * counters of asked and injected calls start again. */
void fault_inject_seed(u64 seed);
u64 fault_inject_current_seed(void);
/* The boot is done: from here on calls may be failed. */
void fault_inject_start(void);
bool fault_inject_started(void);
/* Linux's make-it-fail for one kernel thread (NULL: none): its calls are
 * eligible as a user process's are. For the fault_inject suite. */
void fault_inject_task(struct thread *t);

extern struct fault_attr *const _fault_attrs_start[], *const _fault_attrs_end[];
#define for_each_fault_attr(a)                                                          \
	for (struct fault_attr *const *a##_p = _fault_attrs_start, *a;                  \
	     a##_p < _fault_attrs_end && ((a = *a##_p), true); a##_p++)
struct fault_attr *fault_attr_find(const char *name);
/* The sum of every attr's injected failures. */
u64 fault_injected_total(void);
#endif
