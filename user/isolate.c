/* isolate [ROUNDS]: two address spaces, one virtual address. Stores its
 * pid in a global, then yields ROUNDS times (default 10000), checking
 * after every sched_yield that the global still holds its own pid. Run
 * two at once on one CPU: both have `owner` at the same virtual address,
 * so if their address spaces were not separate (a missing CR3 switch, a
 * shared page) one would see the other's pid.
 * Prints `isolate: pid N ok` and exits 0, or `isolate: pid N saw M` and
 * exits 1.
 *
 * What it shows: each process has its own page tables. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"

static volatile long owner;  /* .bss: the same address in every copy */

int main(int argc, char **argv)
{
	unsigned long rounds = 10000;
	if (argc > 2 || (argc == 2 && parse_ulong(argv[1], &rounds))) {
		dprintf(STDERR_FILENO, "usage: isolate [ROUNDS]  (default 10000)\n");
		return 2;
	}
	long pid = getpid();
	owner = pid;
	for (unsigned long i = 0; i < rounds; i++) {
		sched_yield();
		long seen = owner;
		if (seen != pid) {
			printf("isolate: pid %ld saw %ld (round %lu, at %p)\n", pid, seen, i,
			       (void *)&owner);
			return 1;
		}
	}
	printf("isolate: pid %ld ok\n", pid);
	return 0;
}
