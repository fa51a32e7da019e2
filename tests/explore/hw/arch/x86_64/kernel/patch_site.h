/* The explorer's patch sites: the jump is taken in the modes the site
 * names, read from preempt_mode (the patched code's meaning, without the
 * patching); patching itself is never reached (tests/explore/hw.c). */
#ifndef FOLD_ARCH_PATCH_SITE_H
#define FOLD_ARCH_PATCH_SITE_H
#include "sched/preempt_mode.h"
#define PATCH_MODE_BIT(m) (1u << PREEMPT_MODE_##m)
#define PATCH_MODES1(a) PATCH_MODE_BIT(a)
#define PATCH_MODES2(a, b) (PATCH_MODE_BIT(a) | PATCH_MODE_BIT(b))
#define PATCH_MODES_PREEMPT PATCH_MODES2(FULL, LAZY)
#define patch_site_jump(name, modes, label)                      \
	do {                                                     \
		if ((modes) & (1u << preempt_mode))              \
			goto label;                              \
	} while (0)
bool patch_sites_init(void);
bool patch_sites_apply(int mode, const char *what);
#endif
