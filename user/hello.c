/* hello [ARGS]: the smallest user program. Prints its pid and each
 * argument on a line of its own, then exits 0.
 *
 * What it shows: a process started from a boot module, argc and argv as
 * _start found them on the initial stack (SysV AMD64 ABI 3.4.1), and the
 * write, getpid and exit system calls. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/syscall.h"

int main(int argc, char **argv)
{
	printf("hello from pid %ld\n", getpid());
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	return 0;
}
