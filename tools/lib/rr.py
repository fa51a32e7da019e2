"""QEMU's record/replay of a run (make replay-record, make replay,
tools/gdb/replay.py): what command() in qemu.py adds to the machine."""

from __future__ import annotations

from dataclasses import dataclass


# Record/replay (QEMU 7.2 manual, "Record/replay"; make replay-record,
# make replay, tools/gdb/replay.py). What QEMU 7.2 needs, found the hard way:
# - -icount without sleep=off: with it a recording printed nothing in 5
#   minutes. Idle time is recorded as it passed instead; a replay of one
#   recording is as deterministic.
# - one vCPU: -smp 2 is refused ("Record/replay feature is not supported
#   for 'smp'").
# - the CD behind a blkreplay node (the manual's "Block devices"): read
#   straight through -cdrom (whose reads end at host-dependent times), a
#   replay printed nothing in 2 minutes.
#   The node is read-only, or savevm refuses it ("Device 'cd-rr' is
#   writable but does not support snapshots").
# - a drive for the snapshots that reverse execution loads: an empty raw
#   file opened snapshot=on, so that QEMU makes a qcow2 overlay in
#   /var/tmp, where it saves start_debugging when GDB attaches (the
#   manual's "Reverse debugging") and any `monitor savevm NAME`.
# - no kvmvapic (the TPR-patching device of TCG's APIC): loading a
#   snapshot resets it, and its reset waits for the vCPU thread, which
#   waits for the replay lock the loading thread holds: reverse-stepi hung
#   for good.
# - -net none (the manual's advice: the default NIC would need a replay
#   filter).
RR_ICOUNT = "shift=0"
RR_MODES = ("record", "replay")


@dataclass(frozen=True)
class Replay:
    """QEMU's record/replay: mode record or replay, the event log rrfile;
    snapshots: (replay) the empty raw file whose overlay keeps the
    snapshots reverse execution needs."""

    mode: str
    rrfile: str
    snapshots: str | None = None

    def check(self, machine) -> None:   # a qemu.Machine
        """ValueError, said in words, for what QEMU 7.2 cannot record."""
        if self.mode not in RR_MODES:
            raise ValueError(f"record/replay mode {self.mode!r}: expected record or replay")
        if machine.smp != 1:
            raise ValueError(f"record/replay needs one CPU (SMP=1), not {machine.smp}: "
                             "QEMU 7.2 refuses -smp for it")
        if machine.accel != "tcg":
            raise ValueError("record/replay needs TCG (ACCEL=tcg): it counts "
                             "instructions (-icount)")
        if machine.uefi:
            raise ValueError("record/replay boots through the BIOS only (UEFI=0)")

    def icount(self) -> str:
        return f"{RR_ICOUNT},rr={self.mode},rrfile={self.rrfile}"

    def args(self, iso: str) -> list[str]:
        """What follows the machine's own arguments (-icount is there)."""
        cmd = ["-drive", f"file={iso},if=none,id=cd,format=raw,readonly=on",
               "-drive", "driver=blkreplay,if=none,image=cd,id=cd-rr,readonly=on",
               "-device", "ide-cd,drive=cd-rr,bootindex=0",
               "-net", "none", "-global", "apic-common.vapic=off"]
        if self.snapshots:
            cmd += ["-drive", f"file={self.snapshots},format=raw,if=none,"
                    "id=snapshots,snapshot=on"]
        return cmd
