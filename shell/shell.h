/* The serial shell: `fold> ` on COM1. */
#ifndef FOLD_KERNEL_SHELL_H
#define FOLD_KERNEL_SHELL_H
#include "lib/types.h"

#define SHELL_LINE_MAX 128

/* The line editor, separate from the serial port so the shell suite can
 * type into it. */
struct line_editor {
	char buf[SHELL_LINE_MAX + 1];
	size_t len;
	bool overflow;
	bool echo;
};
/* Feed one received byte; returns true when a line is complete (in buf,
 * NUL-terminated) or was rejected (overflow set, buf empty). */
bool line_editor_feed(struct line_editor *e, int c);

struct shell_cmd {
	const char *name;
	const char *usage;
	int (*fn)(int argc, char **argv);
};
extern const struct shell_cmd shell_cmds[];
extern const size_t shell_ncmds;

/* shell/shell_proc.c: the process commands. */
int cmd_run(int argc, char **argv);
int cmd_spawn(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_sleep(int argc, char **argv);
int cmd_programs(int argc, char **argv);
/* shell/shell_fail.c: fault injection. */
int cmd_fail(int argc, char **argv);

/* Run one command line; returns 0, or -1 if the command failed or was
 * not understood (after printing why). */
int shell_exec(const char *line);
/* Run `;`-separated commands (autorun=). */
int shell_exec_list(const char *list);
/* The interactive loop; returns after `poweroff`... which does not return. */
__noreturn void shell_interactive(void);
#endif
