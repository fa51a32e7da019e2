/* The serial shell: a line editor (backspace, length limit), the command
 * table, and the interactive loop. Commands are in shell/shell_cmds.c. */
#include "shell/shell.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/time/time.h"
#include "arch/x86_64/kernel/serial.h"
#include "drivers/i8042.h"
#include "sched/sched.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/string_helpers.h"


bool line_editor_feed(struct line_editor *e, int c)
{
	if (c == '\r' || c == '\n') {
		if (e->echo)
			console_write("\n", 1);
		e->buf[e->len] = 0;
		if (e->overflow) {
			console_printf("shell: line too long (at most %d characters); ignored\n",
				       SHELL_LINE_MAX);
			e->buf[0] = 0;
		}
		e->len = 0;
		e->overflow = false;
		return true;
	}
	if (c == 0x7F || c == 0x08) { /* DEL or BS: erase one character */
		if (e->len > 0) {
			e->len--;
			if (e->echo)
				console_write("\b \b", 3);
		}
		return false;
	}
	if (c == 0x15) { /* ^U: erase the line */
		while (e->len > 0) {
			e->len--;
			if (e->echo)
				console_write("\b \b", 3);
		}
		return false;
	}
	if (c < 0x20 || c > 0x7E)
		return false; /* other control bytes and non-ASCII: ignored */
	if (e->len == SHELL_LINE_MAX) {
		e->overflow = true;
		return false;
	}
	e->buf[e->len++] = (char)c;
	if (e->echo) {
		char ch = (char)c;
		console_write(&ch, 1);
	}
	return false;
}

int shell_exec(const char *line)
{
	char buf[SHELL_LINE_MAX + 1], *argv[16];
	if (strlen(line) > SHELL_LINE_MAX) {
		console_printf("shell: line too long (at most %d characters); ignored\n", SHELL_LINE_MAX);
		return -1;
	}
	strlcpy(buf, line, sizeof(buf));
	size_t argc = split_words(buf, argv, ARRAY_SIZE(argv));
	if (argc == 0)
		return 0;
	if (argc > ARRAY_SIZE(argv)) {
		console_printf("shell: too many words (at most %zu)\n", ARRAY_SIZE(argv));
		return -1;
	}
	for (size_t i = 0; i < shell_ncmds; i++)
		if (!strcmp(shell_cmds[i].name, argv[0]))
			return shell_cmds[i].fn((int)argc, argv);
	char e[ESCAPE_SIZE(40)];
	console_printf("shell: unknown command '%s' (try 'help')\n",
		       string_escape_str(argv[0], e, sizeof(e)));
	return -1;
}

int shell_exec_list(const char *list)
{
	int failed = 0;
	const char *p = list;
	while (*p) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char cmd[SHELL_LINE_MAX + 2], esc[ESCAPE_SIZE(SHELL_LINE_MAX)];
		if (len > SHELL_LINE_MAX) {
			memcpy(cmd, p, 40);
			cmd[40] = 0;
			console_printf("fold> %s...\n", string_escape_str(cmd, esc, sizeof(esc)));
			console_printf("shell: line too long (at most %d characters); ignored\n",
				       SHELL_LINE_MAX);
			failed++;
		} else {
			memcpy(cmd, p, len);
			cmd[len] = 0;
			console_printf("fold> %s\n", string_escape_str(cmd, esc, sizeof(esc)));
			if (shell_exec(cmd))
				failed++;
		}
		p += len + (e ? 1 : 0);
	}
	return failed;
}

__noreturn void shell_interactive(void)
{
	struct line_editor e = { .len = 0, .echo = true };
	console_printf("fold> ");
	for (;;) {
		int c = serial_getc();
		if (c < 0)
			c = i8042_getc(); /* the PS/2 keyboard, polled alike */
		if (c < 0) {
			/* Nothing typed: sleep a little (the UART is polled;
			 * 115200 baud is ~11 characters per millisecond and
			 * the FIFO holds 16). */
			sleep_ns(NSEC_PER_MSEC);
			continue;
		}
		if (line_editor_feed(&e, c)) {
			shell_exec(e.buf);
			console_printf("fold> ");
		}
	}
}
