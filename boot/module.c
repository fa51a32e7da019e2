/* The boot module table, built once from boot_info.mods. The modules'
 * memory is kept out of the frame allocator by frame_init(), so data
 * stays valid for the life of the kernel; it is read-only by convention
 * (the direct map is writable, nothing here writes). */
#include "boot/module.h"
#include "boot/multiboot.h"
#include "lib/elf.h"
#include "mm/mm.h"
#include "kernel/printk.h"
#include "lib/format.h"
#include "lib/string.h"

_Static_assert(MODULE_NAME_MAX == MB_MOD_NAME_MAX,
	       "a boot module's name is the multiboot module's name");

static struct boot_module modules[MB_MODS_MAX];
static u32 nmodules;

/* Records module i of the boot information, or says why not. */
static void module_add(u32 i, const struct mb_module *m)
{
	if (!m->name[0]) {
		pr_warn("modules: module %u (at %#llx) has no name; ignored "
			"(GRUB: module2 FILE NAME)\n", i, (unsigned long long)m->start);
		return;
	}
	if (m->end < m->start) {
		pr_warn("modules: %s: ends (%#llx) before it starts (%#llx); ignored\n",
			m->name, (unsigned long long)m->end, (unsigned long long)m->start);
		return;
	}
	if (module_find(m->name)) {
		pr_warn("modules: %s: a second module of that name; the first is kept\n",
			m->name);
		return;
	}
	struct boot_module *b = &modules[nmodules++];
	strlcpy(b->name, m->name, sizeof(b->name));
	b->data = phys_to_virt(m->start);
	b->size = m->end - m->start;
}

void module_init(void)
{
	char names[256];
	size_t len = 0;
	u32 programs = 0;

	for (u32 i = 0; i < boot_info.mods_count; i++)
		module_add(i, &boot_info.mods[i]);
	if (boot_info.mods_dropped)
		pr_warn("modules: %u more modules than the %u fold records were given; "
			"the extra ones are ignored (MB_MODS_MAX in boot/multiboot.h)\n",
			boot_info.mods_dropped, MB_MODS_MAX);
	names[0] = 0;
	for (u32 i = 0; i < nmodules; i++) {
		struct elf_image img;
		const char *why;
		if (elf_parse(modules[i].data, modules[i].size, &img, &why)) {
			pr_warn("modules: %s (%zu bytes) is not a user program: %s\n",
				modules[i].name, modules[i].size, why);
			continue;
		}
		programs++;
		size_t n = strlen(modules[i].name);
		if (len + n + 8 < sizeof(names)) {   /* room for ", " and ", ..." */
			len += snprintf(names + len, sizeof(names) - len, "%s%s",
					len ? ", " : "", modules[i].name);
		} else if (len + 5 < sizeof(names) && !strstr(names, "...")) {
			len += snprintf(names + len, sizeof(names) - len, ", ...");
		}
	}
	if (!nmodules)
		pr_info("modules: none (the ISO loads no user programs)\n");
	else
		pr_info("modules: %u user programs (%s)\n", programs,
			programs ? names : "none valid");
}

const struct boot_module *module_find(const char *name)
{
	if (!name)
		return NULL;
	for (u32 i = 0; i < nmodules; i++)
		if (!strcmp(modules[i].name, name))
			return &modules[i];
	return NULL;
}

u32 module_count(void)
{
	return nmodules;
}

const struct boot_module *module_at(u32 i)
{
	return i < nmodules ? &modules[i] : NULL;
}
