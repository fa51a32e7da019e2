/* The elf suite: lib/elf.c accepts the real user programs and refuses
 * each kind of bad executable with -ENOEXEC and its own reason. Every
 * refusal starts from a valid image built here in memory (two PT_LOADs:
 * text R+X at USER_LOAD_MIN, data RW on the next page) and breaks one
 * field. The boot-time half, the `modules:` line, is the harness row
 * `user-elf` in tests/configs. */
#include "tests/kernel/ktest.h"
#include "lib/elf.h"
#include "boot/module.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "lib/string.h"

#define IMG_SIZE 1024
#define PH_MAX   10                    /* room for ELF_MAX_SEGMENTS + 2 */

static u8 img[IMG_SIZE] __aligned(8);

static struct elf64_hdr *eh(void)
{
	return (struct elf64_hdr *)img;
}

static struct elf64_phdr *ph(u32 i)
{
	return (struct elf64_phdr *)(img + sizeof(struct elf64_hdr)) + i;
}

static void set_load(u32 i, u64 vaddr, u64 memsz, u64 offset, u64 filesz, u32 flags)
{
	*ph(i) = (struct elf64_phdr){ .p_type = PT_LOAD, .p_flags = flags,
		.p_offset = offset, .p_vaddr = vaddr, .p_paddr = vaddr,
		.p_filesz = filesz, .p_memsz = memsz, .p_align = 4096 };
}

/* A valid executable: the gABI 4 header and two PT_LOADs. */
static void build(void)
{
	memset(img, 0, sizeof(img));
	memcpy(eh()->e_ident, ELFMAG, SELFMAG);
	eh()->e_ident[EI_CLASS] = ELFCLASS64;
	eh()->e_ident[EI_DATA] = ELFDATA2LSB;
	eh()->e_ident[EI_VERSION] = EV_CURRENT;
	eh()->e_type = ET_EXEC;
	eh()->e_machine = EM_X86_64;
	eh()->e_version = EV_CURRENT;
	eh()->e_entry = USER_LOAD_MIN + 0x10;
	eh()->e_phoff = sizeof(struct elf64_hdr);
	eh()->e_ehsize = sizeof(struct elf64_hdr);
	eh()->e_phentsize = sizeof(struct elf64_phdr);
	eh()->e_phnum = 2;
	set_load(0, USER_LOAD_MIN, 0x1000, 0, 0x200, PF_R | PF_X);
	set_load(1, USER_LOAD_MIN + 0x1000, 0x2000, 0x200, 0x40, PF_R | PF_W);
}

/* elf_parse(img, size) must give -ENOEXEC and a reason containing `reason`. */
static void refused_at(struct ktest *t, int line, size_t size, const char *reason)
{
	struct elf_image im;
	const char *why = NULL;
	int r = elf_parse(img, size, &im, &why);
	if (r != -ENOEXEC)
		ktest_fail(t, __FILE__, line, "expected -ENOEXEC (\"%s\"), got %d", reason, r);
	else if (!why || !strstr(why, reason))
		ktest_fail(t, __FILE__, line, "expected the reason \"%s\", got \"%s\"", reason,
			   why ? why : "(none)");
}
#define REFUSED(t, reason) refused_at(t, __LINE__, IMG_SIZE, reason)

static void hello_module_parses(struct ktest *t)
{
	const struct boot_module *m = module_find("hello");
	if (!m)
		KT_SKIP(t, "no boot module named hello (an ISO without user programs)");
	struct elf_image im;
	const char *why = "unset";
	KT_ASSERT_EQ(t, elf_parse(m->data, m->size, &im, &why), 0);
	KT_EXPECT(t, why == NULL);
	KT_EXPECT_OP(t, im.nseg, >=, 2);
	KT_EXPECT_EQ(t, im.seg[0].vaddr, USER_LOAD_MIN);
	KT_EXPECT_EQ(t, im.seg[0].flags, PF_R | PF_X);
	KT_EXPECT_EQ(t, im.entry, USER_LOAD_MIN);      /* user.ld: _start first */
	for (u32 i = 0; i < module_count(); i++) {
		const struct boot_module *p = module_at(i);
		if (elf_parse(p->data, p->size, &im, &why))
			ktest_fail(t, __FILE__, __LINE__, "module %s: %s", p->name, why);
	}
	KT_EXPECT(t, module_at(module_count()) == NULL);
}

static void valid_image_parses(struct ktest *t)
{
	struct elf_image im;
	build();
	set_load(2, USER_TOP - 0x1000, 0x1000, 0x3, 0x10, PF_R); /* ends at USER_TOP, */
	eh()->e_phnum = 3;                                        /* offset not congruent */
	KT_ASSERT_EQ(t, elf_parse(img, IMG_SIZE, &im, NULL), 0);
	KT_EXPECT_EQ(t, im.entry, USER_LOAD_MIN + 0x10);
	KT_ASSERT_EQ(t, im.nseg, 3);
	KT_EXPECT_EQ(t, im.seg[1].vaddr, USER_LOAD_MIN + 0x1000);
	KT_EXPECT_EQ(t, im.seg[1].memsz, 0x2000);
	KT_EXPECT_EQ(t, im.seg[1].offset, 0x200);
	KT_EXPECT_EQ(t, im.seg[1].filesz, 0x40);
	KT_EXPECT_EQ(t, im.seg[1].flags, PF_R | PF_W);
	ph(2)->p_type = 4;                                        /* PT_NOTE: ignored */
	KT_ASSERT_EQ(t, elf_parse(img, IMG_SIZE, &im, NULL), 0);
	KT_EXPECT_EQ(t, im.nseg, 2);
}

static void refuses_bad_header(struct ktest *t)
{
	build();
	refused_at(t, __LINE__, sizeof(struct elf64_hdr) - 1, "shorter than an ELF header");
	KT_EXPECT_EQ(t, elf_parse(NULL, 0, NULL, NULL), -ENOEXEC);
	build(); img[1] = 'e';                           REFUSED(t, "no ELF magic");
	build(); eh()->e_ident[EI_CLASS] = 1;            REFUSED(t, "not a 64-bit ELF");
	build(); eh()->e_ident[EI_DATA] = 2;             REFUSED(t, "not little-endian");
	build(); eh()->e_ident[EI_VERSION] = 0;          REFUSED(t, "unknown ELF version");
	build(); eh()->e_version = 2;                    REFUSED(t, "unknown ELF version");
	build(); eh()->e_type = 3;   /* ET_DYN */        REFUSED(t, "not an executable");
	build(); eh()->e_machine = 3; /* EM_386 */       REFUSED(t, "not an x86-64 program");
	build(); eh()->e_phentsize = 32;                 REFUSED(t, "bad program header size");
	build(); eh()->e_phnum = 0;                      REFUSED(t, "no program headers");
}

static void refuses_phdrs_outside(struct ktest *t)
{
	build(); eh()->e_phoff = IMG_SIZE - 56 + 1;      REFUSED(t, "program header table lies outside");
	build(); eh()->e_phoff = ~0UL - 8;  /* wraps */  REFUSED(t, "program header table lies outside");
	build(); eh()->e_phnum = 0xffff;                 REFUSED(t, "program header table lies outside");
}

static void refuses_dynamic(struct ktest *t)
{
	build(); ph(1)->p_type = PT_INTERP;              REFUSED(t, "dynamically linked");
	build(); ph(1)->p_type = PT_DYNAMIC;             REFUSED(t, "dynamically linked");
}

static void refuses_file_bytes_outside(struct ktest *t)
{
	build(); ph(0)->p_filesz = IMG_SIZE + 1;
	ph(0)->p_memsz = 0x2000;                         REFUSED(t, "file bytes lie outside the file");
	build(); ph(1)->p_offset = IMG_SIZE + 1;
	ph(1)->p_filesz = 0;                             REFUSED(t, "file bytes lie outside the file");
	build(); ph(1)->p_offset = ~0UL - 0x10; /* offset + filesz wraps */
	                                                 REFUSED(t, "file bytes lie outside the file");
}

static void refuses_filesz_over_memsz(struct ktest *t)
{
	build(); ph(1)->p_memsz = 0x20;                  REFUSED(t, "file size exceeds its memory size");
}

static void refuses_outside_user_half(struct ktest *t)
{
	build(); ph(0)->p_vaddr = USER_LOAD_MIN - 0x1000;
	eh()->e_entry = USER_LOAD_MIN - 0x1000;          REFUSED(t, "below USER_LOAD_MIN");
	build(); ph(0)->p_vaddr = 0;                     REFUSED(t, "below USER_LOAD_MIN");
	build(); ph(1)->p_vaddr = USER_TOP - 0x1000;     REFUSED(t, "ends above USER_TOP");
	build(); ph(1)->p_vaddr = 0xffffffff80000000UL;  REFUSED(t, "ends above USER_TOP");
	build(); ph(1)->p_memsz = ~0UL - 0x1000; /* vaddr + memsz wraps */
	                                                 REFUSED(t, "ends above USER_TOP");
}

static void refuses_write_and_execute(struct ktest *t)
{
	build(); ph(1)->p_flags = PF_R | PF_W | PF_X;    REFUSED(t, "both writable and executable");
}

static void refuses_shared_pages(struct ktest *t)
{
	/* text ends at +0x800, data starts at +0xc00: no byte overlaps, the page does. */
	build(); ph(0)->p_memsz = 0x800;
	ph(1)->p_vaddr = USER_LOAD_MIN + 0xc00;          REFUSED(t, "two segments share a page");
	build(); ph(1)->p_vaddr = USER_LOAD_MIN;         REFUSED(t, "two segments share a page");
	build(); ph(1)->p_vaddr = USER_LOAD_MIN + 0x1fff;
	ph(1)->p_memsz = ph(1)->p_filesz = 0x10;         /* disjoint pages: accepted */
	struct elf_image im;
	KT_EXPECT_EQ(t, elf_parse(img, IMG_SIZE, &im, NULL), 0);
}

static void refuses_too_big(struct ktest *t)
{
	build(); ph(1)->p_memsz = USER_IMAGE_MAX;        /* + the text page */
	                                                 REFUSED(t, "more than USER_IMAGE_MAX");
}

static void refuses_too_many_segments(struct ktest *t)
{
	build();
	for (u32 i = 1; i <= ELF_MAX_SEGMENTS; i++)
		set_load(i, USER_LOAD_MIN + i * 0x1000, 0x10, 0, 0x10, PF_R);
	eh()->e_phnum = ELF_MAX_SEGMENTS + 1;            REFUSED(t, "more than ELF_MAX_SEGMENTS");
	eh()->e_phnum = ELF_MAX_SEGMENTS;                /* exactly 8: accepted */
	struct elf_image im;
	KT_EXPECT_EQ(t, elf_parse(img, IMG_SIZE, &im, NULL), 0);
	KT_EXPECT_EQ(t, im.nseg, ELF_MAX_SEGMENTS);
}

static void refuses_bad_entry(struct ktest *t)
{
	build(); eh()->e_entry = USER_LOAD_MIN + 0x1000; REFUSED(t, "entry point is not inside an executable");
	build(); eh()->e_entry = 0;                      REFUSED(t, "entry point is not inside an executable");
	build(); eh()->e_entry = USER_LOAD_MIN + 0x1000 - 1; /* the last text byte */
	struct elf_image im;
	KT_EXPECT_EQ(t, elf_parse(img, IMG_SIZE, &im, NULL), 0);
}

static void refuses_nothing_to_load(struct ktest *t)
{
	build(); ph(0)->p_type = PT_NULL; ph(1)->p_type = PT_NULL;
	                                                 REFUSED(t, "no loadable segment");
	build(); ph(0)->p_memsz = ph(0)->p_filesz = 0;
	ph(1)->p_memsz = ph(1)->p_filesz = 0;            REFUSED(t, "no loadable segment");
}

KTEST_SUITE(elf,
	KTEST_CASE(hello_module_parses),
	KTEST_CASE(valid_image_parses),
	KTEST_CASE(refuses_bad_header),
	KTEST_CASE(refuses_phdrs_outside),
	KTEST_CASE(refuses_dynamic),
	KTEST_CASE(refuses_file_bytes_outside),
	KTEST_CASE(refuses_filesz_over_memsz),
	KTEST_CASE(refuses_outside_user_half),
	KTEST_CASE(refuses_write_and_execute),
	KTEST_CASE(refuses_shared_pages),
	KTEST_CASE(refuses_too_big),
	KTEST_CASE(refuses_too_many_segments),
	KTEST_CASE(refuses_bad_entry),
	KTEST_CASE(refuses_nothing_to_load));
