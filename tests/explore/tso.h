/* x86-TSO for Part B (tso.c): each CPU's store buffer, as the x86-TSO
 * model describes it (Owens, Sarkar and Sewell, "A better x86 memory
 * model: x86-TSO", TPHOLs 2009; the rules of Intel SDM Vol. 3A 9.2.2).
 *
 *   - A plain store goes into its CPU's buffer, in order; other CPUs do
 *     not see it yet.
 *   - A load reads the newest buffered store of its own CPU to that
 *     byte, if any (store forwarding), else memory.
 *   - The buffer drains to memory oldest first, one store a step, at a
 *     time the explorer chooses: a drainer thread per CPU (fx_drainer).
 *   - A LOCK-prefixed instruction and MFENCE wait until their CPU's
 *     buffer is empty (SDM Vol. 3A 9.2.2: "locked instructions have a
 *     total order", "reads and writes cannot be reordered with locked
 *     instructions"; Vol. 2B MFENCE).
 *
 * The buffer is also its CPU's context object for the engine: every
 * step of a CPU reads it, a buffered store and a drain write it, so the
 * order of a CPU's steps and its drains is explored where it matters. */
#ifndef FOLD_TESTS_EXPLORE_TSO_H
#define FOLD_TESTS_EXPLORE_TSO_H

#include <stdbool.h>
#include <stdint.h>

#define FX_SB_MAX 8

struct fx_sb {
	const char *cpu;         /* "CPU1": for the step log */
	int n;
	uint64_t addr[FX_SB_MAX], val[FX_SB_MAX];
	int size[FX_SB_MAX];
};

/* Memory, shared by every CPU: a few bytes by address, zero until
 * written; fx_mem_clear() forgets them all. */
void fx_mem_clear(void);
uint64_t fx_read(uint64_t addr, int size);
void fx_write(uint64_t addr, int size, uint64_t v);

/* What a CPU with buffer sb reads at addr: its own newest buffered
 * bytes first, then memory. sb NULL: memory. */
uint64_t fx_sb_read(const struct fx_sb *sb, uint64_t addr, int size);
/* A plain store into the buffer (false if it is full). */
bool fx_sb_push(struct fx_sb *sb, uint64_t addr, int size, uint64_t v);
/* May a locked instruction or MFENCE of this CPU run: its buffer empty. */
bool fx_sb_empty(const void *sb);

/* An explorer thread's body: drain sb to memory, one store a step, for
 * as long as the run lasts (blocked while the buffer is empty). */
void fx_drainer(struct fx_sb *sb);

#endif
