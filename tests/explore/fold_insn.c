/* The interpreter of Part B: the instructions fold's count models compile
 * to (AT&T syntax, as objdump prints them), in the explorer's threads.
 * Only what the probes use is known: mov, movzbl, inc, dec, add, sub, and,
 * or, xor, cmp, test, sete/setne, je/jne/js/jns/jmp, push, pop, call, ret,
 * nop; an instruction it does not know stops the run with its name, so a
 * change of the compiled code cannot go unmodelled. Each memory access
 * is a step on the object "that address"; an unlocked read-modify-write
 * of memory is two steps, as a CPU does it (the load, then the store: SDM
 * Vol. 3A 9.1.2.2, only a LOCK-prefixed one is atomic to other CPUs), a
 * locked one is one step. */
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
	o->base = -1;
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
	if (n >= sizeof(name) || end[2 + n] != ')')
		return false; /* an index register: not in the probes */
	memcpy(name, end + 2, n);
	name[n] = 0;
	int size;
	return parse_reg(name, &o->base, &size) && size == 8;
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
	if (!strncmp(m, "nop", 3)) {
		strcpy(in->op, "nop"); /* padding: never reached, never a step */
		return true;
	}
	if (m[0] == 'j') {
		snprintf(in->op, sizeof(in->op), "%s", m);
		in->target = strtoull(ops, NULL, 16);
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
	static const char *const known[] = { "movzbl", "mov", "inc", "dec", "add", "sub", "and",
					     "or", "xor", "cmp", "test", "sete", "setne", "push",
					     "pop", "ret", "nop", "cs", "xchg", NULL };
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
		if (sscanf(line, "model %15s", p->model) == 1)
			continue;
		if (sscanf(line, "count %lx %lx", &a, &b) == 2) {
			p->count = a, p->count_init = b;
		} else if (sscanf(line, "flags %lx", &a) == 1) {
			p->flags = a;
		} else if (sscanf(line, "mem %lx %lx", &a, &b) == 2 && p->nmem < 8) {
			p->mem_addr[p->nmem] = a, p->mem_val[p->nmem++] = b;
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

/* ---- memory: a few bytes, by address ---- */

#define MEM_CELLS 256
static uint64_t cell_addr[MEM_CELLS];
static uint8_t cell_val[MEM_CELLS];
static int ncells;

static uint8_t *byte_at(uint64_t addr, bool create)
{
	for (int i = 0; i < ncells; i++)
		if (cell_addr[i] == addr)
			return &cell_val[i];
	if (!create)
		return NULL;
	if (ncells == MEM_CELLS) {
		fprintf(stderr, "explore fold: out of memory cells\n");
		exit(2);
	}
	cell_addr[ncells] = addr;
	cell_val[ncells] = 0;
	return &cell_val[ncells++];
}

uint64_t fx_read(uint64_t addr, int size)
{
	uint64_t v = 0;
	for (int i = size - 1; i >= 0; i--) {
		uint8_t *b = byte_at(addr + (uint64_t)i, false);
		v = v << 8 | (b ? *b : 0);
	}
	return v;
}

static void fx_write(uint64_t addr, int size, uint64_t v)
{
	for (int i = 0; i < size; i++, v >>= 8)
		*byte_at(addr + (uint64_t)i, true) = (uint8_t)v;
}

void fx_mem_reset(const struct fx_prog *p)
{
	ncells = 0;
	fx_write(p->count, 4, p->count_init);
	fx_write(p->flags, 8, 0);
	for (int i = 0; i < p->nmem; i++)
		fx_write(p->mem_addr[i], 8, p->mem_val[i]);
}

/* ---- running a function ---- */

static uint64_t mask(int size)
{
	return size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;
}

static uint64_t addr_of(const struct fx_cpu *c, const struct fx_prog *p, const struct fx_operand *o)
{
	return (uint64_t)o->disp + (o->gs ? p->gs : 0) + (o->base >= 0 ? c->reg[o->base] : 0);
}

static uint64_t get(const struct fx_cpu *c, uint64_t a, const struct fx_operand *o, int size)
{
	if (o->type == FX_IMM)
		return o->imm & mask(size);
	if (o->type == FX_REG)
		return c->reg[o->reg] & mask(size);
	return fx_read(a, size);
}

/* A register write: 32 bits clear the upper half, 8 keep it (SDM Vol. 1 3.4.1.1). */
static void set_reg(struct fx_cpu *c, int reg, int size, uint64_t v)
{
	if (size == 8)
		c->reg[reg] = v;
	else if (size == 4)
		c->reg[reg] = v & 0xffffffffULL;
	else
		c->reg[reg] = (c->reg[reg] & ~mask(size)) | (v & mask(size));
}

static void point(struct fx_cpu *c, uint64_t addr, int kind)
{
	struct ex_op op = { { addr ? (const void *)(uintptr_t)addr : NULL, c->ctx_obj },
			    { (uint8_t)(addr ? kind : EX_NONE), (uint8_t)c->ctx_kind } };
	ex_point(&op, c->cond, c->cond_arg);
}

static uint64_t alu(const char *op, uint64_t a, uint64_t b, int size)
{
	uint64_t r;
	if (!strcmp(op, "inc"))
		r = a + 1;
	else if (!strcmp(op, "dec"))
		r = a - 1;
	else if (!strcmp(op, "add"))
		r = a + b;
	else if (!strcmp(op, "sub") || !strcmp(op, "cmp"))
		r = a - b;
	else if (!strcmp(op, "and") || !strcmp(op, "test"))
		r = a & b;
	else if (!strcmp(op, "or"))
		r = a | b;
	else
		r = a ^ b; /* xor */
	return r & mask(size);
}

static bool is_rmw(const char *op)
{
	static const char *const ops[] = { "inc", "dec", "add", "sub", "and", "or", "xor", NULL };
	for (int i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static void log_step(const struct fx_prog *p, const struct fx_insn *in, const char *what)
{
	if (!ex_logging)
		return;
	char text[128];
	snprintf(text, sizeof(text), "%s%s", in->text, what);
	ex_log("%-26s count 0x%08llx, TIF_NEED_RESCHED %llu", text,
	       (unsigned long long)fx_read(p->count, 4),
	       (unsigned long long)(fx_read(p->flags, 8) & 1));
}

uint64_t fx_run(struct fx_cpu *c, const struct fx_prog *p, const struct fx_func *f)
{
	ex_activity("%s", f->name);
	for (int pc = 0;;) {
		if (pc >= f->n) {
			ex_fail("%s: %s runs past its last instruction", c->name, f->name);
			ex_thread_abort();
		}
		const struct fx_insn *in = &f->insns[pc++];
		const char *op = in->op;
		if (!strcmp(op, "nop") || !strcmp(op, "cs"))
			continue;
		int m = -1, n = in->nops, size = in->size;
		for (int i = 0; i < n; i++)
			if (in->ops[i].type == FX_MEM)
				m = i;
		uint64_t a = m >= 0 ? addr_of(c, p, &in->ops[m]) : 0;
		const struct fx_operand *dst = n ? &in->ops[n - 1] : NULL, *src = &in->ops[0];
		bool dec = !strcmp(op, "dec");
		if (is_rmw(op) && dst->type == FX_MEM) {
			uint64_t v, r;
			if (!in->lock) { /* two steps: another CPU may write between them */
				point(c, a, EX_READ);
				if (dec && c->before_dec)
					c->before_dec(c);
				v = fx_read(a, size);
				log_step(p, in, " (load)");
				c->mid = true; /* no interrupt inside an instruction */
				point(c, a, EX_WRITE);
				c->mid = false;
			} else {
				point(c, a, EX_WRITE);
				v = fx_read(a, size);
			}
			r = alu(op, v, n == 2 ? get(c, a, src, size) : 0, size);
			fx_write(a, size, r);
			c->zf = r == 0;
			c->sf = r >> (size * 8 - 1) & 1;
			if (dec)
				c->dec_value = r;
			log_step(p, in, in->lock ? "" : " (store)");
			continue;
		}
		bool store = !strcmp(op, "mov") && dst && dst->type == FX_MEM;
		point(c, a, m < 0 ? EX_NONE : store ? EX_WRITE : EX_READ);
		if (dec && c->before_dec)
			c->before_dec(c);
		if (!strcmp(op, "mov") || !strcmp(op, "movzbl")) {
			uint64_t v = get(c, a, src, size);
			if (store)
				fx_write(a, size, v);
			else
				set_reg(c, dst->reg, !strcmp(op, "movzbl") ? 4 : size, v);
		} else if (is_rmw(op) || !strcmp(op, "cmp") || !strcmp(op, "test")) {
			uint64_t r = alu(op, get(c, a, dst, size), n == 2 ? get(c, a, src, size) : 0, size);
			c->zf = r == 0;
			c->sf = r >> (size * 8 - 1) & 1;
			if (is_rmw(op))
				set_reg(c, dst->reg, size, r);
			if (dec)
				c->dec_value = r;
		} else if (!strcmp(op, "sete") || !strcmp(op, "setne")) {
			set_reg(c, dst->reg, 1, c->zf == !strcmp(op, "sete"));
		} else if (op[0] == 'j') {
			bool taken = !strcmp(op, "jmp") || (!strcmp(op, "je") && c->zf) ||
				     (!strcmp(op, "jne") && !c->zf) || (!strcmp(op, "js") && c->sf) ||
				     (!strcmp(op, "jns") && !c->sf);
			if (strcmp(op, "jmp") && strcmp(op, "je") && strcmp(op, "jne") &&
			    strcmp(op, "js") && strcmp(op, "jns"))
				goto unknown;
			if (taken) {
				int to = -1;
				for (int i = 0; i < f->n; i++)
					if (f->insns[i].addr == in->target)
						to = i;
				if (to < 0) {
					ex_fail("%s: %s jumps out of itself", c->name, in->text);
					ex_thread_abort();
				}
				pc = to;
			}
			log_step(p, in, taken ? " (taken)" : " (not taken)");
			continue;
		} else if (!strcmp(op, "push")) {
			c->reg[4] -= 8; /* its own stack: no other CPU reads it */
		} else if (!strcmp(op, "pop")) {
			c->reg[4] += 8;
		} else if (!strcmp(op, "call")) {
			c->called = true;
			log_step(p, in, " (preempts)");
			continue;
		} else if (!strcmp(op, "ret")) {
			log_step(p, in, "");
			return c->reg[0];
		} else {
unknown:
			ex_fail("%s: %s: the explorer does not model `%s`", c->name, f->name, in->text);
			ex_thread_abort();
		}
		log_step(p, in, "");
	}
}
