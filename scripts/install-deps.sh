#!/bin/sh
# Install the Debian 12 packages fold needs to build, boot, test, benchmark and debug
# (clang and libclang-rt-dev: the fuzz targets, libFuzzer and the sanitizers; the
# runtime is only a Recommends of clang, which --no-install-recommends skips;
# clang-tidy: tests/check-compdb; bochs, bochsbios, vgabios: make test-bochs;
# grub-efi-amd64-bin, ovmf: the UEFI half of the ISO and make run UEFI=1;
# trace-cmd: `trace-cmd report` in make trace and make test;
# console-setup-linux: the PSF font of the screen console, scripts/mkfont.py;
# python3-cram: tests/check-docs, the checked excerpts of README.md and docs/;
# graphviz: make pictures and make check-pictures, docs/pictures/). With
# --kernelshark, also what the KernelShark picture of docs/07-debugging.md is made with
# (kernelshark, xvfb, x11-apps for xwd, imagemagick); with --window,
# qemu-system-gui, the gtk window of make run DISPLAY_CONSOLE=1: nothing in
# make test needs them.
# Run as root (or through sudo). Safe to run again: apt-get skips what is installed.
set -eu
PKGS="gcc make nasm binutils grub-pc-bin grub-common xorriso mtools \
qemu-system-x86 gdb python3 gnuplot-nox clang libclang-rt-dev clang-tidy \
bochs bochsbios vgabios grub-efi-amd64-bin ovmf trace-cmd console-setup-linux python3-cram graphviz"
for opt in "$@"; do
	case "$opt" in
	--kernelshark) PKGS="$PKGS kernelshark xvfb x11-apps imagemagick" ;;
	--window) PKGS="$PKGS qemu-system-gui" ;;
	*) echo "install-deps: unknown option $opt (--kernelshark, --window)" >&2; exit 2 ;;
	esac
done
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		exec sudo "$0" "$@"
	fi
	echo "install-deps: run as root: apt-get update && apt-get install -y $PKGS" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $PKGS
