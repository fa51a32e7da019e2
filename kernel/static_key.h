/* Static keys: a branch that costs one 5-byte NOP while its key is
 * disabled and becomes a jmp when the key is enabled, Linux's jump labels
 * (include/linux/jump_label.h: static_branch_unlikely(),
 * static_branch_enable()). The branch is a patch site
 * (arch/x86_64/kernel/patch_site.h) whose record names the key instead of a set
 * of preemption modes, so one table, one check and one writer serve the
 * modes and the keys alike: enabling a key rewrites its sites inside
 * stop_machine(), as a mode switch does, and `sites` lists them all.
 *
 * What a key saves over a flag: `if (unlikely(flag))` is a load, a test
 * and a branch on every pass; the NOP is one instruction that reads no
 * memory, and the code behind it goes out of line (the compiler is told
 * the branch is unlikely).
 * Used where the off state is the common one and the pass is hot:
 * tracing's hooks (kernel/trace/trace.h), on every interrupt, switch and
 * system call. */
#ifndef FOLD_KERNEL_STATIC_KEY_H
#define FOLD_KERNEL_STATIC_KEY_H
#include "lib/types.h"
#include "arch/x86_64/kernel/patch_site.h"

/* The keys: X(ID, name). Key 0 is no key: a record with key 0 is a mode
 * site. `ktest` belongs to the patch suite (tests/kernel/test_patch.c),
 * which switches it and corrupts its one site. */
#define STATIC_KEYS(X) \
	X(TRACE, trace) \
	X(KTEST, ktest)

#define STATIC_KEY_ENUM(id, name) STATIC_KEY_##id,
enum static_key_id { STATIC_KEY_NONE, STATIC_KEYS(STATIC_KEY_ENUM) NR_STATIC_KEYS };
#undef STATIC_KEY_ENUM

/* True while KEY is enabled, as a NOP that becomes a jmp to the code that
 * returns true (which the compiler, told it is unlikely, puts out of
 * line). `site` names the site in `sites` and in messages. A statement
 * expression with local labels, so each use is a site of its own. */
#define static_branch_unlikely(KEY, site)                                         \
	__builtin_expect(({                                                       \
		__label__ __sk_on, __sk_out;                                      \
		bool __sk = false;                                                \
		__patch_site_jump(site, 0, STATIC_KEY_##KEY, 0, __sk_on);         \
		goto __sk_out;                                                    \
	__sk_on:                                                                  \
		__sk = true;                                                      \
	__sk_out:                                                                 \
		__sk;                                                             \
	}), 0)

/* Whether key k is enabled now (false for 0 and unknown keys). */
bool static_key_enabled(u32 k);
const char *static_key_name(u32 k);
/* Enable or disable key k: every site of k becomes the jmp or the NOP,
 * inside stop_machine() (call with IRQs on, nothing held). 0, or -1 if
 * the sites could not be patched (a site holds unexpected bytes:
 * patch_sites_apply() says which); the key then stays as it was. */
int static_key_enable(u32 k);
int static_key_disable(u32 k);
#endif
