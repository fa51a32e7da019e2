/* Parsing helpers for the kernel command line and the shell. All of them
 * reject rather than guess: bad input leaves *out untouched and returns -1. */
#ifndef FOLD_LIB_PARSE_H
#define FOLD_LIB_PARSE_H

#include "lib/types.h"

/* Unsigned number: decimal ("010" is ten, not octal), or hex after 0x/0X.
 * A decimal number may end in one DECIMAL multiple, k, M or G in either
 * case: x1000, x1000^2, x1000^3 (hz=1k is 1000 Hz, iters=2M is 2000000).
 * Every number fold parses is a count, a rate or a time, never a size, so
 * there are no binary (x1024) multiples; a hex number is exact and takes
 * none. Nothing else may follow; no sign, no spaces. Returns 0, or -1 for
 * an empty/bad string or a value over 2^64-1. */
int parse_u64(const char *s, u64 *out);

/* 1/0, on/off, yes/no, true/false, any case. Returns 0 or -1. */
int parse_bool(const char *s, bool *out);

/* Index of the first of n words equal to s, or -1. NULL entries in words
 * are skipped, so sparse tables indexed by an enum work. */
int match_word(const char *s, const char *const *words, size_t n);

/* Split line in place at spaces, tabs, CRs and LFs (each word gets a NUL
 * written after it) and store up to max word pointers in argv (no NULL
 * terminator is added). Returns the number of words, or max + 1 if there
 * are more than max: then argv holds the first max and the rest of the
 * line is left untouched, so the caller can say "too many arguments". */
size_t split_words(char *line, char **argv, size_t max);

#endif
