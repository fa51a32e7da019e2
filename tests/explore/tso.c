/* Part B's memory and x86-TSO's store buffers: what tso.h says, and the
 * drainer. */
#include "tests/explore/tso.h"
#include "tests/explore/explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Memory: a few bytes, by address. */

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

void fx_mem_clear(void)
{
	ncells = 0;
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

void fx_write(uint64_t addr, int size, uint64_t v)
{
	for (int i = 0; i < size; i++, v >>= 8)
		*byte_at(addr + (uint64_t)i, true) = (uint8_t)v;
}

uint64_t fx_sb_read(const struct fx_sb *sb, uint64_t addr, int size)
{
	uint64_t v = fx_read(addr, size);
	if (!sb)
		return v;
	/* Byte by byte, the newest buffered store that covers it wins. */
	for (int b = 0; b < size; b++)
		for (int i = sb->n - 1; i >= 0; i--) {
			uint64_t a = addr + (uint64_t)b;
			if (a < sb->addr[i] || a >= sb->addr[i] + (uint64_t)sb->size[i])
				continue;
			uint64_t byte = sb->val[i] >> ((a - sb->addr[i]) * 8) & 0xff;
			v = (v & ~(0xffULL << (b * 8))) | byte << (b * 8);
			break;
		}
	return v;
}

bool fx_sb_push(struct fx_sb *sb, uint64_t addr, int size, uint64_t v)
{
	if (sb->n == FX_SB_MAX)
		return false;
	sb->addr[sb->n] = addr;
	sb->size[sb->n] = size;
	sb->val[sb->n++] = v;
	return true;
}

bool fx_sb_empty(const void *sb)
{
	return ((const struct fx_sb *)sb)->n == 0;
}

static bool sb_nonempty(const void *sb)
{
	return !fx_sb_empty(sb);
}

void fx_drainer(struct fx_sb *sb)
{
	for (;;) {
		ex_activity("%s's store buffer", sb->cpu);
		if (!sb->n) /* wait for a store: a step that changes nothing */
			ex_point1(sb, EX_READ, sb_nonempty, sb);
		/* Only this thread takes stores out: the oldest stays put. */
		struct ex_op op = { { (const void *)(uintptr_t)sb->addr[0], sb },
				    { EX_WRITE, EX_WRITE } };
		ex_point(&op, NULL, NULL);
		fx_write(sb->addr[0], sb->size[0], sb->val[0]);
		if (ex_logging)
			ex_log("drains: %#llx <- %#llx (%d bytes) reaches memory",
			       (unsigned long long)sb->addr[0], (unsigned long long)sb->val[0],
			       sb->size[0]);
		sb->n--;
		memmove(sb->addr, sb->addr + 1, sizeof(sb->addr[0]) * (size_t)sb->n);
		memmove(sb->val, sb->val + 1, sizeof(sb->val[0]) * (size_t)sb->n);
		memmove(sb->size, sb->size + 1, sizeof(sb->size[0]) * (size_t)sb->n);
	}
}
