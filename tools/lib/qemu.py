"""The QEMU command line, in one place, and what QEMU's exit status means.

Every program that boots fold builds its QEMU command here: tests/run,
tests/gdb/run-gdb-test, tools/bench/run-bench, tools/gdb/launch.py
(make gdb, make qemu-gdb) and tools/qemu-run (make run). The QEMU
program is $QEMU (a command, which may carry arguments), else DEFAULT_QEMU:
this module is the only place that names it.

The kernel ends a run by writing to isa-debug-exit (port 0xf4), and QEMU
exits with (value << 1) | 1: 1 when every test passed (or on poweroff), 3
when one failed, 5 on a panic. With -no-reboot a guest reset (a triple
fault) makes QEMU exit 0, and so does a SIGTERM, SIGINT or SIGHUP, after
it prints "terminating on signal N": outcome() tells them apart. QEMU also
exits 1 when it cannot start the guest at all (a bad option, a missing
ISO), after printing why on stderr.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field, replace

from .kvm import KVM_ERROR_RE, kvm_error, kvm_limit, read_text
from .rr import Replay
from .proc import ProcessSet, signal_name

DEFAULT_QEMU = "qemu-system-x86_64"
ACCELS = ("tcg", "kvm")
# KVM runs the host CPU minus IA32_ARCH_CAPABILITIES (MSR 0x10a): on these
# machines the host KVM refuses QEMU 7.2's write of that MSR, and QEMU
# aborts in kvm_buf_set_msrs before the guest runs. fold never reads it.
KVM_CPU = "host,-arch-capabilities"
# A deterministic virtual clock: one ns of guest time per instruction.
ICOUNT = "shift=0,sleep=off"
# How TCG runs the vCPUs (QEMU's "-accel tcg,thread=": "multi" gives each
# vCPU a host thread, QEMU's default for x86 on x86; "single" runs them
# all, round-robin, on one). "auto" picks single when the vCPUs would
# take every host core: QEMU's main loop, which delivers the timer
# interrupts, then waits for a core, and a wall-clock latency figure
# measures the host, not fold (docs/06-measuring.md, "make run's figures").
TCG_THREADS = ("auto", "single", "multi")
DEBUG_EXIT = "isa-debug-exit,iobase=0xf4,iosize=0x04"
# UEFI: Debian's OVMF (package ovmf), the 4 MiB build. The code is read
# only; the variable store is opened with snapshot=on, so each boot writes
# to a throw-away overlay and the shared file is never changed.
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE_4M.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS_4M.fd"
UEFI_MACHINE = "q35"

EXIT_PASSED, EXIT_FAILED, EXIT_PANIC, EXIT_RESET = 1, 3, 5, 0
TERMINATED_RE = re.compile(r"terminating on signal (\d+)")


def program(override: str | None = None, env: dict | None = None) -> list[str]:
    """The QEMU command: override, else $QEMU, else DEFAULT_QEMU, split as
    a shell would."""
    text = override or (os.environ if env is None else env).get("QEMU") or DEFAULT_QEMU
    words = shlex.split(text)
    if not words:
        raise ValueError(f"the QEMU command {text!r} is empty")
    return words


@dataclass
class Machine:
    """The machine QEMU emulates: the Makefile's MACHINE, MEM, SMP, ACCEL
    and ICOUNT, tests/configs' machine=, mem=, smp=, accel=, icount=."""

    machine: str = "pc"
    mem: str = "256M"
    smp: int = 2
    accel: str = "tcg"
    icount: bool = False
    uefi: bool = False          # boot through OVMF (q35 unless machine= says)
    tcg_thread: str = "multi"   # TCG_THREADS; make run says auto

    def tcg_mode(self) -> str | None:
        """thread=single or multi for TCG on the wall clock; None under
        icount (which runs every vCPU on one thread anyway) or KVM."""
        if self.tcg_thread not in TCG_THREADS:
            raise ValueError(f"tcg thread {self.tcg_thread!r}: expected "
                             + ", ".join(TCG_THREADS))
        if self.accel != "tcg" or self.icount:
            return None
        if self.tcg_thread != "auto":
            return self.tcg_thread
        return "single" if self.smp > 1 and self.smp >= host_cores() else "multi"

    def args(self) -> list[str]:
        if self.accel not in ACCELS:
            raise ValueError(f"accel {self.accel!r}: expected tcg or kvm")
        machine = UEFI_MACHINE if self.uefi and self.machine == "pc" else self.machine
        cmd = ["-machine", machine, "-m", self.mem, "-smp", str(self.smp)]
        if self.uefi:
            cmd += ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
                    "-drive", f"if=pflash,format=raw,file={OVMF_VARS},snapshot=on"]
        if self.accel == "kvm":
            cmd += ["-accel", "kvm", "-cpu", KVM_CPU]
        else:
            mode = self.tcg_mode()
            # Plain "tcg" when nobody chose: QEMU's own default (multi).
            explicit = mode and self.tcg_thread != "multi"
            cmd += ["-accel", f"tcg,thread={mode}" if explicit else "tcg"]
        if self.icount:
            cmd += ["-icount", ICOUNT]
        return cmd


def host_cores() -> int:
    """The host cores this process may run on (its affinity mask, which
    a container or taskset narrows, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def tcg_note(machine: Machine) -> str | None:
    """The line make run prints when auto chose one thread for the vCPUs."""
    if machine.tcg_thread != "auto" or machine.tcg_mode() != "single":
        return None
    return (f"fold: {machine.smp} vCPUs on {host_cores()} host cores: one host thread "
            "runs them (-accel tcg,thread=single), so QEMU's timers keep a core; "
            "TCG_THREAD=multi to change (docs/06-measuring.md)")


def gdbstub_args(port: int) -> list[str]:
    # Listen on localhost only; -S: the vCPUs start halted, at the reset
    # vector, until GDB says continue.
    return ["-S", "-gdb", f"tcp:127.0.0.1:{port}"]


def screen_args(qmp_socket: str | None = None, window: bool = False) -> list[str]:
    """A display for the screen console (drivers/fbcon.c): QEMU's standard
    VGA (Bochs VBE under a BIOS; OVMF's GOP drives it under UEFI), which
    renders even with -display none; window: a GTK window (Debian's
    qemu-system-x86 has gtk); qmp_socket: a QMP server there (screendump,
    send-key). Given as extra to command(), whose -display none a later
    -display overrides."""
    cmd = ["-vga", "std"]
    if window:
        cmd += ["-display", "gtk"]
    if qmp_socket:
        cmd += ["-qmp", f"unix:{qmp_socket},server=on,wait=off"]
    return cmd


def has_display(qemu: list[str], name: str) -> bool:
    """Whether `qemu -display help` lists the display backend name (gtk and
    sdl come with Debian's qemu-system-gui, not with qemu-system-x86)."""
    try:
        out = subprocess.run(qemu + ["-display", "help"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return name in out.split()


def command(qemu: list[str], machine: Machine, iso: str, serial: str,
            gdb_port: int | None = None, extra: list[str] | tuple = (),
            debug_exit: bool = True, replay: Replay | None = None) -> list[str]:
    """The whole command: qemu, the machine, the ISO as a CD to boot from,
    no display, no monitor, the serial port at serial (stdio, file:PATH,
    ...), the debug-exit device (unless debug_exit is False: then the
    kernel powers off through ACPI S5 and QEMU exits 0), the gdbstub if
    gdb_port, then extra. replay: record or replay the run (Replay; the
    machine must be one it can record, else ValueError)."""
    if replay is None:
        cmd = [*qemu, *machine.args(), "-cdrom", iso, "-boot", "d"]
    else:
        replay.check(machine)
        # The machine under -icount (so no TCG thread= either: icount runs
        # every vCPU on one thread), with the record/replay -icount value.
        margs = replace(machine, icount=True).args()
        margs[margs.index("-icount") + 1] = replay.icount()
        cmd = [*qemu, *margs, *replay.args(iso)]
    cmd += ["-display", "none", "-no-reboot", "-serial", serial,
            "-monitor", "none"]
    if debug_exit:
        cmd += ["-device", DEBUG_EXIT]
    if gdb_port is not None:
        cmd += gdbstub_args(gdb_port)
    return cmd + list(extra)


# ---------------------------------------------------------------------------
# What happened
# ---------------------------------------------------------------------------

def terminated_by(returncode: int | None, output: str = "") -> int | None:
    """The signal that ended QEMU: killed by it (returncode -N), or caught
    (QEMU's "terminating on signal N" and exit status 0)."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    m = TERMINATED_RE.search(output or "")
    return int(m.group(1)) if returncode == 0 and m else None


def error_line(output: str) -> str | None:
    """QEMU's first error message ("qemu-...: -cdrom x: Could not open
    ..."), warnings aside."""
    for line in (output or "").splitlines():
        m = re.match(r"^(\S+): (.*)$", line.strip())
        if m and "qemu" in os.path.basename(m.group(1)) and not \
                m.group(2).startswith(("warning:", "terminating on signal")):
            return line.strip()
    return None


@dataclass(frozen=True)
class Outcome:
    kind: str       # passed, failed, panic, reset, signal, error, other
    status: int     # qemu-run's exit status
    message: str


def outcome(returncode: int | None, output: str = "",
            received: int | None = None) -> Outcome:
    """What QEMU's exit status (and its stderr, output) say; received: a
    signal that we were sent and passed on to QEMU."""
    sig = received or terminated_by(returncode, output)
    if sig:
        return Outcome("signal", 128 + sig,
                       f"QEMU was killed by signal {sig} ({signal_name(sig)})")
    if returncode == EXIT_PASSED:
        err = error_line(output)
        if err:
            return Outcome("error", 4, "QEMU exited with code 1, its own "
                           f"error status, not the kernel's: {err}")
        return Outcome("passed", 0, "the kernel reported success (QEMU exit code 1)")
    if returncode == EXIT_FAILED:
        return Outcome("failed", 1, "tests failed (QEMU exit code 3)")
    if returncode == EXIT_PANIC:
        return Outcome("panic", 2, "kernel panic (QEMU exit code 5)")
    if returncode == EXIT_RESET:
        return Outcome("reset", 3, "the guest reset itself (a triple fault?) "
                       "(QEMU exit code 0)")
    return Outcome("other", returncode if returncode and 0 < returncode < 256 else 1,
                   f"QEMU exited with code {returncode}")


@dataclass
class Boot:
    """What happened to one batch boot (exit_code None: not booted, e.g.
    tests/run --log-only, or stopped at its timeout)."""

    exit_code: int | None = None
    timed_out: bool = False
    seconds: float | None = None
    error: str = ""                 # QEMU could not be started at all
    qemu_output: str = ""           # its stdout and stderr
    command: list[str] = field(default_factory=list)
    kvm_error: str | None = None    # kvm_error(): stopped, the guest paused

    @property
    def signal(self) -> int | None:
        """The signal that ended QEMU, unless it was our timeout's."""
        return None if self.timed_out else terminated_by(self.exit_code, self.qemu_output)


def boot(cmd: list[str], *, serial_log: str, output: str, timeout: float,
         procs: ProcessSet, cwd: str | None = None, elf: str | None = None) -> Boot:
    """Run QEMU in the background (its own session) until it exits,
    timeout seconds pass or it reports a KVM internal error (kvm_error(),
    RIP as a function of elf). serial_log (where cmd's -serial file: writes) is
    removed first, so that a previous run's log is never judged; output
    gets QEMU's own stdout and stderr. Relative paths are relative to cwd."""
    def at(path: str) -> str:
        return os.path.join(cwd, path) if cwd else path

    os.makedirs(os.path.dirname(at(serial_log)) or ".", exist_ok=True)
    os.makedirs(os.path.dirname(at(output)) or ".", exist_ok=True)
    if os.path.exists(at(serial_log)):
        os.remove(at(serial_log))
    done = procs.run(cmd, timeout=timeout, output=at(output), cwd=cwd,
                     stop_when=lambda: KVM_ERROR_RE.search(read_text(at(output))))
    result = Boot(exit_code=done.returncode, timed_out=done.timed_out,
                  seconds=done.seconds, command=cmd)
    if done.error:
        result.error = f"cannot start QEMU ({cmd[0]}): {done.error}"
        result.seconds = None
        return result
    result.qemu_output = read_text(at(output))
    result.kvm_error = kvm_error(result.qemu_output, elf and at(elf))
    return result


def _relay(src, kept: list[bytes], proc: subprocess.Popen) -> None:
    """Copy QEMU's stderr to ours as it comes, keeping the last 64 KiB;
    stop QEMU once it reports a KVM internal error (it would wait on)."""
    out = getattr(sys.stderr, "buffer", None)
    size = 0
    while True:
        chunk = os.read(src.fileno(), 4096)
        if not chunk:
            break
        if out is not None:
            out.write(chunk)
            out.flush()
        else:
            sys.stderr.write(chunk.decode(errors="replace"))
        kept.append(chunk)
        size += len(chunk)
        while size > 65536 and len(kept) > 1:
            size -= len(kept.pop(0))
        if KVM_ERROR_RE.search(b"".join(kept).decode(errors="replace")):
            proc.terminate()


def run_foreground(cmd: list[str], elf: str | None = None) -> Outcome:
    """Run QEMU on this terminal (stdin and stdout: a -serial stdio console)
    and say what happened. Its stderr is passed through a pipe, to read
    "terminating on signal N"; SIGINT, SIGTERM and SIGHUP sent to us are
    passed on to it."""
    received: list[int] = []
    child: list[subprocess.Popen] = []

    def forward(signum, frame):
        received.append(signum)
        if child and child[0].poll() is None:
            child[0].send_signal(signum)

    catch = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    old = {s: signal.signal(s, forward) for s in catch}
    try:
        try:
            proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
        except OSError as e:
            return Outcome("error", 127, f"cannot start QEMU ({cmd[0]}): "
                           f"{e.strerror or e}")
        child.append(proc)
        if received:                    # a signal before we knew the pid
            proc.send_signal(received[0])
        kept: list[bytes] = []
        relay = threading.Thread(target=_relay, args=(proc.stderr, kept, proc), daemon=True)
        relay.start()
        returncode = proc.wait()
        relay.join(timeout=5)
        proc.stderr.close()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    said = b"".join(kept).decode(errors="replace")
    stopped = kvm_error(said, elf)
    if stopped:
        return Outcome("error", 4, stopped)
    return outcome(returncode, said, received[0] if received else None)


# ---------------------------------------------------------------------------
# The command line: tools/qemu-run
# ---------------------------------------------------------------------------

def add_machine_arguments(ap: argparse.ArgumentParser) -> None:
    """--qemu --machine --mem --smp --accel --icount --iso: the Makefile's
    variables, for qemu-run and tools/gdb/launch.py."""
    d = Machine()
    ap.add_argument("--qemu", metavar="CMD", help="the QEMU command (default: "
                    f"$QEMU, else {DEFAULT_QEMU})")
    ap.add_argument("--machine", default=d.machine, help="-machine (default %(default)s)")
    ap.add_argument("--mem", default=d.mem, help="-m (default %(default)s)")
    ap.add_argument("--smp", type=int, default=d.smp, help="-smp (default %(default)s)")
    ap.add_argument("--accel", choices=ACCELS, default=d.accel,
                    help=f"tcg, or kvm with -cpu {KVM_CPU} (default %(default)s)")
    ap.add_argument("--icount", choices=("0", "1"), default="0",
                    help=f"1: -icount {ICOUNT} (default %(default)s)")
    ap.add_argument("--tcg-thread", choices=TCG_THREADS, default=d.tcg_thread,
                    help="TCG's threads on the wall clock: one per vCPU (multi), one "
                    "for all (single), or single when the vCPUs would take every "
                    "host core (auto) (default %(default)s)")
    ap.add_argument("--uefi", choices=("0", "1"), default="0",
                    help=f"1: boot through OVMF ({OVMF_CODE}), -machine "
                    f"{UEFI_MACHINE} unless --machine says (default %(default)s)")
    ap.add_argument("--iso", help="the ISO to boot (-cdrom)")


def machine_from_args(args: argparse.Namespace) -> Machine:
    if not 1 <= args.smp <= 64:
        raise ValueError(f"--smp {args.smp}: a CPU count from 1 to 64")
    if not args.machine or not args.mem:
        raise ValueError("--machine and --mem must not be empty")
    return Machine(args.machine, args.mem, args.smp, args.accel, args.icount == "1",
                   args.uefi == "1", args.tcg_thread)


USAGE = """Run fold in QEMU on this terminal and say what happened (make run).

Exit status: 0 the kernel reported success (QEMU exit code 1), 1 tests
failed (3), 2 kernel panic (5), 3 the guest reset itself, e.g. a triple
fault (0), 4 QEMU could not start the guest, 128+N QEMU was killed by
signal N, 127 QEMU could not be run; otherwise QEMU's own exit code.
Arguments after -- go to QEMU as they are."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    argv, extra = argv[:cut], argv[cut + 1:]
    ap = argparse.ArgumentParser(prog="tools/qemu-run", description=USAGE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_machine_arguments(ap)
    ap.add_argument("--serial", default="stdio",
                    help="-serial (default %(default)s: the console on this terminal)")
    ap.add_argument("--gdb", type=int, metavar="PORT",
                    help="halted (-S), with the gdbstub on 127.0.0.1:PORT")
    ap.add_argument("--window", action="store_true",
                    help="a QEMU window showing the screen console (gtk, -vga std)")
    ap.add_argument("--print-cmdline", action="store_true",
                    help="print the QEMU command instead of running it")
    ap.add_argument("--print-binary", action="store_true",
                    help="print the QEMU program (for the Makefile's tools check)")
    args = ap.parse_args(argv)
    try:
        qemu = program(args.qemu)
        if args.print_binary:
            print(qemu[0])
            return 0
        if not args.iso:
            ap.error("--iso is required")
        if args.window:
            extra = screen_args(window=True) + extra
        machine = machine_from_args(args)
        cmd = command(qemu, machine, args.iso, args.serial, args.gdb, extra)
    except ValueError as e:
        ap.error(str(e))
    if args.print_cmdline:
        print(shlex.join(cmd))
        return 0
    if not os.path.exists(args.iso):
        print(f"fold: {args.iso}: no such ISO (build it with make)", file=sys.stderr)
        return 4
    if args.uefi == "1" and not os.path.exists(OVMF_CODE):
        print(f"fold: UEFI=1: no {OVMF_CODE} (Debian's ovmf package: "
              "scripts/install-deps.sh)", file=sys.stderr)
        return 4
    if args.window and not has_display(qemu, "gtk"):
        print("fold: DISPLAY_CONSOLE=1: this QEMU has no gtk display (Debian's "
              "qemu-system-gui package: scripts/install-deps.sh --window)", file=sys.stderr)
        return 4
    note = tcg_note(machine)
    if machine.accel == "kvm" and kvm_limit():
        # Without nosmap the first interrupt meets CLAC: say so now, not
        # after the 2 minutes the BIOS and GRUB take to get there.
        words = read_text(args.iso + ".cmdline").split()
        if "nosmap" not in words:
            print(f"fold: {kvm_limit()}. Not started: the command line has no nosmap "
                  f"({' '.join(words) or 'unknown'})", file=sys.stderr)
            return 4
        note = f"fold: {kvm_limit()}"
    if note:
        print(note, file=sys.stderr)
    result = run_foreground(cmd, os.path.join(os.path.dirname(args.iso), "fold.elf"))
    if result.kind != "passed":
        print(f"fold: {result.message}", file=sys.stderr)
    return result.status
