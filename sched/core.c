#include "sched/sched.h"
#include "kernel/preempt.h"
#include "kernel/percpu.h"
#include "lib/string.h"

struct thread boot_thread = { .name = "boot", .state = THREAD_RUNNING };

void sched_init_boot_thread(void)
{
	this_cpu_write(current, &boot_thread);
}

void __schedule(int mode)
{
	(void)mode;
	struct thread *t = this_cpu_read(current);
	__atomic_fetch_and(&t->flags, ~_TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	clear_preempt_need_resched();
}

void schedule(void)
{
	preempt_disable();
	__schedule(SM_NONE);
	preempt_enable_no_resched();
}
