/* spawnflood [exit|sleep] [max=N] [retry=N]: a hostile parent. It spawns
 * children as fast as it can and never waits for them, until spawn()
 * fails or max=N children have started (default 1000000), and says how
 * it ended:
 *
 *   spawnflood: started 1024 children; spawn then returned -11 (EAGAIN)
 *
 * then tries retry=N more spawns (default 16) and counts how they ended,
 * then says "spawnflood: holding them until killed" and sleeps. Each
 * child is this program again: it exits at once (`exit`, the default: a
 * zombie, holding its kernel stack until its parent reaps it or dies),
 * or with `sleep` it sleeps until killed (holding its address space too).
 *
 * What it shows: the spawn limits. A parent may have nproc= live children
 * (zombies count until reaped), the machine threads-max processes; past
 * either spawn() returns -EAGAIN, and -ENOMEM when memory runs out first.
 * An error, never a panic (tests/kernel/test_nproc.c). */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/stdlib.h"
#include "user/lib/syscall.h"
#include "uapi/errno.h"
#include "lib/string.h"

static const char *errname(long e)
{
	return e == -EAGAIN ? "EAGAIN" : e == -ENOMEM ? "ENOMEM" : "unexpected";
}

static __noreturn void sleep_forever(void)
{
	for (;;) {
		struct timespec ts = { 1000, 0 };
		nanosleep(&ts, NULL);
	}
}

static int usage(void)
{
	dprintf(STDERR_FILENO, "usage: spawnflood [exit|sleep] [max=N] [retry=N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "child"))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "child-sleep"))
		sleep_forever();
	unsigned long max = 1000000, retry = 16;
	bool sleep = false;
	for (int i = 1; i < argc; i++) {
		int a = parse_option(argv[i], "max", &max);
		int b = a ? 0 : parse_option(argv[i], "retry", &retry);
		if (a < 0 || b < 0)
			return usage();
		if (a || b)
			continue;
		if (strcmp(argv[i], "sleep") && strcmp(argv[i], "exit"))
			return usage();
		sleep = !strcmp(argv[i], "sleep");
	}
	char *child[] = { "spawnflood", sleep ? "child-sleep" : "child", NULL };
	unsigned long n = 0;
	long err = 0;
	while (n < max) {
		long pid = spawn("spawnflood", child);
		if (pid < 0) {
			err = pid;
			break;
		}
		n++;
	}
	if (err)
		printf("spawnflood: started %lu children; spawn then returned %ld (%s)\n", n, err,
		       errname(err));
	else
		printf("spawnflood: started %lu children; no spawn failed\n", n);
	unsigned long failed = 0, started = 0;
	long last = 0;
	for (unsigned long i = 0; i < retry; i++) {
		long pid = spawn("spawnflood", child);
		if (pid < 0) {
			failed++;
			last = pid;
		} else {
			started++;
		}
	}
	printf("spawnflood: %lu more tries: %lu failed (%ld), %lu started\n", retry, failed,
	       last, started);
	printf("spawnflood: holding them until killed\n");
	sleep_forever();
}
