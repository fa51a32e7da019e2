#!/bin/sh
# Run QEMU and translate its exit code into what happened in the guest.
# isa-debug-exit: QEMU exits with (value << 1) | 1; fold writes 0 (all
# passed), 1 (a test failed), 2 (panic). With -no-reboot a guest reset
# (e.g. a triple fault) makes QEMU exit 0.
"$@"
rc=$?
case $rc in
1) exit 0 ;;
3) echo "fold: tests failed (QEMU exit code 3)" >&2; exit 1 ;;
5) echo "fold: kernel panic (QEMU exit code 5)" >&2; exit 2 ;;
0) echo "fold: the guest reset itself (a triple fault?) (QEMU exit code 0)" >&2; exit 3 ;;
*) echo "fold: QEMU exited with code $rc" >&2; exit $rc ;;
esac
