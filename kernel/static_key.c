/* Static keys (kernel/static_key.h): each key's state, and its change
 * made in code. The sites are patch sites, so the change is the mode
 * switch's own: patch_sites_apply() inside stop_machine(), which brings
 * every site (the modes' and the keys') to what the mode and the keys now
 * say, after checking them all. */
#include "kernel/static_key.h"
#include "kernel/stop_machine.h"
#include "kernel/printk.h"
#include "sched/preempt_mode.h"
#include "lib/format.h"

#define STATIC_KEY_NAME(id, name) [STATIC_KEY_##id] = #name,
static const char *const names[NR_STATIC_KEYS] = { [STATIC_KEY_NONE] = "none",
						   STATIC_KEYS(STATIC_KEY_NAME) };
#undef STATIC_KEY_NAME

/* Written only inside stop_machine(), read by patch_site_expected(). */
static bool enabled[NR_STATIC_KEYS];

bool static_key_enabled(u32 k)
{
	return k > STATIC_KEY_NONE && k < NR_STATIC_KEYS && READ_ONCE(enabled[k]);
}

const char *static_key_name(u32 k)
{
	return k < NR_STATIC_KEYS ? names[k] : "?";
}

struct key_change {
	u32 key;
	bool on;
};

/* Every other CPU is parked: no site runs while it changes. */
static int apply_stopped(void *arg)
{
	const struct key_change *c = arg;
	char what[40];
	snprintf(what, sizeof(what), "key %s %s", names[c->key], c->on ? "on" : "off");
	enabled[c->key] = c->on;
	if (patch_sites_apply(preempt_mode, what))
		return 0;
	enabled[c->key] = !c->on; /* nothing was written */
	return -1;
}

static int set(u32 k, bool on)
{
	if (k <= STATIC_KEY_NONE || k >= NR_STATIC_KEYS) {
		pr_warn("static_key: no key %u\n", k);
		return -1;
	}
	if (static_key_enabled(k) == on)
		return 0;
	struct key_change c = { k, on };
	return stop_machine(apply_stopped, &c);
}

int static_key_enable(u32 k)
{
	return set(k, true);
}

int static_key_disable(u32 k)
{
	return set(k, false);
}
