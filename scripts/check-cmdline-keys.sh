#!/bin/sh
# The kernel command line's keys, two ways: declared with early_param()
# beside each option's value (a __cmdline_opt_KEY record in the image,
# kernel/cmdline.h), and listed in CMDLINE_KEYS, which asm-offsets hands
# the host tools (fold_offsets.py's CMDLINE_OPTIONS) and the warnings
# print. They must be the same set.
#
#   check-cmdline-keys.sh NM fold.elf fold_offsets.py
set -eu
[ $# -eq 3 ] || { echo "usage: check-cmdline-keys.sh NM ELF fold_offsets.py" >&2; exit 2; }
image=$("$1" "$2" | sed -n 's/^.* __cmdline_opt_\([A-Za-z_0-9]*\)$/\1/p' | sort)
listed=$(sed -n 's/^CMDLINE_OPTIONS = \[\(.*\)\]$/\1/p' "$3" | tr -d '" ' | tr , '\n' | sort)
[ "$image" = "$listed" ] && exit 0
echo "error: the command-line options declared with early_param() and CMDLINE_KEYS" \
	"(kernel/cmdline.h) differ:" >&2
echo "$image" > "$2.keys.image"
echo "$listed" > "$2.keys.listed"
diff "$2.keys.listed" "$2.keys.image" >&2 || true
rm -f "$2.keys.image" "$2.keys.listed"
exit 1
