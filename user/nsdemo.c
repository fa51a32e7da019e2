/* nsdemo: a name server, a server found through it, and a client that
 * was given nothing but the name server. It makes two endpoints, starts
 * names (user/names.c) on the first and the echo server pong on the
 * second, registers the second under "echo" (the message grants the
 * handle), then starts ping with only the name server's handle and
 * name=echo: ping looks "echo" up, is granted a handle to pong's
 * endpoint, and calls it. At the end it stops the name server.
 * What it shows: capabilities moving in messages; a process reaches only
 * what someone chose to hand it. */
#include "user/lib/crt0.h"
#include "user/lib/stdio.h"
#include "user/lib/ipc.h"
#include "user/lib/names.h"

static long must(const char *what, long r)
{
	if (r < 0) {
		dprintf(STDERR_FILENO, "nsdemo: %s: error %ld\n", what, r);
		exit(1);
	}
	return r;
}

int main(int argc, char **argv)
{
	(void)argc; (void)argv;
	int ns = (int)must("endpoint_create", endpoint_create());
	int echo = (int)must("endpoint_create", endpoint_create());
	long names = must("spawn names", spawn_handles("names", NULL, &ns, 1));
	long pong = must("spawn pong", spawn_handles("pong", NULL, &echo, 1));
	printf("nsdemo: names is pid %ld, pong is pid %ld\n", names, pong);
	long r = names_register(ns, "echo", echo);
	printf("nsdemo: register echo: %s\n", r == NAMES_OK ? "ok" : "refused");
	must("register", r == NAMES_OK ? 0 : -1);
	char *pargv[] = { "ping", "calls=1000", "name=echo", NULL };
	long ping = must("spawn ping", spawn_handles("ping", pargv, &ns, 1));
	int status = 0;
	wait4(ping, &status, 0, NULL);
	wait4(pong, NULL, 0, NULL);   /* ping told it to quit */
	kill(names, SIGTERM);
	wait4(names, NULL, 0, NULL);
	printf("nsdemo: ping exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
