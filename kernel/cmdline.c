#include "kernel/cmdline.h"
#include "mm/uaccess.h"
#include "kernel/printk.h"
#include "sched/preempt_mode.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/string_helpers.h"
#include "lib/format.h"

struct cmdline_values cmdline = {
	.preempt_mode = -1,
	.hz = 1000,
	.watchdog_thresh = 10,
	.bench = true,
	.serial_drv = -1,
};

/* Each option: its key, what a value looks like, and a setter that returns
 * 0 or -1 for a bad value. The defaults live in `cmdline` above. */
struct option {
	const char *key;
	const char *expect;
	int (*set)(const char *v);
	const char *def;
};

static int set_loglevel(const char *v)
{
	u64 n;
	if (parse_u64(v, &n) || n > 7)
		return -1;
	console_loglevel = (int)n;
	return 0;
}

static int set_preempt(const char *v)
{
	int m = preempt_mode_parse(v);
	if (m < 0)
		return -1;
	cmdline.preempt_mode = m;
	return 0;
}

static int set_string(char *dst, size_t size, const char *v)
{
	if (!*v || strlen(v) >= size)
		return -1;
	strlcpy(dst, v, size);
	return 0;
}

static int set_test(const char *v)
{
	return set_string(cmdline.test, sizeof(cmdline.test), v);
}

static int set_autorun(const char *v)
{
	return set_string(cmdline.autorun, sizeof(cmdline.autorun), v);
}

static int set_idle(const char *v)
{
	static const char *const w[] = { "halt", "poll" };
	int i = match_word(v, w, 2);
	if (i < 0)
		return -1;
	cmdline.idle_poll = i == 1;
	return 0;
}

static int set_hz(const char *v)
{
	u64 n;
	if (parse_u64(v, &n) || n < 10 || n > 10000)
		return -1;
	cmdline.hz = (u32)n;
	return 0;
}

static int set_watchdog_thresh(const char *v)
{
	u64 n;
	if (parse_u64(v, &n) || n > 60)
		return -1;
	cmdline.watchdog_thresh = (u32)n;
	return 0;
}

static int set_maxcpus(const char *v)
{
	u64 n;
	if (parse_u64(v, &n) || n < 1 || n > 64)
		return -1;
	cmdline.nr_cpus = (u32)n;
	return 0;
}

static int set_bench(const char *v)
{
	return parse_bool(v, &cmdline.bench);
}

static int set_clock(const char *v)
{
	static const char *const w[] = { "wall", "icount" };
	int i = match_word(v, w, 2);
	if (i < 0)
		return -1;
	cmdline.icount = i == 1;
	return 0;
}

/* mm/uaccess.h: might_fault() in every user copy, or (off) none, so
 * its cost can be measured; MIGHT_FAULT=0 at build time removes it. */
static int set_might_fault(const char *v)
{
#if MIGHT_FAULT
	return parse_bool(v, &might_fault_enabled);
#else
	bool on;
	if (parse_bool(v, &on))
		return -1;
	if (on)
		pr_warn("cmdline: might_fault=on: this kernel was built with MIGHT_FAULT=0, so there is none\n");
	return 0;
#endif
}

static int set_serial_drv(const char *v)
{
	static const char *const w[] = { "off", "on", "auto" };
	int i = match_word(v, w, 3);
	if (i < 0)
		return -1;
	cmdline.serial_drv = i == 2 ? -1 : i;
	return 0;
}

static int set_shell(const char *v)
{
	return parse_bool(v, &cmdline.shell);
}

#define OPTION(key, expect, def) { #key, expect, set_##key, def },
#define OPTION_KEY(key, expect, def) " " #key
static const struct option options[] = { CMDLINE_OPTIONS(OPTION) };
static const char option_keys[] = CMDLINE_OPTIONS(OPTION_KEY); /* " loglevel preempt ..." */

/* Split in place on spaces, as split_words() does, but a double-quoted
 * stretch keeps its spaces and loses its quotes, as in Linux:
 * autorun="bench latency;stat"; and a backslash makes the next character
 * plain (GRUB writes a word with spaces as "..." and escapes " and \
 * inside it). Returns the word count (max + 1: too many), or -1 for an
 * unterminated quote. */
static int split_quoted(char *s, char **words, int max)
{
	int n = 0;
	char *out = s;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		words[n++] = out;
		bool quoted = false;
		while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
			if (*s == '"')
				quoted = !quoted;
			else if (*s == '\\' && s[1])
				*out++ = *++s;
			else
				*out++ = *s;
			s++;
		}
		if (quoted)
			return -1;
		if (*s)
			s++;
		*out++ = 0;
	}
	return n;
}

int cmdline_parse(const char *s)
{
	static char buf[CMDLINE_MAX + 1]; /* boot only: one caller at a time */
	char *words[64];
	int warnings = 0;
	strlcpy(buf, s, sizeof(buf));
	if (strlen(s) >= sizeof(buf)) {
		pr_warn("cmdline: longer than %zu bytes, the rest is ignored\n", sizeof(buf) - 1);
		warnings++;
	}
	int r = split_quoted(buf, words, ARRAY_SIZE(words));
	if (r < 0) {
		pr_warn("cmdline: a double quote is not closed; the command line is ignored\n");
		return warnings + 1;
	}
	size_t n = (size_t)r;
	if (n > ARRAY_SIZE(words)) {
		pr_warn("cmdline: more than %zu options, the rest are ignored\n", ARRAY_SIZE(words));
		n = ARRAY_SIZE(words);
		warnings++;
	}
	/* The last occurrence of an option wins, as in Linux. A bad one is
	 * warned about and changes nothing: the option keeps its last good
	 * value on this line (and the warning says which), or the default. */
	const char *good[ARRAY_SIZE(options)] = { NULL };
	for (size_t i = 0; i < n; i++) {
		char e1[ESCAPE_SIZE(60)], e2[ESCAPE_SIZE(60)];
		char *eq = strchr(words[i], '=');
		size_t j;
		if (eq == words[i]) {
			pr_warn("cmdline: '%s': an option needs a name before its '=' (known:%s)\n",
				string_escape_str(words[i], e1, sizeof(e1)), option_keys);
			warnings++;
			continue;
		}
		if (eq)
			*eq = 0;
		for (j = 0; j < ARRAY_SIZE(options); j++)
			if (!strcmp(options[j].key, words[i]))
				break;
		if (j == ARRAY_SIZE(options)) {
			pr_warn("cmdline: unknown option '%s' ignored (known:%s)\n",
				string_escape_str(words[i], e1, sizeof(e1)), option_keys);
			warnings++;
			continue;
		}
		const struct option *o = &options[j];
		const char *v = eq ? eq + 1 : "";
		if (o->set(v) == 0) {
			good[j] = v;
			continue;
		}
		string_escape_str(v, e1, sizeof(e1));
		if (good[j])
			pr_warn("cmdline: %s=%s: expected %s; keeping %s\n", o->key, e1, o->expect,
				string_escape_str(good[j], e2, sizeof(e2)));
		else
			pr_warn("cmdline: %s=%s: expected %s; using the default (%s)\n", o->key, e1,
				o->expect, o->def);
		warnings++;
	}
	return warnings;
}
