/* Fault injection: should_fail() and its filters (kernel/debug/fault_inject.h). */
#include "kernel/debug/fault_inject.h"
#include "kernel/cmdline.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "sched/sched.h"
#include "mm/mm.h"
#include "lib/parse.h"
#include "lib/string.h"

static bool started;
static u64 seed = 1;
/* Linux's make-it-fail for one kernel thread: the fault_inject suite
 * makes its own thread eligible (fault_inject_task()). */
static struct thread *make_it_fail;

static int set_fail_seed(const char *v)
{
	return parse_u64(v, &seed);
}
early_param(fail_seed, set_fail_seed, seed, "a number (the fault injection generator's seed)", "1");

/* "12" or "-1" into *out (times). */
static int parse_s64(const char *s, s64 *out)
{
	u64 v;
	if (!strcmp(s, "-1")) {
		*out = -1;
		return 0;
	}
	if (parse_u64(s, &v) || v > (u64)INT64_MAX)
		return -1;
	*out = (s64)v;
	return 0;
}

const char *fault_config_parse(const char *v, struct fault_config *c)
{
	char buf[96], *f[5];
	int n = 0;
	if (strlen(v) >= sizeof(buf))
		return "too long";
	strlcpy(buf, v, sizeof(buf));
	for (char *p = buf; n < 5;) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = 0;
	}
	if (n != 4)
		return "expected four numbers: interval,probability,space,times";
	u64 interval, prob, space;
	s64 times;
	if (parse_u64(f[0], &interval) || interval > UINT32_MAX)
		return "the interval is not a number of calls";
	if (parse_u64(f[1], &prob) || prob > 100)
		return "the probability is not a percentage from 0 to 100";
	if (parse_u64(f[2], &space))
		return "the space is not a number of bytes";
	if (parse_s64(f[3], &times))
		return "times is not a count (or -1: no limit)";
	*c = (struct fault_config){ (u32)interval, (u32)prob, space, times };
	return NULL;
}

/* Is this call a user process's (or the make-it-fail thread's), in task
 * context? */
static bool fail_task(void)
{
	if (!in_task())
		return false;
	struct thread *t = current_thread();
	return t->proc || t == READ_ONCE(make_it_fail);
}

bool __should_fail(struct fault_attr *a, u64 size)
{
	if (!READ_ONCE(started) || !fail_task())
		return false;
	bool fail = false;
	u64 f = raw_spin_lock_irqsave(&a->lock);
	if (a->times_left == 0 || a->cfg.probability == 0)
		goto out;
	if (a->space_left > size) { /* Linux: the budget passes first */
		a->space_left -= size;
		goto out;
	}
	a->space_left = 0;
	a->asked++;
	if (a->cfg.interval > 1 && a->asked % a->cfg.interval)
		goto out;
	if (prandom_below(&a->rnd, 100) >= a->cfg.probability)
		goto out;
	fail = true;
	a->injected++;
	if (a->times_left > 0)
		a->times_left--;
out:
	raw_spin_unlock_irqrestore(&a->lock, f);
	return fail;
}

void fault_attr_set(struct fault_attr *a, const struct fault_config *c)
{
	u64 f = raw_spin_lock_irqsave(&a->lock);
	a->space_left = c->space;
	a->times_left = c->times;
	a->asked = 0;
	a->cfg = *c;
	raw_spin_unlock_irqrestore(&a->lock, f);
}

void fault_inject_seed(u64 s)
{
	u64 stream = 0;
	seed = s;
	for_each_fault_attr(a) {
		u64 f = raw_spin_lock_irqsave(&a->lock);
		prandom_seed(&a->rnd, s, stream++);
		a->asked = 0;
		a->injected = 0;
		raw_spin_unlock_irqrestore(&a->lock, f);
	}
}

u64 fault_inject_current_seed(void)
{
	return seed;
}

void fault_inject_start(void)
{
	fault_inject_seed(seed);
	for_each_fault_attr(a) {
		fault_attr_set(a, &a->cfg); /* the boot option's limits */
		if (a->cfg.probability)
			pr_info("fault injection: %s=%u,%u,%llu,%lld, seed %llu\n", a->name,
				a->cfg.interval, a->cfg.probability,
				(unsigned long long)a->cfg.space, (long long)a->cfg.times,
				(unsigned long long)seed);
	}
	__atomic_store_n(&started, true, __ATOMIC_RELEASE);
}

bool fault_inject_started(void)
{
	return READ_ONCE(started);
}

void fault_inject_task(struct thread *t)
{
	WRITE_ONCE(make_it_fail, t);
}

struct fault_attr *fault_attr_find(const char *name)
{
	for_each_fault_attr(a)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

u64 fault_injected_total(void)
{
	u64 n = 0;
	for_each_fault_attr(a)
		n += READ_ONCE(a->injected);
	return n;
}
