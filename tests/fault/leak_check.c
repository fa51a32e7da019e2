/* Leak accounting (tests/fault/leak_check.h). */
#include "tests/fault/leak_check.h"
#include "mm/mm.h"
#include "ipc/ipc.h"
#include "process/process.h"
#include "sched/sched.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/format.h"
#include "arch/x86_64/kernel/gdt.h"

/* Slots are made in order from STACK_BASE and never unmapped (mm/stack.c):
 * the first slot whose stack is not mapped is the count. */
static u64 stack_slots_made(void)
{
	u64 lo = 0, hi = STACK_SLOTS;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;
		if (virt_is_mapped(STACK_BASE + (mid + 1) * STACK_SLOT - PAGE_SIZE))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The frames n slots hold: their stacks, and a page table for each 2 MiB
 * of the region they reach (the PML4 entry and its PDPT are the boot's,
 * arch/x86_64/mm/vm.c; the one PD, the first stack's). */
static u64 stack_frames(u64 n)
{
	u64 per_table = (1UL << 21) / STACK_SLOT;
	return n * (STACK_SIZE / PAGE_SIZE) + (n + per_table - 1) / per_table;
}

static void count_thread(struct thread *t, void *arg)
{
	u64 *n = arg;
	n[0]++;
	if (t->stack_top)
		n[1]++;
}

static void count_process(struct process *p, void *arg)
{
	(void)p;
	(*(u64 *)arg)++;
}

void leak_snapshot(struct leak_snapshot *s)
{
	u64 threads[2] = { 0, 0 }; /* listed, holding a stack */
	thread_for_each(count_thread, threads);
	u64 ist = 0; /* each CPU's interrupt stacks (gdt_init_cpu()) */
	for (u32 c = 0; c < MAX_CPUS; c++) {
		struct tss *t = percpu_area[c].tss;
		for (int i = 0; t && i < 7; i++)
			ist += t->ist[i] != 0;
	}
	s->processes = 0;
	process_for_each(count_process, &s->processes);
	s->threads = threads[0];
	s->stack_slots = stack_slots_made();
	s->stacks_free = s->stack_slots - threads[1] - ist;
	s->kmalloc_bytes = kmalloc_bytes_in_use();
	s->kobjects = ipc_objects_live();
	s->handles = ipc_handles_live();
	s->frames_free = frames_free();
	s->frames_kept = kmalloc_class_pages() + stack_frames(s->stack_slots);
}

/* One figure: equal, or equal once what the allocators keep for reuse
 * (kept: a count of the same unit, `how` says whose) is taken off. */
static int figure_kept(const char *what, u64 before, u64 after, s64 kept, const char *how)
{
	unsigned long long b = before, a = after;
	if ((s64)(after - before) == kept) {
		if (kept)
			pr_info("leak check: %s %llu before, %llu after (%+lld %s)\n", what, b, a,
				(long long)kept, how);
		else
			pr_info("leak check: %s %llu before, %llu after\n", what, b, a);
		return 0;
	}
	char also[96] = "";
	if (kept)
		snprintf(also, sizeof(also), ", %+lld %s counted", (long long)kept, how);
	pr_err("leak check: %s %llu before, %llu after: LEAK (%+lld%s)\n", what, b, a,
	       (long long)(after - before - kept), also);
	return 1;
}

static int figure(const char *what, u64 before, u64 after)
{
	return figure_kept(what, before, after, 0, NULL);
}

int leak_check(const struct leak_snapshot *b, const struct leak_snapshot *a)
{
	/* Frames kmalloc's size classes took, or new stacks, stay with them. */
	s64 kept = (s64)(a->frames_kept - b->frames_kept);
	int bad = figure_kept("frames free", b->frames_free, a->frames_free, -kept,
			      "kept for reuse by kmalloc's size classes and the stack cache");
	/* A stack made meanwhile is one free stack more once its thread is
	 * gone, not a leak. */
	bad += figure_kept("kernel stacks free", b->stacks_free, a->stacks_free,
			   (s64)(a->stack_slots - b->stack_slots), "made meanwhile");
	bad += figure("kmalloc bytes in use", b->kmalloc_bytes, a->kmalloc_bytes);
	bad += figure("endpoints and notifications", b->kobjects, a->kobjects);
	bad += figure("handles", b->handles, a->handles);
	bad += figure("processes", b->processes, a->processes);
	bad += figure("threads", b->threads, a->threads);
	return bad;
}
