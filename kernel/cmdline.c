#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/parse.h"
#include "lib/string.h"
#include "lib/string_helpers.h"
#include "lib/format.h"

/* The records early_param() leaves (kernel/cmdline.h): linker.ld brackets
 * the section with these in the kernel; a host build gets them from the
 * linker, and weak, so a program with no option at all links too. */
extern const struct cmdline_option __start_cmdline_options[] __attribute__((weak));
extern const struct cmdline_option __stop_cmdline_options[] __attribute__((weak));
#define for_each_option(o) \
	for (const struct cmdline_option *o = __start_cmdline_options; o < __stop_cmdline_options; o++)

static size_t nr_options(void)
{
	return (size_t)(__stop_cmdline_options - __start_cmdline_options);
}

int cmdline_u32(const char *v, u32 *dst, u32 lo, u32 hi)
{
	u64 n;
	if (parse_u64(v, &n) || n < lo || n > hi)
		return -1;
	*dst = (u32)n;
	return 0;
}

int cmdline_string(const char *v, char *dst, size_t size)
{
	if (!*v || strlen(v) >= size)
		return -1;
	strlcpy(dst, v, size);
	return 0;
}

void *cmdline_value(const char *key)
{
	for_each_option(o)
		if (!strcmp(o->key, key))
			return o->var;
	return NULL;
}

size_t cmdline_values_size(void)
{
	size_t n = 0;
	for_each_option(o)
		n += o->size;
	return n;
}

void cmdline_save(void *buf)
{
	u8 *p = buf;
	for_each_option(o) {
		memcpy(p, o->var, o->size);
		p += o->size;
	}
}

void cmdline_restore(const void *buf)
{
	const u8 *p = buf;
	for_each_option(o) {
		memcpy(o->var, p, o->size);
		p += o->size;
	}
}

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
	size_t nopts = nr_options();
	const char *good[nopts + 1]; /* + 1: never an array of none */
	memset(good, 0, sizeof(good));
	for (size_t i = 0; i < n; i++) {
		char e1[ESCAPE_SIZE(60)], e2[ESCAPE_SIZE(60)];
		char *eq = strchr(words[i], '=');
		size_t j;
		if (eq == words[i]) {
			pr_warn("cmdline: '%s': an option needs a name before its '=' (known:%s)\n",
				string_escape_str(words[i], e1, sizeof(e1)), CMDLINE_KEYS);
			warnings++;
			continue;
		}
		if (eq)
			*eq = 0;
		for (j = 0; j < nopts; j++)
			if (!strcmp(__start_cmdline_options[j].key, words[i]))
				break;
		if (j == nopts) {
			pr_warn("cmdline: unknown option '%s' ignored (known:%s)\n",
				string_escape_str(words[i], e1, sizeof(e1)), CMDLINE_KEYS);
			warnings++;
			continue;
		}
		const struct cmdline_option *o = &__start_cmdline_options[j];
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
