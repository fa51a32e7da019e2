/* The kernel's surroundings, for the parsers under fuzzing: printk and
 * the console, the few globals the parsers write, and a fake physical
 * memory for memremap(). Nothing here parses; the parsers are the
 * kernel's own files, unchanged (tests/fuzz/fuzz.mk lists them). */
#include "tests/fuzz/fuzz.h"
#include "kernel/printk.h"
#include "mm/uaccess.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "mm/mm.h"
#include "sched/preempt_mode.h"
#include "sched/sched.h"
#include "arch/x86_64/kernel/serial.h"
#include "drivers/i8042.h"
#include "lib/parse.h"
#include "lib/format.h"

int console_loglevel = LOGLEVEL_DEFAULT;
bool might_fault_enabled = true;
bool clock_icount;
volatile int preempt_mode = PREEMPT_MODE_FULL;
u32 nr_cpus_online = 2;
u64 fuzz_printed_bytes;

static void out(const char *s, size_t n)
{
	static int verbose = -1;
	if (verbose < 0)
		verbose = getenv("FOLD_FUZZ_VERBOSE") != NULL;
	fuzz_printed_bytes += n;
	if (verbose)
		fwrite(s, 1, n, stderr);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	FUZZ_ASSERT(n >= 0);
	const char *text = buf;
	if (text[0] == KERN_SOH[0] && text[1])
		text += 2; /* the level */
	out(text, host_strlen(text));
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void console_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}

void console_write(const char *s, size_t n)
{
	out(s, n);
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* sched/preempt_mode.c is the scheduler's; these two are its table. */
static const char *const mode_names[] = { "none", "voluntary", "full" };

int preempt_mode_parse(const char *s)
{
	return match_word(s, mode_names, ARRAY_SIZE(mode_names));
}

const char *preempt_mode_name(int mode)
{
	return mode >= 0 && mode < 3 ? mode_names[mode] : "?";
}

u64 tsc_to_ns(u64 ticks)
{
	return ticks;
}

/* Hardware the parsers' files reach but the targets never call. */
void __might_fault(const char *file, int line)
{
	(void)file;
	(void)line;
}

int serial_getc(void)
{
	fuzz_fail("serial_getc: the shell's interactive loop is not fuzzed");
}

int i8042_getc(void)
{
	fuzz_fail("i8042_getc: the shell's interactive loop is not fuzzed");
}

void sleep_ns(u64 ns)
{
	(void)ns;
	fuzz_fail("sleep_ns called");
}

/* ---- fake physical memory ---------------------------------------------- */

static u64 phys_base;
static const u8 *phys_bytes;
static size_t phys_size;
static void **maps;
static size_t nmaps, maps_cap;

void fake_phys_set(u64 base, const void *bytes, size_t size)
{
	phys_base = base;
	phys_bytes = bytes;
	phys_size = size;
}

void fake_phys_reset(void)
{
	for (size_t i = 0; i < nmaps; i++)
		free(maps[i]);
	nmaps = 0;
}

/* Nothing is in the direct map: every table goes through memremap(). */
bool virt_is_mapped(u64 va)
{
	(void)va;
	return false;
}

void *memremap(u64 pa, size_t size)
{
	FUZZ_ASSERT(size > 0 && size <= (2u << 20));
	if (nmaps == maps_cap) {
		maps_cap = maps_cap ? 2 * maps_cap : 64;
		maps = realloc(maps, maps_cap * sizeof(*maps));
		FUZZ_ASSERT(maps);
	}
	u8 *p = malloc(size);
	FUZZ_ASSERT(p);
	host_memset(p, 0xFF, size);
	/* The part of [pa, pa + size) inside the fake memory, if any (a range
	 * that wraps past 2^64 has none past the wrap). */
	u64 end = pa + size < pa ? UINT64_MAX : pa + size;
	u64 lo = pa > phys_base ? pa : phys_base;
	u64 hi = end < phys_base + phys_size ? end : phys_base + phys_size;
	if (lo < hi)
		host_memcpy(p + (lo - pa), phys_bytes + (lo - phys_base), hi - lo);
	maps[nmaps++] = p;
	return p;
}
