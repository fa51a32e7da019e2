/* getpid_bench [N]: the cost of the cheapest system call. Times N getpid
 * calls (default 100000) with clock_gettime(CLOCK_MONOTONIC) and prints
 * `getpid: N calls, T ns, X.XX ns per call`.
 *
 * What it shows: the price of the syscall/sysret round trip itself, the
 * baseline every other call's cost sits on. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"

static long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n = 100000;
	if (argc > 2 || (argc == 2 && (parse_ulong(argv[1], &n) || n == 0))) {
		dprintf(STDERR_FILENO, "usage: getpid_bench [N]  (N >= 1 calls, default 100000)\n");
		return 2;
	}
	struct timespec t0, t1;
	long r0 = clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = 0; i < n; i++)
		getpid();
	long r1 = clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r0 || r1) {
		dprintf(STDERR_FILENO, "getpid_bench: clock_gettime failed (%ld, %ld)\n", r0, r1);
		return 1;
	}
	unsigned long total = (unsigned long)(ns_of(&t1) - ns_of(&t0));
	unsigned long hundredths = (total * 100 + n / 2) / n;   /* rounded */
	printf("getpid: %lu calls, %lu ns, %lu.%02lu ns per call\n", n, total,
	       hundredths / 100, hundredths % 100);
	return 0;
}
