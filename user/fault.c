/* fault KIND: does one thing the kernel must not survive on the
 * program's behalf: the process is to be killed with the matching signal
 * (SIGSEGV, SIGILL, SIGFPE, SIGTRAP) while the kernel goes on.
 *
 *   null          read address 0                       #PF, SIGSEGV
 *   kernel-read   read 0xffffffff80000000 (the kernel) #PF (U/S), SIGSEGV
 *   kernel-write  write there                          #PF, SIGSEGV
 *   ud            ud2                                  #UD, SIGILL
 *   de            divide by zero                       #DE, SIGFPE
 *   gp            read non-canonical 0x8000000000000000 #GP, SIGSEGV
 *   bp            int3                                 #BP, SIGTRAP
 *   stack         unbounded recursion into the guard   #PF, SIGSEGV
 *   badptr        write(1, kernel address, 16) and write(1, NULL, 16):
 *                 both must return -EFAULT; exits 0 if they do, else 1
 * Unknown or missing KIND: the list, exit 2.
 *
 * What it shows: ring 3 faults are the process's, not the kernel's
 * (the exception handlers look at the saved CS's RPL). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/syscall.h"
#include "uapi/errno.h"
#include "lib/string.h"

#define KERNEL_ADDR     0xffffffff80000000UL
#define NONCANONICAL    0x8000000000000000UL

static const char *const kinds[] = {
	"null", "kernel-read", "kernel-write", "ud", "de", "gp", "bp", "stack", "badptr",
};

/* Each frame keeps a live buffer and adds to the callee's result, so the
 * recursion cannot become a loop; `bottom` is never reached (it is
 * volatile so the compiler cannot know that). */
static volatile unsigned long bottom = ~0UL;

static __noinline unsigned long recurse(unsigned long depth)
{
	volatile char frame[256];
	frame[0] = (char)depth;
	if (depth == bottom)
		return 0;
	return recurse(depth + 1) + frame[0];
}

static int badptr(void)
{
	long k = write(STDOUT_FILENO, (const void *)KERNEL_ADDR, 16);
	long n = write(STDOUT_FILENO, NULL, 16);
	printf("fault: write(1, %#lx, 16) = %ld, write(1, NULL, 16) = %ld (-EFAULT is %d)\n",
	       KERNEL_ADDR, k, n, -EFAULT);
	return k == -EFAULT && n == -EFAULT ? 0 : 1;
}

static void usage(void)
{
	dprintf(STDERR_FILENO, "usage: fault KIND; kinds:");
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		dprintf(STDERR_FILENO, " %s", kinds[i]);
	dprintf(STDERR_FILENO, "\n");
}

int main(int argc, char **argv)
{
	const char *k = argc == 2 ? argv[1] : "";
	size_t i;
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(k, kinds[i]))
			break;
	if (i == ARRAY_SIZE(kinds)) {
		if (argc == 2)
			dprintf(STDERR_FILENO, "fault: unknown kind '%s'\n", k);
		usage();
		return 2;
	}
	printf("fault: %s\n", k);

	volatile int zero = 0, one = 1;
	if (!strcmp(k, "null"))
		return *(volatile char *)0;
	if (!strcmp(k, "kernel-read"))
		return *(volatile char *)KERNEL_ADDR;
	if (!strcmp(k, "kernel-write"))
		*(volatile char *)KERNEL_ADDR = 1;
	else if (!strcmp(k, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(k, "de"))
		return one / zero;
	else if (!strcmp(k, "gp"))
		return *(volatile char *)NONCANONICAL;
	else if (!strcmp(k, "bp"))
		__asm__ volatile("int3");
	else if (!strcmp(k, "stack"))
		return (int)recurse(0);
	else if (!strcmp(k, "badptr"))
		return badptr();
	printf("fault: %s: still running, the fault did not happen\n", k);
	return 3;
}
