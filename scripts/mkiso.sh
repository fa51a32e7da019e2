#!/bin/sh
# mkiso.sh ELF ISO CMDLINE [MODULE...]: a GRUB (multiboot2) ISO that boots
# ELF with the kernel command line CMDLINE and loads each MODULE (a user
# program, build/user/NAME.elf) as /boot/user/NAME with the string NAME
# (`module2 /boot/user/NAME NAME`; multiboot2 spec 3.6.6: the kernel
# takes the string's first word as the module's name, boot/module.c).
# A NAME is 1-31 letters, digits, '_' and '-', so it needs no quoting in
# grub.cfg; any other name is refused with a message.
#
# CMDLINE is split into words as a shell would (double quotes keep spaces:
# autorun="bench latency;stat"), and each word is written into grub.cfg in
# GRUB's single quotes, which keep every character literal (GRUB manual,
# "Shell-like scripting", quoting), so ; $ # and the like reach the kernel
# as written. GRUB hands a word that contains spaces to the kernel in
# double quotes, which kernel/cmdline.c understands.
#
# FOLD_MENU (from the Makefile's MENU=1): words such as preempt=lazy or
# test=sched, each one more menu entry that boots with that word after
# CMDLINE (the last occurrence of an option wins, kernel/cmdline.c); GRUB
# then waits FOLD_MENU_TIMEOUT seconds, reading the serial line too.
set -eu
if [ $# -lt 3 ]; then
	echo "usage: mkiso.sh ELF ISO CMDLINE [MODULE...]" >&2
	exit 2
fi
elf=$1 iso=$2 cmdline=$3
shift 3
dir=$iso.d
rm -rf "$dir"
mkdir -p "$dir/boot/grub" "$dir/boot/user"
cp "$elf" "$dir/boot/fold.elf"
modules=
for m in "$@"; do
	name=$(basename "$m" .elf)
	case $name in
	''|*[!A-Za-z0-9_-]*)
		echo "mkiso: $m: a module name is letters, digits, _ and - only" >&2
		exit 1;;
	esac
	if [ ${#name} -gt 31 ]; then
		echo "mkiso: $m: a module name is at most 31 characters (MB_MOD_NAME_MAX)" >&2
		exit 1
	fi
	if [ -e "$dir/boot/user/$name" ]; then
		echo "mkiso: $m: a second module named $name" >&2
		exit 1
	fi
	cp "$m" "$dir/boot/user/$name"
	modules="$modules
	module2 /boot/user/$name $name"
done
args=$(python3 - "$cmdline" <<'PY'
import shlex, sys
try:
    words = shlex.split(sys.argv[1])
except ValueError as e:
    sys.exit("mkiso: CMDLINE: %s (a quote is not closed?)" % e)
print(" ".join("'" + w.replace("'", "'\\''") + "'" for w in words))
PY
)
menu=${FOLD_MENU:-}
timeout=0
input=
if [ -n "$menu" ]; then
	timeout=${FOLD_MENU_TIMEOUT:-5}
	input="terminal_input serial console"
fi
# all_video: the VBE (BIOS) and GOP (UEFI) drivers, so that GRUB can set
# the mode boot/header.asm's framebuffer tag asks for (drivers/fbcon.c).
# gfxpayload is left unset: GRUB's multiboot2 loader then takes the
# header's 1024x768x32, else whatever linear mode it finds.
cat > "$dir/boot/grub/grub.cfg" <<CFG
insmod all_video
set timeout=$timeout
set default=0
serial --unit=0 --speed=115200
terminal_output serial
$input
menuentry "fold" {
	multiboot2 /boot/fold.elf $args$modules
	boot
}
CFG
for w in $menu; do
	case $w in
	*[!A-Za-z0-9_=,-]*)
		echo "mkiso: FOLD_MENU: '$w' is not a word like preempt=lazy" >&2
		exit 1;;
	esac
	cat >> "$dir/boot/grub/grub.cfg" <<CFG
menuentry "fold: $w" {
	multiboot2 /boot/fold.elf $args '$w'$modules
	boot
}
CFG
done
if ! grub-mkrescue -o "$iso" "$dir" > "$iso.log" 2>&1; then
	cat "$iso.log" >&2
	exit 1
fi
