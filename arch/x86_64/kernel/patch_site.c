/* The patch sites (arch/x86_64/kernel/patch_site.h): check them, switch them.
 *
 * A site is trusted only if it holds exactly one of its two patterns:
 * writing a jmp over bytes that are neither would turn an unknown
 * instruction into two halves. So every switch checks every site first,
 * and a single bad one makes the whole switch refuse, with a message that
 * names it; no site is written, and the mode stays what it was. */
#include "arch/x86_64/kernel/patch_site.h"
#include "arch/x86_64/kernel/text_poke.h"
#include "kernel/static_key.h"
#include "mm/mm.h"
#include "kernel/debug/ksyms.h"
#include "kernel/printk.h"
#include "lib/string.h"

static const u8 nop5[PATCH_SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

size_t patch_sites_count(void)
{
	return (size_t)(_patch_sites_end - _patch_sites_start);
}

static void jmp_bytes(const struct patch_site *s, u8 out[PATCH_SITE_LEN])
{
	/* rel32 is counted from the end of the instruction (SDM Vol. 2A, JMP). */
	s32 rel = (s32)(s->target - (s->addr + PATCH_SITE_LEN));
	out[0] = PATCH_SITE_JMP;
	memcpy(out + 1, &rel, 4);
}

size_t patch_sites_of_key(u32 key)
{
	size_t n = 0;
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++)
		n += s->key == key;
	return n;
}

void patch_site_expected(const struct patch_site *s, int mode, u8 out[PATCH_SITE_LEN])
{
	bool on = s->key ? static_key_enabled(s->key)
			 : mode >= 0 && mode < NR_PREEMPT_MODES && (s->modes >> mode) & 1;
	if (on)
		jmp_bytes(s, out);
	else
		memcpy(out, nop5, PATCH_SITE_LEN);
}

bool patch_site_is_on(const struct patch_site *s)
{
	return ((const u8 *)s->addr)[0] == PATCH_SITE_JMP;
}

size_t patch_sites_in_mode(int mode)
{
	size_t n = 0;
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++) {
		u8 want[PATCH_SITE_LEN];
		patch_site_expected(s, mode, want);
		n += !memcmp((const void *)s->addr, want, PATCH_SITE_LEN);
	}
	return n;
}

static bool text(u64 va, u64 len)
{
	return va >= (u64)_text_start && va + len <= (u64)_text_end;
}

static bool site_ok(const struct patch_site *s)
{
	if (!text(s->addr, PATCH_SITE_LEN) || !text(s->target, 1))
		return false;
	s64 rel = (s64)(s->target - (s->addr + PATCH_SITE_LEN));
	if (rel != (s32)rel || s->modes >> NR_PREEMPT_MODES || s->key >= NR_STATIC_KEYS ||
	    (s->key && s->modes))
		return false;
	u8 on[PATCH_SITE_LEN];
	jmp_bytes(s, on);
	return !memcmp((const void *)s->addr, on, PATCH_SITE_LEN) ||
	       !memcmp((const void *)s->addr, nop5, PATCH_SITE_LEN);
}

static void report(const struct patch_site *s)
{
	char where[80];
	ksym_format(where, sizeof(where), s->addr);
	if (!text(s->addr, PATCH_SITE_LEN) || !text(s->target, 1)) {
		pr_err("patch: site %s: address %lx or target %lx is not kernel text\n",
		       s->name, (unsigned long)s->addr, (unsigned long)s->target);
		return;
	}
	if (s->modes >> NR_PREEMPT_MODES || s->key >= NR_STATIC_KEYS || (s->key && s->modes)) {
		pr_err("patch: site %s at %lx (%s): modes %#x, key %u: neither a set of "
		       "modes nor one static key\n", s->name, (unsigned long)s->addr, where,
		       s->modes, s->key);
		return;
	}
	const u8 *b = (const u8 *)s->addr;
	u8 on[PATCH_SITE_LEN];
	jmp_bytes(s, on);
	pr_err("patch: site %s at %lx (%s) holds %02x %02x %02x %02x %02x; expected "
	       "%02x %02x %02x %02x %02x (jmp %lx) or 0f 1f 44 00 00 (nop)\n",
	       s->name, (unsigned long)s->addr, where, b[0], b[1], b[2], b[3], b[4], on[0],
	       on[1], on[2], on[3], on[4], (unsigned long)s->target);
}

bool patch_sites_check(void)
{
	bool ok = true;
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++)
		if (!site_ok(s)) {
			report(s);
			ok = false;
		}
	return ok;
}

bool patch_sites_init(void)
{
	bool ok = patch_sites_check();
	if (ok)
		pr_info("patch: %lu sites (%lu for the preemption modes, %lu for static keys), "
			"each a jmp or a 5-byte nop\n", (unsigned long)patch_sites_count(),
			(unsigned long)patch_sites_of_key(0),
			(unsigned long)(patch_sites_count() - patch_sites_of_key(0)));
	else
		pr_err("patch: a site holds unexpected bytes: the kernel will not patch code, "
		       "the mode stays the build's (%s)\n", preempt_mode_name(PREEMPT_MODE_DEFAULT));
	return ok;
}

bool patch_sites_apply(int mode, const char *what)
{
	if (!patch_sites_check()) {
		pr_err("patch: refusing to patch code for %s: a site holds unexpected "
		       "bytes (above); nothing was written\n", what);
		return false;
	}
	for (const struct patch_site *s = _patch_sites_start; s < _patch_sites_end; s++) {
		u8 want[PATCH_SITE_LEN];
		patch_site_expected(s, mode, want);
		if (memcmp((const void *)s->addr, want, PATCH_SITE_LEN))
			text_poke((void *)s->addr, want, PATCH_SITE_LEN);
	}
	return true;
}
