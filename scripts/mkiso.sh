#!/bin/sh
# mkiso.sh ELF ISO CMDLINE: a GRUB (multiboot2) ISO that boots ELF with the
# kernel command line CMDLINE.
#
# CMDLINE is split into words as a shell would (double quotes keep spaces:
# autorun="bench latency;stat"), and each word is written into grub.cfg in
# GRUB's single quotes, which keep every character literal (GRUB manual,
# "Shell-like scripting", quoting), so ; $ # and the like reach the kernel
# as written. GRUB hands a word that contains spaces to the kernel in
# double quotes, which kernel/cmdline.c understands.
set -eu
elf=$1 iso=$2 cmdline=$3
dir=$iso.d
rm -rf "$dir"
mkdir -p "$dir/boot/grub"
cp "$elf" "$dir/boot/fold.elf"
args=$(python3 - "$cmdline" <<'PY'
import shlex, sys
try:
    words = shlex.split(sys.argv[1])
except ValueError as e:
    sys.exit("mkiso: CMDLINE: %s (a quote is not closed?)" % e)
print(" ".join("'" + w.replace("'", "'\\''") + "'" for w in words))
PY
)
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
serial --unit=0 --speed=115200
terminal_output serial
menuentry "fold" {
	multiboot2 /boot/fold.elf $args
	boot
}
CFG
if ! grub-mkrescue -o "$iso" "$dir" > "$iso.log" 2>&1; then
	cat "$iso.log" >&2
	exit 1
fi
