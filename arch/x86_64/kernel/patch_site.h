/* Patch sites: code that the preemption mode rewrites, as Linux's
 * PREEMPT_DYNAMIC does (kernel/sched/core.c), instead of code that loads
 * the mode and tests it on every pass.
 *
 * One mechanism serves every site, whatever decides it: the preemption
 * mode (the sites below) or a static key (kernel/static_key.h: tracing's
 * hooks, Linux's jump labels). A site is 5 bytes of kernel text that hold
 * one of two instructions:
 *   on    e9 <rel32>        jmp target
 *   off   0f 1f 44 00 00    nopl 0x0(%rax,%rax,1), the 5-byte NOP
 *                           (SDM Vol. 2B, NOP: the recommended sequences)
 * and a record in the .patch_sites section (the linker script collects it
 * between _patch_sites_start and _patch_sites_end, as Linux's
 * .static_call_sites and __jump_table): the site's address, its target,
 * and what turns it on: a set of modes, or a key. The build emits each
 * mode site in the state of the build's default mode and each key site
 * off (every key starts disabled); preempt_mode_set() and
 * static_key_enable()/_disable() rewrite every site whose state differs
 * (arch/x86_64/kernel/patch_site.c).
 *
 * Why a jmp to a C label (asm goto), not a `call` to a function: the
 * compiler compiles the code at the label, a call with its arguments and
 * result, so the site clobbers nothing and needs no register-saving thunk.
 * This is Linux's jump-label form (static_branch, which PREEMPT_DYNAMIC
 * uses on arm64: CONFIG_HAVE_PREEMPT_DYNAMIC_KEY); x86 Linux patches the
 * call instruction itself (static_call, HAVE_PREEMPT_DYNAMIC_CALL). Where
 * the caller is assembly and wants a call, the site is the first
 * instruction of a trampoline (jmp body, or a NOP falling into `ret`):
 * preempt_schedule_thunk, arch/x86_64/preempt/preempt_thunk.asm, with the same
 * record from the NASM macro in patch_site.inc.
 *
 * Both instructions are exactly 5 bytes, so every instruction boundary
 * stays where it was: a CPU stopped at a boundary, or a thread asleep with
 * a return address just after a site, resumes in a whole instruction. */
#ifndef FOLD_ARCH_PATCH_SITE_H
#define FOLD_ARCH_PATCH_SITE_H
#include "lib/types.h"
#include "sched/preempt_mode.h"

#define PATCH_SITE_LEN 5
#define PATCH_SITE_JMP 0xe9

/* One record of .patch_sites (the asm below and patch_site.inc write it;
 * asm-offsets exports its size and offsets). */
struct patch_site {
	u64 addr;         /* the 5 bytes in kernel text */
	u64 target;       /* where the jmp goes when on */
	u32 modes;        /* a mode site: bit m set: on in mode m (0 for a key's) */
	u32 key;          /* 0: a mode site; k: on while static key k is enabled */
	const char *name; /* for messages and `sites` */
};

/* The set of modes a site is on in: PATCH_MODES(FULL, LAZY). */
#define PATCH_MODE_BIT(id) (1u << PREEMPT_MODE_##id)
#define PATCH_MODES1(a) PATCH_MODE_BIT(a)
#define PATCH_MODES2(a, b) (PATCH_MODE_BIT(a) | PATCH_MODE_BIT(b))
/* The modes that preempt the kernel itself (preempt_mode_preemptible()):
 * the sites of preempt_schedule and preempt_schedule_irq. */
#define PATCH_MODES_PREEMPT PATCH_MODES2(FULL, LAZY)

/* The site itself: at build time `jmp label` if `on`, else the 5-byte
 * NOP, and its record (modes, key). The .byte/.long spelling forces the
 * 5-byte form (the assembler would pick the 2-byte jmp for a near
 * label). */
#define __patch_site_jump(name, modes, key, on, label)                             \
	__asm__ goto("1:\n\t"                                                      \
		     ".if %c[o]\n\t"                                               \
		     ".byte 0xe9\n\t"                                              \
		     ".long %l[" #label "] - 2f\n\t"                               \
		     ".else\n\t"                                                   \
		     ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"                      \
		     ".endif\n"                                                    \
		     "2:\n\t"                                                      \
		     ".pushsection .rodata.patch_names, \"a\"\n"                   \
		     "3:\t.asciz \"" #name "\"\n\t"                                \
		     ".popsection\n\t"                                             \
		     ".pushsection .patch_sites, \"a\"\n\t"                        \
		     ".balign 8\n\t"                                               \
		     ".quad 1b, %l[" #label "]\n\t"                                \
		     ".long %c[m], %c[k]\n\t"                                      \
		     ".quad 3b\n\t"                                                \
		     ".popsection"                                                 \
		     : /* asm goto: no outputs */                                  \
		     : [m] "i"(modes), [k] "i"(key), [o] "i"(on)                   \
		     : /* no clobbers */                                           \
		     : label)

/* Jump to `label` in the modes of `modes`, fall through in the others. */
#define patch_site_jump(name, modes, label) \
	__patch_site_jump(name, modes, 0, ((modes) >> PREEMPT_MODE_DEFAULT) & 1, label)

extern const struct patch_site _patch_sites_start[], _patch_sites_end[];

/* Every site lies in kernel text, its target too, and it holds one of its
 * two patterns; each bad one is reported (which, where, the bytes it
 * holds, what it should hold). */
bool patch_sites_check(void);
/* Boot, one CPU: the check, and a line saying how many sites there are. */
bool patch_sites_init(void);
/* Bring every site to its state in `mode` with the keys as they are now.
 * Every other CPU must be parked (stop_machine) or not yet started.
 * Checks every site first and writes nothing if one is bad: returns
 * false, having said why (`what`: "mode none", "key trace on"). */
bool patch_sites_apply(int mode, const char *what);
/* The bytes a site should hold in `mode` (a key's site: as its key is). */
void patch_site_expected(const struct patch_site *s, int mode, u8 out[PATCH_SITE_LEN]);
bool patch_site_is_on(const struct patch_site *s);
size_t patch_sites_count(void);
/* How many sites a key decides (0: the mode sites). */
size_t patch_sites_of_key(u32 key);
/* How many sites hold their pattern for `mode` now (all of them, after a
 * switch to it). */
size_t patch_sites_in_mode(int mode);
#endif
