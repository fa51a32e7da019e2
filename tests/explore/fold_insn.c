/* The interpreter of Part B: the instructions fold's count models compile
 * to (AT&T syntax, as objdump prints them), in the explorer's threads.
 * Only what the probes and resched_curr() use is known: mov, movzbl, lea,
 * inc, dec, add, sub, and, or, xor, shl, cmp, test, sete/setne,
 * je/jne/js/jns/jmp, push, pop, call, ret, nop, mfence, xchg, cmpxchg;
 * an instruction it does not know stops the run with its
 * name, so a change of the compiled code cannot go unmodelled. Each
 * memory access is a step on the object "that address"; an unlocked
 * read-modify-write of memory is two steps, as a CPU does it (the load,
 * then the store: SDM Vol. 3A 9.1.2.2, only a LOCK-prefixed one is atomic
 * to other CPUs), a locked one is one step. A CPU with a store buffer
 * (tso.h) puts its plain stores there, and its locked instructions and
 * MFENCE wait for the buffer to drain. */
#include "tests/explore/fold_insn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fx_mem_reset(const struct fx_prog *p)
{
	fx_mem_clear();
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
	uint64_t gs = c->gs ? c->gs : p->gs;
	return (uint64_t)o->disp + (o->gs ? gs : 0) + (o->base >= 0 ? c->reg[o->base] : 0) +
	       (o->index >= 0 ? c->reg[o->index] * (uint64_t)o->scale : 0);
}

static uint64_t get(const struct fx_cpu *c, uint64_t a, const struct fx_operand *o, int size)
{
	if (o->type == FX_IMM)
		return o->imm & mask(size);
	if (o->type == FX_REG)
		return c->reg[o->reg] & mask(size);
	return fx_sb_read(c->sb, a, size);
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

/* The step's operation: the address (if any), the CPU's context, and
 * its store buffer (tso.h): read by a locked instruction or MFENCE,
 * which wait for it, written by a plain store that goes into it. */
static void point_sb(struct fx_cpu *c, uint64_t addr, int kind, int sb_kind, ex_cond_fn cond)
{
	struct ex_op op = { { addr ? (const void *)(uintptr_t)addr : NULL, c->ctx_obj, c->sb },
			    { (uint8_t)(addr ? kind : EX_NONE), (uint8_t)c->ctx_kind,
			      (uint8_t)(c->sb ? sb_kind : EX_NONE) } };
	ex_point(&op, cond, c);
}

static bool may_run(const void *arg)
{
	const struct fx_cpu *c = arg;
	return !c->cond || c->cond(c->cond_arg);
}

/* A locked instruction or MFENCE: when the CPU may run and its store
 * buffer is empty (tso.h). */
static bool drained(const void *arg)
{
	const struct fx_cpu *c = arg;
	return (!c->sb || fx_sb_empty(c->sb)) && may_run(c);
}

static void point(struct fx_cpu *c, uint64_t addr, int kind)
{
	point_sb(c, addr, kind, EX_NONE, may_run);
}

/* A plain store: into the store buffer under TSO, else to memory. */
static void store(struct fx_cpu *c, uint64_t a, int size, uint64_t v)
{
	if (!c->sb) {
		fx_write(a, size, v);
	} else if (!fx_sb_push(c->sb, a, size, v)) {
		ex_fail("%s: more than %d stores buffered", c->name, FX_SB_MAX);
		ex_thread_abort();
	}
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

/* The count and the flag as this CPU sees them, and memory's count when
 * the CPU's buffered store hides it. */
static void log_step(const struct fx_cpu *c, const struct fx_prog *p, const struct fx_insn *in,
		     const char *what)
{
	if (!ex_logging)
		return;
	char text[128], mem[32] = "";
	uint64_t seen = fx_sb_read(c->sb, p->count, 4), in_mem = fx_read(p->count, 4);
	snprintf(text, sizeof(text), "%s%s", in->text, what);
	if (!p->count) { /* a litmus test: its registers */
		ex_log("%-26s %%rax 0x%llx, %%rcx 0x%llx", text, (unsigned long long)c->reg[0],
		       (unsigned long long)c->reg[1]);
		return;
	}
	if (seen != in_mem)
		snprintf(mem, sizeof(mem), " (memory 0x%08llx)", (unsigned long long)in_mem);
	ex_log("%-26s count 0x%08llx%s, TIF_NEED_RESCHED %llu", text, (unsigned long long)seen,
	       mem, (unsigned long long)(fx_sb_read(c->sb, p->flags, 8) & 1));
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
				v = fx_sb_read(c->sb, a, size);
				log_step(c, p, in, " (load)");
				c->mid = true; /* no interrupt inside an instruction */
				if (c->sb) /* the store goes into the buffer */
					point_sb(c, 0, EX_NONE, EX_WRITE, may_run);
				else
					point(c, a, EX_WRITE);
				c->mid = false;
				r = alu(op, v, n == 2 ? get(c, a, src, size) : 0, size);
				store(c, a, size, r);
			} else {
				point_sb(c, a, EX_WRITE, EX_READ, drained);
				v = fx_read(a, size);
				r = alu(op, v, n == 2 ? get(c, a, src, size) : 0, size);
				fx_write(a, size, r);
			}
			c->zf = r == 0;
			c->sf = r >> (size * 8 - 1) & 1;
			if (dec)
				c->dec_value = r;
			log_step(c, p, in, in->lock ? "" : c->sb ? " (store, buffered)" : " (store)");
			continue;
		}
		if (!strcmp(op, "xchg") && m >= 0) { /* locked (SDM Vol. 2B, XCHG) */
			int r = in->ops[1 - m].reg;
			point_sb(c, a, EX_WRITE, EX_READ, drained);
			uint64_t v = fx_read(a, size);
			fx_write(a, size, c->reg[r] & mask(size));
			set_reg(c, r, size, v);
			log_step(c, p, in, "");
			continue;
		}
		if (!strcmp(op, "cmpxchg") && in->lock && m == 1) {
			/* Locked (SDM Vol. 2A, CMPXCHG): %rax against memory;
			 * equal, the source is stored; else memory goes to %rax. */
			point_sb(c, a, EX_WRITE, EX_READ, drained);
			uint64_t v = fx_read(a, size);
			c->zf = v == (c->reg[0] & mask(size));
			if (c->zf)
				fx_write(a, size, c->reg[in->ops[0].reg] & mask(size));
			else
				set_reg(c, 0, size, v);
			log_step(c, p, in, c->zf ? " (stored)" : " (changed since: retried)");
			continue;
		}
		bool st = !strcmp(op, "mov") && dst && dst->type == FX_MEM;
		if (!strcmp(op, "mfence")) {
			point_sb(c, 0, EX_NONE, EX_READ, drained);
			log_step(c, p, in, "");
			continue;
		}
		if (st && c->sb) /* buffered: no other CPU sees it yet */
			point_sb(c, 0, EX_NONE, EX_WRITE, may_run);
		else
			point(c, a, m < 0 || !strcmp(op, "lea") ? EX_NONE : st ? EX_WRITE : EX_READ);
		if (dec && c->before_dec)
			c->before_dec(c);
		if (!strcmp(op, "lea") && m == 0 && dst->type == FX_REG) {
			set_reg(c, dst->reg, size, a); /* the address only: no access */
		} else if (!strcmp(op, "shl") && n == 2 && src->type == FX_IMM && dst->type == FX_REG) {
			uint64_t r = (c->reg[dst->reg] << (src->imm & 63)) & mask(size);
			set_reg(c, dst->reg, size, r);
			c->zf = r == 0;
			c->sf = r >> (size * 8 - 1) & 1;
		} else if (!strcmp(op, "mov") || !strcmp(op, "movzbl")) {
			uint64_t v = get(c, a, src, size);
			if (st)
				store(c, a, size, v);
			if (st && c->sb) {
				log_step(c, p, in, " (buffered)");
				continue;
			}
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
			if (taken && in->call[0]) { /* a tail call: the callee returns for us */
				log_step(c, p, in, "");
				if (!c->on_call || !c->on_call(c, in->call))
					goto unknown;
				return c->reg[0];
			}
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
			log_step(c, p, in, taken ? " (taken)" : " (not taken)");
			continue;
		} else if (!strcmp(op, "push")) {
			c->reg[4] -= 8; /* its own stack: no other CPU reads it */
		} else if (!strcmp(op, "pop")) {
			c->reg[4] += 8;
		} else if (!strcmp(op, "call")) {
			if (c->on_call && c->on_call(c, in->call)) {
				log_step(c, p, in, "");
				continue;
			}
			c->called = true;
			log_step(c, p, in, " (preempts)");
			continue;
		} else if (!strcmp(op, "ret")) {
			log_step(c, p, in, "");
			return c->reg[0];
		} else {
unknown:
			ex_fail("%s: %s: the explorer does not model `%s`", c->name, f->name, in->text);
			ex_thread_abort();
		}
		log_step(c, p, in, "");
	}
}
