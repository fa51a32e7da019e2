/* Part B's instruction interpreter (fold_insn.c): the x86-64 instructions
 * the count models' probes compile to, read from the built kernel by
 * tests/explore/fold_probes.py, run one engine step per instruction. */
#ifndef FOLD_TESTS_EXPLORE_FOLD_INSN_H
#define FOLD_TESTS_EXPLORE_FOLD_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/explore/explore.h"
#include "tests/explore/tso.h"

enum { FX_IMM, FX_REG, FX_MEM };

struct fx_operand {
	int type;
	int size;                /* bytes, for a register; 0 for the others */
	uint64_t imm;            /* FX_IMM */
	int reg;                 /* FX_REG: 0..15 (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..) */
	bool gs;                 /* FX_MEM: %gs:disp(base) */
	int64_t disp;
	int base;                /* -1: none (an absolute address) */
	int index, scale;        /* disp(base,index,scale); index -1: none */
};

struct fx_insn {
	uint64_t addr;
	char text[80];           /* "lock andl $0x7fffffff,0xffffffff80171f88" */
	char op[16];             /* the operation, suffix and lock prefix removed */
	bool lock;
	int size;                /* operand size in bytes */
	int nops;
	struct fx_operand ops[2];
	uint64_t target;         /* a jump's */
	char call[48];           /* a call's symbol, or a jump's out of the function */
};

#define FX_MAX_INSNS 48
#define FX_MAX_FUNCS 8

struct fx_func {
	char name[48];
	int n;
	struct fx_insn insns[FX_MAX_INSNS];
};

struct fx_prog {
	char model[16];
	uint64_t count, count_init, flags, gs, gs0, rsp, arg;
	int nmem;
	uint64_t mem_addr[8], mem_val[8];
	int nfuncs;
	struct fx_func funcs[FX_MAX_FUNCS];
	char outcome[96];        /* a litmus test's (litmus.c) */
};

/* One CPU context: registers, flags, and the model's hooks. */
struct fx_cpu {
	const char *name;
	uint64_t reg[16];
	bool zf, sf;
	/* Added to every step's operation: the context object (the owner's
	 * steps read it, the IPI's entry and exit write it) and when the
	 * context may run. */
	const void *ctx_obj;
	int ctx_kind;
	ex_cond_fn cond;
	const void *cond_arg;
	/* Filled in as it runs: the value the last dec stored, whether a
	 * call to preempt_schedule_thunk (or any call) was made. */
	uint64_t dec_value;
	bool called;
	bool mid;                /* between an unlocked RMW's load and store */
	void (*before_dec)(struct fx_cpu *cpu);   /* at the dec's first step */
	/* Its store buffer (x86-TSO, tso.h), also its ctx_obj; NULL: its
	 * stores reach memory at once (sequential consistency). */
	struct fx_sb *sb;
	uint64_t gs;             /* its per-CPU area; 0: the program's gs */
	/* A call (or a tail call's jmp) to a function the program does not
	 * hold: true if the front end modelled it (the IPI's send); else
	 * the call counts as preempt_schedule()'s (called). */
	bool (*on_call)(struct fx_cpu *cpu, const char *sym);
};

/* Read FILE (fold_probes.py's format); false with *err set if it cannot. */
bool fx_load(const char *path, struct fx_prog *p, char *err, size_t size);
const struct fx_func *fx_func(const struct fx_prog *p, const char *name);

/* The memory all CPUs share: the program's words, zero elsewhere
 * (fx_read and fx_write: tso.h). */
void fx_mem_reset(const struct fx_prog *p);

/* Run f on cpu from its entry to its ret: one scheduling point per
 * instruction, two for an unlocked read-modify-write of memory (its load
 * and its store), one for a locked one. Returns %rax. */
uint64_t fx_run(struct fx_cpu *cpu, const struct fx_prog *p, const struct fx_func *f);

#endif
