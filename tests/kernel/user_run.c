/* tests/kernel/user_run.h */
#include "tests/kernel/user_run.h"
#include "process/process.h"
#include "process/syscall.h"
#include "kernel/printk.h"
#include "boot/module.h"
#include "tests/kernel/ktest.h"
#include "lib/parse.h"
#include "lib/string.h"

void user_run(struct user_run *r, const char *cmdline, u64 cpus)
{
	char line[256];
	char *argv[16];
	strlcpy(line, cmdline, sizeof(line));
	size_t argc = split_words(line, argv, ARRAY_SIZE(argv));
	memset(r, 0, sizeof(*r));
	struct printk_capture cap = { r->out, sizeof(r->out), 0, true };
	u64 pos = log_head;
	user_write_capture = &cap;
	struct spawn_args a = { argv[0], (int)argc, (const char *const *)argv, NULL, false, cpus, NULL, 0, NULL };
	struct process *p = process_spawn(&a, &r->err);
	if (p) {
		r->pid = p->pid;
		r->status = process_wait(p);
	}
	user_write_capture = NULL;
	log_read(&pos, r->log, sizeof(r->log));
}

static char quiet_buf[USER_OUT_MAX];
static struct printk_capture quiet = { quiet_buf, sizeof(quiet_buf), 0, true };

void user_quiet_begin(void)
{
	quiet.len = 0;
	user_write_capture = &quiet;
}

void user_quiet_end(void)
{
	user_write_capture = NULL;
}

bool user_have(struct ktest *t, const char *prog)
{
	if (module_find(prog))
		return true;
	ktest_skip(t, "no user program '%s' in this ISO", prog);
	return false;
}
