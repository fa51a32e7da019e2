/* true: exits 0 at once and says nothing, as Unix's true(1).
 *
 * What it shows: the smallest process, made and unmade. The fuzzers'
 * spawn=true (user/sysfuzz.c, user/ipcfuzz.c) start it over and over, so
 * that fault injection meets every allocation of a process's making
 * without the children filling the console. */
#include "user/lib/crt0.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}
