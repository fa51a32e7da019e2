/* A line buffer for benchmark reports: pieces are appended with
 * line_add() and the line goes to the console whole at line_end(), so
 * other CPUs' output cannot land inside it. Long enough for a latency
 * histogram's widest line (2000 counts or cycle numbers). */
#ifndef FOLD_KERNEL_BENCH_LINE_H
#define FOLD_KERNEL_BENCH_LINE_H

#include "lib/types.h"

struct line {
	char buf[16384];
	size_t len;
};

/* Append; what does not fit is cut (the line stays terminated). */
__printf(2, 3) void line_add(struct line *l, const char *fmt, ...);
/* Append "\n", write the line to the console, empty the buffer. */
void line_end(struct line *l);

#endif
