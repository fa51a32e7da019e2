"""KVM hosts that cannot run all of fold, and QEMU's word that its KVM
could not run the guest (docs/09-booting.md, KVM): make run, tests/run
and make test-kvm say why and stop, rather than wait out a timeout."""

from __future__ import annotations

import os
import re

from .patch_sites import function_at, symbols

# PVM (/sys/module/kvm_pvm, no vmx or svm in /proc/cpuinfo), the KVM of
# some nested clouds, runs the guest kernel in ring 3 and emulates its
# privileged instructions with KVM's instruction emulator, which has no
# CLAC or STAC; a user program faults at its first syscall there, and the
# BIOS and GRUB run in the emulator (about 2 minutes to fold's banner).
PVM_LIMIT = ("this host's KVM is PVM (kvm_pvm, no vmx or svm in /proc/cpuinfo): it "
             "runs the guest kernel in ring 3 and emulates its privileged instructions, "
             "without CLAC and STAC, and user programs fault at their first system "
             "call. Here fold runs under KVM only with nosmap and no user programs "
             "(CMDLINE='nosmap test=smp'), about 2 minutes to boot; for the rest, "
             "ACCEL=tcg, or a host whose KVM is kvm_intel or kvm_amd")
# QEMU meets a guest its KVM cannot run with "KVM internal error.
# Suberror: N" and a register dump, then pauses the VM, and never exits.
KVM_ERROR_RE = re.compile(r"^KVM internal error\. Suberror: (\d+)(.*?)\bRIP=([0-9a-f]+)", re.M | re.S)


def read_text(path: str) -> str:
    """path's text, or "" if it cannot be read."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def kvm_limit() -> str | None:
    """PVM_LIMIT on a host whose KVM cannot run a guest kernel at CPL 0,
    else None (kvm_intel, kvm_amd, or no KVM: QEMU says so itself)."""
    flags = set(read_text("/proc/cpuinfo").split())
    pvm = os.path.isdir("/sys/module/kvm_pvm") and not flags & {"vmx", "svm"}
    return PVM_LIMIT if pvm else None


def kvm_error(output: str, elf: str | None = None) -> str | None:
    """QEMU's KVM internal error in output, in one line with the guest's
    RIP as a function of elf, or None."""
    m = KVM_ERROR_RE.search(output or "")
    if not m:
        return None
    kind = "emulation failure" if "emulation failure" in m.group(2) else f"suberror {m.group(1)}"
    rip = int(m.group(3), 16)
    fn = f" ({'%s+%#x' % function_at(symbols(elf)[1], rip)})" if elf and os.path.exists(elf) else ""
    return (f"KVM internal error ({kind}) at RIP {rip:#x}{fn}: QEMU paused the guest "
            f"and was stopped; {kvm_limit() or 'the host KVM could not run that instruction'}")
