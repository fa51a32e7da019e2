/* Number parsing for user programs' arguments. */
#ifndef FOLD_USER_STDLIB_H
#define FOLD_USER_STDLIB_H
#include "lib/types.h"

/* C's strtoul: optional spaces and '+', then digits in base (2-36), or
 * base 0: 0x/0X means 16, a leading 0 means 8, else 10. *end (if end) is
 * set past the last digit used, or to s if there was none. A value over
 * ULONG_MAX gives ULONG_MAX (C11 7.22.1.4; no errno here). */
unsigned long strtoul(const char *s, char **end, int base);
long strtol(const char *s, char **end, int base);  /* and an optional '-' */
int atoi(const char *s);                           /* strtol(s, NULL, 10) */

/* A whole argument as an unsigned number (decimal or 0x hex, nothing
 * after it): 0, or -1 if it is empty, has other characters or overflows. */
int parse_ulong(const char *s, unsigned long *out);

/* "key=value" options: 1 if arg is key=NUMBER (stored in *out), -1 if arg
 * names key but its value is not a number (a message says so on stderr),
 * 0 if arg is not about key. */
int parse_option(const char *arg, const char *key, unsigned long *out);
#endif
