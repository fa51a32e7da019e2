/* Leak accounting (tests/fault/leak_check.h). */
#include "tests/fault/leak_check.h"
#include "mm/mm.h"
#include "ipc/ipc.h"
#include "process/process.h"
#include "sched/sched.h"
#include "kernel/printk.h"
#include "lib/format.h"

static void count_thread(struct thread *t, void *arg)
{
	(void)t;
	(*(u64 *)arg)++;
}

static void count_process(struct process *p, void *arg)
{
	(void)p;
	(*(u64 *)arg)++;
}

void leak_snapshot(struct leak_snapshot *s)
{
	u64 threads = 0;
	thread_for_each(count_thread, &threads);
	s->threads = threads;
	s->processes = 0;
	process_for_each(count_process, &s->processes);
	s->stacks = stack_slots_in_use();
	struct kmalloc_usage km;
	kmalloc_usage(&km);
	s->kmalloc_objects = km.objects;
	s->kmalloc_bytes = km.bytes;
	s->kobjects = ipc_objects_live();
	s->handles = ipc_handles_live();
	s->frames_free = frames_free();
	s->frames_kept = km.class_pages + stack_frames_mapped();
}

/* One figure: equal, or equal once what the allocators keep for reuse
 * (kept: a count of the same unit, `how` says whose) is taken off. */
static int figure_kept(const char *what, u64 before, u64 after, s64 kept, const char *how,
		       bool loud)
{
	unsigned long long b = before, a = after;
	if ((s64)(after - before) == kept) {
		if (loud && kept)
			pr_info("leak check: %s %llu before, %llu after (%+lld %s)\n", what, b, a,
				(long long)kept, how);
		else if (loud)
			pr_info("leak check: %s %llu before, %llu after\n", what, b, a);
		return 0;
	}
	char also[96] = "";
	if (kept)
		snprintf(also, sizeof(also), ", %+lld %s counted", (long long)kept, how);
	if (loud)
		pr_err("leak check: %s %llu before, %llu after: LEAK (%+lld%s)\n", what, b, a,
		       (long long)(after - before - kept), also);
	return 1;
}

static int compare(const struct leak_snapshot *b, const struct leak_snapshot *a, bool loud)
{
	/* Frames kmalloc's size classes took, or new stacks, stay with them. */
	s64 kept = (s64)(a->frames_kept - b->frames_kept);
	int bad = figure_kept("frames free", b->frames_free, a->frames_free, -kept,
			      "kept for reuse by kmalloc's size classes and the stack cache", loud);
	bad += figure_kept("kernel stacks in use", b->stacks, a->stacks, 0, NULL, loud);
	bad += figure_kept("kmalloc objects", b->kmalloc_objects, a->kmalloc_objects, 0, NULL,
			   loud);
	bad += figure_kept("kmalloc bytes in use", b->kmalloc_bytes, a->kmalloc_bytes, 0, NULL,
			   loud);
	bad += figure_kept("endpoints and notifications", b->kobjects, a->kobjects, 0, NULL, loud);
	bad += figure_kept("handles", b->handles, a->handles, 0, NULL, loud);
	bad += figure_kept("processes", b->processes, a->processes, 0, NULL, loud);
	bad += figure_kept("threads", b->threads, a->threads, 0, NULL, loud);
	return bad;
}

int leak_check(const struct leak_snapshot *b, const struct leak_snapshot *a)
{
	return compare(b, a, true);
}

int leak_count(const struct leak_snapshot *b, const struct leak_snapshot *a)
{
	return compare(b, a, false);
}
