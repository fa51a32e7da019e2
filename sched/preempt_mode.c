#include "sched/preempt_mode.h"
#include "lib/parse.h"

volatile int preempt_mode = PREEMPT_MODE_DEFAULT;
volatile u8 preempt_irq_exit_enabled;

static const char *const names[] = { "none", "voluntary", "full" };

int preempt_mode_parse(const char *s)
{
	return match_word(s, names, ARRAY_SIZE(names));
}

const char *preempt_mode_name(int mode)
{
	return mode >= 0 && mode < (int)ARRAY_SIZE(names) ? names[mode] : "?";
}

bool preempt_mode_valid(int mode)
{
	if (mode < 0 || mode >= (int)ARRAY_SIZE(names))
		return false;
	/* Without a count nothing can tell when preemption is safe. */
	return !(COUNT_MODEL_OFF && mode == PREEMPT_MODE_FULL);
}

static void apply(int mode)
{
	preempt_mode = mode;
	preempt_irq_exit_enabled = mode == PREEMPT_MODE_FULL;
}

void preempt_mode_init(int mode)
{
	apply(mode);
}

/* Defined in sched/preempt_switch.c: runs apply() with every CPU parked. */
int preempt_mode_switch_all(void (*fn)(int), int mode);

int preempt_mode_set(int mode)
{
	if (!preempt_mode_valid(mode))
		return -1;
	return preempt_mode_switch_all(apply, mode);
}
