/* Part B's program files, parsed into what fold_insn.c runs:
 * tests/explore/fold_probes.py writes one for each count model from its
 * fold.elf, and tests/explore/litmus/ holds the litmus tests. A line each:
 *
 *   model racy
 *   count ADDR VALUE    the owner's preempt count: where, and at the start
 *   flags ADDR          the running thread's flags (TIF_NEED_RESCHED: bit 0)
 *   mem ADDR VALUE      every other word the probes read (gs:current ...)
 *   gs ADDR             CPU 1's per-CPU area (%gs: operands)
 *   gs0 ADDR            CPU 0's
 *   rsp ADDR            CPU 1's stack pointer (COUNT=ti finds its count there)
 *   arg VALUE           %rdi of the remote's function (resched_curr: CPU 1)
 *   outcome ...         a litmus test's outcome (litmus.c)
 *   func NAME
 *   ADDR MNEMONIC OPERANDS      as objdump prints them (AT&T syntax); a
 *                               %rip-relative operand replaced by its
 *                               absolute address, a call's target by the
 *                               symbol's name (so is a jump's out of the
 *                               function: a tail call), "lock." before a
 *                               locked one
 *
 * and blank lines and # comments. */
#include "tests/explore/fold_insn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const regs64[16] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
					"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
static const char *const regs32[16] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
					"r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d" };
static const char *const regs8[16] = { "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil",
				       "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b" };

static bool parse_reg(const char *s, int *reg, int *size)
{
	for (int i = 0; i < 16; i++) {
		if (!strcmp(s, regs64[i]))
			*reg = i, *size = 8;
		else if (!strcmp(s, regs32[i]))
			*reg = i, *size = 4;
		else if (!strcmp(s, regs8[i]))
			*reg = i, *size = 1;
		else
			continue;
		return true;
	}
	return false;
}

static bool parse_operand(const char *s, struct fx_operand *o)
{
	memset(o, 0, sizeof(*o));
	o->base = o->index = -1;
	if (*s == '$') {
		o->type = FX_IMM;
		o->imm = strtoull(s + 1, NULL, 0);
		return true;
	}
	if (*s == '%' && strncmp(s, "%gs:", 4)) {
		o->type = FX_REG;
		return parse_reg(s + 1, &o->reg, &o->size);
	}
	o->type = FX_MEM;
	if (!strncmp(s, "%gs:", 4)) {
		o->gs = true;
		s += 4;
	}
	char *end;
	o->disp = (int64_t)strtoull(s, &end, 0);
	if (*end == 0)
		return true;
	if (*end != '(' || end[1] != '%')
		return false;
	char name[8];
	size_t n = strcspn(end + 2, ",)");
	if (n >= sizeof(name))
		return false;
	memcpy(name, end + 2, n);
	name[n] = 0;
	int size;
	if (!parse_reg(name, &o->base, &size) || size != 8)
		return false;
	o->index = -1;
	if (end[2 + n] == ')')
		return true;
	/* disp(base,index,scale) */
	const char *ix = end + 3 + n;
	size_t k = strcspn(ix, ",");
	if (ix[0] != '%' || k - 1 >= sizeof(name) || ix[k] != ',')
		return false;
	memcpy(name, ix + 1, k - 1);
	name[k - 1] = 0;
	o->scale = atoi(ix + k + 1);
	return parse_reg(name, &o->index, &size) && size == 8 &&
	       (o->scale == 1 || o->scale == 2 || o->scale == 4 || o->scale == 8);
}

static int size_of(const char *mn, const struct fx_insn *in)
{
	for (int i = 0; i < in->nops; i++)
		if (in->ops[i].type == FX_REG)
			return in->ops[i].size;
	size_t n = strlen(mn);
	switch (mn[n - 1]) {
	case 'b': return 1;
	case 'w': return 2;
	case 'l': return 4;
	case 'q': return 8;
	}
	return 8;
}

/* "ADDR MNEMONIC OPERANDS" */
static bool parse_insn(char *line, struct fx_insn *in)
{
	memset(in, 0, sizeof(*in));
	char mn[24] = "", ops[96] = "";
	if (sscanf(line, "%lx %23s %95s", &in->addr, mn, ops) < 2)
		return false;
	snprintf(in->text, sizeof(in->text), "%s%s%s%s", strncmp(mn, "lock.", 5) ? "" : "lock ",
		 strncmp(mn, "lock.", 5) ? mn : mn + 5, ops[0] ? " " : "", ops);
	in->lock = !strncmp(mn, "lock.", 5);
	const char *m = in->lock ? mn + 5 : mn;
	if (!strncmp(m, "call", 4)) {
		strcpy(in->op, "call");
		snprintf(in->call, sizeof(in->call), "%s", ops);
		return true;
	}
	if (!strncmp(m, "nop", 3) || !strcmp(m, "cs")) { /* cs nopw: the same */
		strcpy(in->op, "nop"); /* padding: never reached, never a step */
		return true;
	}
	if (m[0] == 'j') {
		char *end;
		snprintf(in->op, sizeof(in->op), "%s", m);
		in->target = strtoull(ops, &end, 16);
		if (*end) /* out of the function: a tail call by name */
			snprintf(in->call, sizeof(in->call), "%s", ops);
		return true;
	}
	/* Operands: split at the commas outside parentheses. */
	char *s = ops;
	int depth = 0;
	for (char *c = ops;; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')')
			depth--;
		if ((*c == ',' && !depth) || !*c) {
			bool last = !*c;
			*c = 0;
			if (*s) {
				if (in->nops == 2 || !parse_operand(s, &in->ops[in->nops]))
					return false;
				in->nops++;
			}
			if (last)
				break;
			s = c + 1;
		}
	}
	/* Longest first where one is a prefix of another (cmpxchg, cmp). */
	static const char *const known[] = { "cmpxchg", "movzbl", "mov", "inc", "dec", "add",
					     "sub", "and", "or", "xor", "cmp", "test", "sete",
					     "setne", "push", "pop", "ret", "nop", "xchg",
					     "mfence", "lea", "shl", NULL };
	for (int i = 0; known[i]; i++)
		if (!strncmp(m, known[i], strlen(known[i]))) {
			snprintf(in->op, sizeof(in->op), "%s", known[i]);
			break;
		}
	if (!in->op[0])
		snprintf(in->op, sizeof(in->op), "%s", m); /* unknown: fx_run says so */
	in->size = strcmp(in->op, "movzbl") ? size_of(m, in) : 1;
	return true;
}

bool fx_load(const char *path, struct fx_prog *p, char *err, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, size, "cannot read %s", path);
		return false;
	}
	memset(p, 0, sizeof(*p));
	char line[256];
	struct fx_func *fn = NULL;
	int no = 0;
	while (fgets(line, sizeof(line), f)) {
		no++;
		line[strcspn(line, "\n")] = 0;
		uint64_t a, b;
		if (!line[0] || line[0] == '#' || sscanf(line, "model %15s", p->model) == 1)
			continue;
		if (!strncmp(line, "outcome ", 8)) {
			snprintf(p->outcome, sizeof(p->outcome), "%s", line + 8);
			continue;
		}
		if (sscanf(line, "count %lx %lx", &a, &b) == 2) {
			p->count = a, p->count_init = b;
		} else if (sscanf(line, "flags %lx", &a) == 1) {
			p->flags = a;
		} else if (sscanf(line, "mem %lx %lx", &a, &b) == 2 && p->nmem < 8) {
			p->mem_addr[p->nmem] = a, p->mem_val[p->nmem++] = b;
		} else if (sscanf(line, "gs0 %lx", &a) == 1) { /* before "gs": a prefix */
			p->gs0 = a;
		} else if (sscanf(line, "gs %lx", &a) == 1) {
			p->gs = a;
		} else if (sscanf(line, "rsp %lx", &a) == 1) {
			p->rsp = a;
		} else if (sscanf(line, "arg %lx", &a) == 1) {
			p->arg = a;
		} else if (!strncmp(line, "func ", 5) && p->nfuncs < FX_MAX_FUNCS) {
			fn = &p->funcs[p->nfuncs++];
			snprintf(fn->name, sizeof(fn->name), "%s", line + 5);
		} else if (fn && fn->n < FX_MAX_INSNS && parse_insn(line, &fn->insns[fn->n])) {
			fn->n++;
		} else {
			snprintf(err, size, "%s:%d: cannot read \"%s\"", path, no, line);
			fclose(f);
			return false;
		}
	}
	fclose(f);
	return true;
}

const struct fx_func *fx_func(const struct fx_prog *p, const char *name)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	return NULL;
}
