/* The kernel below ipc/endpoint.c and ipc/object.c, for the explorer:
 * the heap (kmalloc, kzalloc, kfree), sched_handoff(), the last put of a
 * struct thread, the CPU number and the statistics; and stubs for what
 * the two files reference but a scenario never reaches (a boot option's
 * setters, fault injection's slow path, the debug delay's clock).
 *
 * The heap is Linux's slab debugging, made exact: kfree() fills the
 * block with POISON_FREE (0x6b, include/linux/poison.h) and keeps it, so
 * that nothing freed in a run is ever handed out again in that run. Every
 * point on an address inside a block (an atomic, a lock, a wake-up, a
 * handoff) checks it, after the point: an access to a freed block, or a
 * pointer that holds the poison (read from a freed block), is a
 * use-after-free, reported with the schedule; the thread stops there, as
 * the kernel's would oops. A freed block's start is its object for the
 * engine (ipc_object()), so that a free and every later access into the
 * block are dependent and both orders are explored. */
#include "tests/explore/shim.h"
#include "tests/explore/explore.h"
#include "ipc/ipc.h"
#include "kernel/cmdline.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "mm/mm.h"
#include "sched/sched.h"

#include <stdio.h>
#include <string.h>

#define HEAP_SIZE (64 * 1024)
#define HEAP_BLOCKS 32
#define POISON_FREE 0x6b
#define POISON_PTR 0x6b6b6b6b6b6b6b6bULL

struct block {
	char *base;
	size_t size;
	bool freed;
	int freer;                 /* the explorer's thread that freed it */
	char name[32];
};

static _Alignas(64) char heap[HEAP_SIZE];
static size_t heap_used;
static struct block blocks[HEAP_BLOCKS];
static int nblocks;
struct percpu percpu_area[MAX_CPUS];

void shim_heap_reset(void)
{
	memset(heap, 0, heap_used);
	heap_used = 0;
	nblocks = 0;
}

static struct block *block_of(const void *p)
{
	for (int i = 0; i < nblocks; i++)
		if ((const char *)p >= blocks[i].base &&
		    (const char *)p < blocks[i].base + blocks[i].size)
			return &blocks[i];
	return NULL;
}

void shim_heap_name(const void *p, const char *name)
{
	struct block *b = block_of(p);
	if (b)
		snprintf(b->name, sizeof(b->name), "%s", name);
}

const void *shim_heap_object(const void *p)
{
	struct block *b = block_of(p);
	return b ? b->base : NULL;
}

const void *ipc_object(const void *addr)
{
	const void *o = shim_heap_object(addr);
	return o ? o : addr;
}

const char *shim_heap_str(const void *p, char *buf, size_t size)
{
	struct block *b = block_of(p);
	if (!b)
		return NULL;
	size_t off = (size_t)((const char *)p - b->base);
	const char *field = strstr(b->name, "ipc_state") && off == offsetof(struct ipc_state, wait) ?
		"->wait" : strstr(b->name, "endpoint") && off == offsetof(struct endpoint, obj.refs) ?
		"->obj.refs" : strstr(b->name, "thread") && off == offsetof(struct thread, usage) ?
		"->usage" : NULL;
	if (field)
		snprintf(buf, size, "%s%s", b->name, field);
	else
		snprintf(buf, size, "%s+%#zx", b->name, off);
	return buf;
}

void shim_heap_check(const void *p, const char *what)
{
	if (ex_self() < 0)
		return;
	char buf[160];
	struct block *b = block_of(p);
	if ((u64)(uintptr_t)p == POISON_PTR)
		snprintf(buf, sizeof(buf), "use-after-free: %s: %s of a pointer read from freed "
			 "memory (%#llx, POISON_FREE)", ex_thread_name(ex_self()), what, POISON_PTR);
	else if (b && b->freed)
		snprintf(buf, sizeof(buf), "use-after-free: %s: %s on %s, freed by %s",
			 ex_thread_name(ex_self()), what, b->name, ex_thread_name(b->freer));
	else
		return;
	ex_fail("%s", buf);
	ex_log("%s", buf);
	ex_thread_abort();
}

void *kmalloc(size_t size)
{
	size_t at = (heap_used + 63) & ~(size_t)63;
	if (at + size > HEAP_SIZE || nblocks == HEAP_BLOCKS) {
		fprintf(stderr, "explore: the shim's heap is full\n");
		exit(2);
	}
	struct block *b = &blocks[nblocks++];
	b->base = heap + at;
	b->size = size;
	b->freed = false;
	b->freer = -1;
	snprintf(b->name, sizeof(b->name), "a block of %zu bytes", size);
	heap_used = at + size;
	memset(b->base, 0xa5, size); /* kmalloc's memory is not zeroed */
	return b->base;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct block *b = block_of(p);
	if (!b || b->base != p) {
		ex_fail("kfree(%p): not a block kmalloc() gave", p);
		ex_thread_abort();
	}
	if (ex_self() >= 0)
		ex_point1(p, EX_WRITE, NULL, NULL);
	if (b->freed) {
		ex_fail("double free: %s frees %s, freed by %s", ex_thread_name(ex_self()),
			b->name, ex_thread_name(b->freer));
		ex_thread_abort();
	}
	memset(p, POISON_FREE, b->size);
	b->freed = true;
	b->freer = ex_self();
	ex_log("kfree(%s): poisoned", b->name);
}

/* sched/thread.c's: the last reference frees the struct. */
void __put_task_struct(struct thread *t)
{
	kfree(t);
}

u32 raw_smp_processor_id(void)
{
	return ex_self() < 0 ? 0 : (u32)current_thread()->cpu;
}

/* sched/handoff.c's contract: prev has marked itself SLEEPING and made
 * next runnable-to-be; switch to next if both still sleep (no wake-up
 * came for either: a woken prev does not block, a woken or dead next is
 * not to be switched to) and next last ran on this CPU; else nothing,
 * false. One step, as under the run-queue lock; prev then runs again
 * once woken. */
bool sched_handoff(struct thread *next)
{
	struct thread *prev = current_thread();
	shim_heap_check(next, "sched_handoff()");
	struct ex_op op = { { next, prev }, { EX_WRITE, EX_WRITE } };
	ex_point(&op, NULL, NULL);
	shim_heap_check(next, "sched_handoff()");
	if (prev->state != THREAD_SLEEPING || next->state != THREAD_SLEEPING ||
	    next->cpu != prev->cpu) {
		ex_log("sched_handoff(%s): not taken (%s is %s, %s is %s)", next->name, prev->name,
		       shim_state_str(prev->state), next->name, shim_state_str(next->state));
		return false;
	}
	next->state = THREAD_RUNNING;
	ex_log("sched_handoff(%s): %s -> RUNNING, switches to it", next->name, next->name);
	schedule();
	return true;
}

void raw_spin_lock_init(raw_spinlock_t *l, const char *name)
{
	l->holder = 0;
	l->name = name;
}

/* Referenced, never reached here: a boot option's setters, fault
 * injection past its off switch, ipc_handoff_delay's sleep (0). */
static void never(const char *what)
{
	ex_fail("%s: not reached in the explorer", what);
	ex_thread_abort();
}

int cmdline_u32(const char *v, u32 *dst, u32 lo, u32 hi)
{
	(void)v, (void)dst, (void)lo, (void)hi;
	never("cmdline_u32()");
	return -1;
}

const char *fault_config_parse(const char *v, struct fault_config *c)
{
	(void)v, (void)c;
	never("fault_config_parse()");
	return "";
}

bool __should_fail(struct fault_attr *attr, u64 size)
{
	(void)attr, (void)size;
	never("__should_fail()");
	return false;
}

u64 ktime_get_ns(void)
{
	never("ktime_get_ns()");
	return 0;
}

void sleep_until(u64 deadline_ns)
{
	(void)deadline_ns;
	never("sleep_until()");
}
