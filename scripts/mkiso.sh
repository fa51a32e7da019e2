#!/bin/sh
# mkiso.sh ELF ISO CMDLINE: a GRUB (multiboot2) ISO that boots ELF with the
# kernel command line CMDLINE. Characters GRUB's script language treats
# specially (; & | < > $ " ' \ # { }) are escaped with a backslash, so
# `autorun=help;cpus` reaches the kernel as written (GRUB manual,
# "Shell-like scripting": quoting).
set -eu
elf=$1 iso=$2 cmdline=$3
dir=$iso.d
rm -rf "$dir"
mkdir -p "$dir/boot/grub"
cp "$elf" "$dir/boot/fold.elf"
escaped=$(printf '%s' "$cmdline" | sed 's/[;&|<>$"'"'"'\\#{}]/\\&/g')
cat > "$dir/boot/grub/grub.cfg" <<CFG
set timeout=0
set default=0
serial --unit=0 --speed=115200
terminal_output serial
menuentry "fold" {
	multiboot2 /boot/fold.elf $escaped
	boot
}
CFG
if ! grub-mkrescue -o "$iso" "$dir" > "$iso.log" 2>&1; then
	cat "$iso.log" >&2
	exit 1
fi
