#include "sched/preempt_mode.h"
int preempt_mode_switch_all(void (*fn)(int), int mode);
int preempt_mode_switch_all(void (*fn)(int), int mode)
{
	fn(mode);
	return 0;
}
