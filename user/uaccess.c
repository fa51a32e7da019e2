/* uaccess: every system call that takes a pointer, given each kind of bad
 * one, must return -EFAULT (and not crash, not hang, not read or write
 * somewhere it should not):
 *   NULL; the kernel half (0xffffffff80000000); non-canonical
 *   (0x8000000000000000); unmapped user memory (0x10000000); a range that
 *   starts in its last data page and runs into the unmapped page after it;
 *   a range straddling USER_TOP (write: 0x7ffffffffff0, 32 bytes; a
 *   struct: the last 8 bytes below USER_TOP); and for write, a length that
 *   wraps around the address space (a valid pointer, ~0UL bytes).
 * The calls: write (the buffer), clock_gettime (the struct it writes),
 * nanosleep (the request it reads), wait4 (the status it writes: each
 * check reaps a `hello` it spawned, since wait4 only touches the pointer
 * once a child has exited) and spawn (the name string it reads).
 * One `ok`/`not ok` line per check; exits with the number of failures.
 * (fold checks a whole range before copying, so a range that is partly
 * mapped is -EFAULT; Linux's write copies up to the hole and returns the
 * short count instead, so check 5 differs there.)
 *
 * What it shows: copy_to_user/copy_from_user's range checks, one by one. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/syscall.h"
#include "uapi/errno.h"
#include "uapi/layout.h"
#include "lib/string.h"

#define KERNEL_ADDR  0xffffffff80000000UL
#define NONCANONICAL 0x8000000000000000UL
#define UNMAPPED     0x10000000UL

struct bad {
	const char *what;
	u64 addr;
};

static int checks, failures;

static void expect_efault(const char *call, const char *what, long r)
{
	checks++;
	if (r == -EFAULT) {
		printf("ok %d - %s with %s: -EFAULT\n", checks, call, what);
	} else {
		failures++;
		printf("not ok %d - %s with %s: returned %ld, expected -EFAULT (%d)\n",
		       checks, call, what, r, -EFAULT);
	}
}

/* write() with a buffer whose second half is unmapped writes the first
 * half and says so, as Linux's write() does (a short count; -EFAULT only
 * when not one byte could be read). */
static void expect_short(const char *call, const char *what, long r, long want)
{
	checks++;
	if (r == want) {
		printf("ok %d - %s with %s: %ld (a short write)\n", checks, call, what, r);
	} else {
		failures++;
		printf("not ok %d - %s with %s: returned %ld, expected %ld\n", checks, call, what,
		       r, want);
	}
}

/* The first byte after the program image: the end of its last page. */
static u64 image_end(void)
{
	return ALIGN_UP((u64)_end, 4096);
}

/* The pointers, for an object of `size` bytes at the end of a range: the
 * two straddling kinds start `size / 2` bytes before the unmapped part. */
static u32 bad_pointers(struct bad *b, u64 size)
{
	u32 n = 0;
	b[n++] = (struct bad){ "NULL", 0 };
	b[n++] = (struct bad){ "a kernel address", KERNEL_ADDR };
	b[n++] = (struct bad){ "a non-canonical address", NONCANONICAL };
	b[n++] = (struct bad){ "an unmapped user address", UNMAPPED };
	b[n++] = (struct bad){ "a range running off its data page", image_end() - size / 2 };
	b[n++] = (struct bad){ "a range straddling USER_TOP", USER_TOP - size / 2 };
	return n;
}

static void check_write(void)
{
	static const char msg[] = "uaccess: this must not be printed\n";
	struct bad b[8];
	u32 n = bad_pointers(b, 32);
	for (u32 i = 0; i < n; i++) {
		u64 len = i >= 4 ? 32 : 16;     /* the straddles: 16 bytes each side */
		if (i == 4)                      /* the mapped half: harmless bytes */
			memset((void *)b[i].addr, '\n', 16);
		long r = write(STDOUT_FILENO, (const void *)b[i].addr, len);
		if (i == 4)
			expect_short("write(1, p, 32)", b[i].what, r, 16);
		else
			expect_efault(i >= 4 ? "write(1, p, 32)" : "write(1, p, 16)", b[i].what, r);
	}
	expect_efault("write(1, msg, ~0UL)", "a length that wraps around",
		      write(STDOUT_FILENO, msg, ~0UL));
}

static void check_clock_gettime(void)
{
	struct bad b[8];
	u32 n = bad_pointers(b, sizeof(struct timespec));
	for (u32 i = 0; i < n; i++)
		expect_efault("clock_gettime(CLOCK_MONOTONIC, p)", b[i].what,
			      clock_gettime(CLOCK_MONOTONIC, (struct timespec *)b[i].addr));
}

static void check_nanosleep(void)
{
	struct bad b[8];
	u32 n = bad_pointers(b, sizeof(struct timespec));
	for (u32 i = 0; i < n; i++) {
		if (i == 4)                      /* tv_sec, the mapped half: 0 */
			memset((void *)b[i].addr, 0, sizeof(long));
		expect_efault("nanosleep(p, NULL)", b[i].what,
			      nanosleep((const struct timespec *)b[i].addr, NULL));
	}
}

static void check_wait4(void)
{
	static char *const child_argv[] = { "hello", "reaped by uaccess", NULL };
	struct bad b[8];
	u32 n = bad_pointers(b, sizeof(int));
	/* From 1: a NULL status means "no status wanted" (wait4(2)). */
	for (u32 i = 1; i < n; i++) {
		long pid = spawn("hello", child_argv);
		if (pid < 0) {
			checks++;
			failures++;
			printf("not ok %d - wait4(pid, p, 0, NULL) with %s: spawn(\"hello\") "
			       "returned %ld, so there is no child to wait for\n", checks,
			       b[i].what, pid);
			continue;
		}
		expect_efault("wait4(pid, p, 0, NULL)", b[i].what,
			      wait4(pid, (int *)b[i].addr, 0, NULL));
	}
}

static void check_spawn(void)
{
	static char *const argv[] = { "x", NULL };
	struct bad b[8];
	u32 n = bad_pointers(b, 4);
	for (u32 i = 0; i < n; i++) {
		if (i == 4)                      /* "he", no NUL before the hole */
			memcpy((void *)b[i].addr, "he", 2);
		expect_efault("spawn(p, argv)", b[i].what,
			      spawn((const char *)b[i].addr, argv));
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	check_write();
	check_clock_gettime();
	check_nanosleep();
	check_wait4();
	check_spawn();
	printf("uaccess: %d checks, %d failed\n", checks, failures);
	return failures;
}
