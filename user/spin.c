/* spin [N]: burns CPU in ring 3. With no argument it never returns (kill
 * it, or watch the scheduler preempt it: a timer interrupt taken in user
 * mode); with N it runs N rounds of a 1,000,000-iteration inner loop and
 * exits 0.
 *
 * What it shows: user time that only the timer interrupt can take back,
 * since the program makes no system call while it spins. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"

#define INNER 1000000UL

int main(int argc, char **argv)
{
	unsigned long rounds = 0;
	if (argc > 2 || (argc == 2 && parse_ulong(argv[1], &rounds))) {
		dprintf(STDERR_FILENO, "usage: spin [N]  (N rounds of %lu iterations; none: forever)\n",
			INNER);
		return 2;
	}
	printf("spin: pid %ld spinning\n", getpid());
	for (unsigned long r = 0; argc == 1 || r < rounds; r++)
		for (volatile unsigned long i = 0; i < INNER; i++)
			;
	printf("spin: pid %ld done after %lu rounds\n", getpid(), rounds);
	return 0;
}
