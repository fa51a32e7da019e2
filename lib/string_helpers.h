/* Escaping user input for messages (Linux: lib/string_helpers.c). */
#ifndef FOLD_LIB_STRING_HELPERS_H
#define FOLD_LIB_STRING_HELPERS_H

#include "lib/types.h"

/* Room for any escape of a string of n characters, and its NUL. */
#define ESCAPE_SIZE(n) (4 * (n) + 1)

/* Copies src to dst (size bytes), writing every byte that is not
 * printable ASCII (below 0x20, 0x7f, and 0x80 and above) as \xNN, two
 * lowercase hex digits, so that a control character in a message shows
 * instead of garbling it: "a\x01b". Printable characters, the backslash
 * among them, are copied as they are. If dst is too small the copy ends
 * at a whole character followed by "..." (when size >= 4). dst is always
 * NUL-terminated when size > 0.
 *
 * Linux's string_escape_str(src, dst, size, ESCAPE_NP | ESCAPE_HEX, NULL)
 * in one flavour, but it returns dst, so a call can be a printf argument:
 *	char e[ESCAPE_SIZE(32)];
 *	pr_warn("unknown option '%s'\n", string_escape_str(word, e, sizeof(e)));
 */
const char *string_escape_str(const char *src, char *dst, size_t size);

#endif
