#!/usr/bin/env python3
"""Record a run of fold with QEMU's record/replay, then replay it under GDB,
backwards as well as forwards (make replay-record, make replay;
docs/07-debugging.md, "Reverse debugging").

    replay.py record --dir D --elf E --iso I [--serial S] [--timeout N] MACHINE
        Record one run of I into D: QEMU with -icount ...,rr=record, the
        console on this terminal (and in D/record.log), or at S (a -serial
        value, e.g. file:PATH). The recording is the event log
        D/record.bin; E (with fold_offsets.py and fold.sym beside it) is
        copied into D, and D/recording.json says how to replay it. The
        recording ends when the kernel powers off, on Ctrl-C, or after N
        seconds.
    replay.py gdb --dir D --init F --port P [--break LOC] [--gdb G]
        Replay D's recording (-icount ...,rr=replay), halted with the
        gdbstub, and GDB attached with the init file F (tools/gdb/gdbinit.in:
        fold's helpers) stopped at LOC; quitting GDB stops QEMU. The
        console goes to D/replay.log.
    replay.py qemu --dir D --init F --port P [--break LOC]
        Only the replaying QEMU (console on this terminal); it prints the
        command that attaches GDB.

MACHINE is the Makefile's machine as tools/qemu-run takes it; QEMU 7.2
records one CPU under TCG with the BIOS (tools/lib/qemu.py, Replay, says
why and builds every QEMU command here). A replay runs the recorded
machine with the QEMU that recorded it, unless --qemu says otherwise.
--print-cmdline prints the QEMU command instead of running it.
"""

import argparse
import dataclasses
import json
import os
import shlex
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import launch  # noqa: E402  (tools/gdb/launch.py)
from tools.lib import proc, qemu  # noqa: E402

META = "recording.json"
RRFILE = "record.bin"
RECORD_LOG = "record.log"
REPLAY_LOG = "replay.log"
# The empty base of the snapshot overlay (qemu.Replay: snapshots).
SNAPSHOTS = "snapshots.raw"
SNAPSHOTS_SIZE = 1 << 20
# What fold.py reads beside the ELF (the build writes them together).
KERNEL_FILES = ("fold.elf", "fold_offsets.py", "fold.sym")
# GDB waits this long for QEMU's answers: on attach QEMU saves the
# start_debugging snapshot, and a reverse-continue replays from a snapshot
# before it answers (GDB's default is 2 s).
REMOTE_TIMEOUT = 600


class ReplayError(Exception):
    pass


def _abs(path):
    return os.path.abspath(path)


def load(rdir):
    """The recording in rdir: its recording.json, checked against the files
    it names. ReplayError says what is missing."""
    meta_path = os.path.join(rdir, META)
    if not os.path.exists(meta_path):
        raise ReplayError(f"no recording in {os.path.relpath(rdir)}: record one "
                          "first (make replay-record CMDLINE=...)")
    try:
        with open(meta_path) as f:
            meta = json.load(f)
        machine = qemu.Machine(**meta["machine"])
        prog = [str(w) for w in meta["qemu"]]
        cmdline = str(meta.get("cmdline", ""))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ReplayError(f"{meta_path}: not a recording's description ({e}): "
                          "record again (make replay-record)") from None
    for name in (RRFILE, "fold.iso", "fold.elf"):
        if not os.path.exists(os.path.join(rdir, name)):
            raise ReplayError(f"{os.path.join(rdir, name)} is missing: record "
                              "again (make replay-record)")
    return {"machine": machine, "qemu": prog, "cmdline": cmdline,
            "complete": bool(meta.get("complete")), "outcome": meta.get("outcome", "")}


def record_command(prog, machine, rdir, serial, extra=()):
    return qemu.command(prog, machine, os.path.join(rdir, "fold.iso"), serial,
                        extra=list(extra),
                        replay=qemu.Replay("record", os.path.join(rdir, RRFILE)))


def replay_command(rec, rdir, serial, port=None, prog=None):
    """QEMU replaying rdir's recording (rec: load()'s), with the gdbstub on
    port (halted) if given."""
    snap = os.path.join(rdir, SNAPSHOTS)
    if not os.path.exists(snap) or os.path.getsize(snap) != SNAPSHOTS_SIZE:
        with open(snap, "wb") as f:
            f.truncate(SNAPSHOTS_SIZE)
    return qemu.command(prog or rec["qemu"], rec["machine"],
                        os.path.join(rdir, "fold.iso"), serial, gdb_port=port,
                        replay=qemu.Replay("replay", os.path.join(rdir, RRFILE),
                                           snapshots=snap))


def prepare(rdir, elf, iso, machine, prog):
    """Check the machine, empty rdir of an older recording, and copy the
    kernel (the ELF and what fold.py reads beside it) and the ISO in."""
    qemu.Replay("record", "").check(machine)
    for path in (elf, iso):
        if not os.path.exists(path):
            raise ReplayError(f"{path} does not exist: build it first (make)")
    os.makedirs(rdir, exist_ok=True)
    for name in (META, RRFILE, RECORD_LOG, REPLAY_LOG):
        if os.path.exists(os.path.join(rdir, name)):
            os.remove(os.path.join(rdir, name))
    src = os.path.dirname(_abs(elf))
    for name in KERNEL_FILES:
        from_path = elf if name == "fold.elf" else os.path.join(src, name)
        to_path = os.path.join(rdir, name)
        if os.path.exists(from_path) and _abs(from_path) != _abs(to_path):
            shutil.copy2(from_path, to_path)
    if _abs(iso) != _abs(os.path.join(rdir, "fold.iso")):
        shutil.copy2(iso, os.path.join(rdir, "fold.iso"))


def cmdline_of(iso):
    """The kernel command line the ISO was made with (the Makefile's
    ISO.cmdline beside it), or ''."""
    try:
        with open(iso + ".cmdline") as f:
            return f.read().strip()
    except OSError:
        return ""


def write_meta(rdir, machine, prog, cmdline, complete, outcome):
    meta = {"machine": dataclasses.asdict(machine),
            "qemu": prog, "cmdline": cmdline, "complete": complete,
            "outcome": outcome, "recorded": time.strftime("%Y-%m-%d %H:%M:%S")}
    with open(os.path.join(rdir, META), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def record(rdir, elf, iso, machine, prog, serial=None, timeout=None, procs=None):
    """Record into rdir. serial None: the console on this terminal (and in
    rdir/record.log), QEMU in the foreground; else a -serial value, QEMU in
    the background (stopped after timeout seconds). Returns the outcome
    (qemu.Outcome)."""
    prepare(rdir, elf, iso, machine, prog)
    cmdline = cmdline_of(iso)
    if serial is None:
        log = os.path.join(rdir, RECORD_LOG)
        cmd = record_command(prog, machine, rdir, "chardev:console",
                             ["-chardev", f"stdio,id=console,logfile={log},signal=on"])
        result = qemu.run_foreground(cmd)
    else:
        out = os.path.join(rdir, "record.qemu.txt")
        cmd = record_command(prog, machine, rdir, serial)
        done = (procs or proc.ProcessSet()).run(cmd, timeout=timeout, output=out)
        with open(out, errors="replace") as f:
            text = f.read()
        if done.error:
            result = qemu.Outcome("error", 127, f"cannot start QEMU ({cmd[0]}): {done.error}")
        elif done.timed_out:
            result = qemu.Outcome("signal", 124, f"stopped after {timeout:g} s")
        else:
            result = qemu.outcome(done.returncode, text)
    if result.kind == "error" or not os.path.exists(os.path.join(rdir, RRFILE)):
        return result
    # A run cut short (Ctrl-C, the timeout) still replays, up to the cut.
    complete = result.kind in ("passed", "failed", "panic", "reset")
    write_meta(rdir, machine, prog, cmdline, complete, result.message)
    return result


def start_replay(cmd, out):
    """QEMU in the background; None (and why on stderr) if it died at once."""
    try:
        p = proc.start(cmd, output=out)
    except OSError as e:
        print(f"fold-replay: cannot start QEMU ({cmd[0]}): {e}", file=sys.stderr)
        return None
    time.sleep(0.2)
    if p.poll() is not None:
        with open(out, errors="replace") as f:
            sys.stderr.write(f.read())
        print(f"fold-replay: QEMU exited at once (status {p.returncode}): "
              f"{shlex.join(cmd)}", file=sys.stderr)
        return None
    return p


def write_init(init, rdir, port, stop_at, batch=False, extra=""):
    launch.write_init(init, os.path.join(rdir, "fold.elf"), port, stop_at,
                      batch=batch, extra=extra,
                      settings=f"set remotetimeout {REMOTE_TIMEOUT}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("record", "gdb", "qemu"))
    ap.add_argument("--dir", required=True, help="the recording's directory")
    ap.add_argument("--elf", help="record: the kernel's ELF (symbols for GDB)")
    ap.add_argument("--init", help="gdb, qemu: the GDB init file to write")
    ap.add_argument("--port", type=int, help="gdb, qemu: the gdbstub's port")
    ap.add_argument("--break", dest="stop_at", default="kmain",
                    help="where GDB stops first (default kmain; '' for none)")
    ap.add_argument("--serial", help="record: a -serial value instead of this terminal")
    ap.add_argument("--timeout", type=float, help="record: stop after this many seconds")
    ap.add_argument("--gdb", default=os.environ.get("GDB", "gdb"))
    ap.add_argument("--print-cmdline", action="store_true",
                    help="print the QEMU command and exit")
    qemu.add_machine_arguments(ap)
    args = ap.parse_args(argv)
    rdir = _abs(args.dir)

    try:
        if args.mode == "record":
            if not args.elf or not args.iso:
                ap.error("record: --elf and --iso are required")
            machine = qemu.machine_from_args(args)
            prog = qemu.program(args.qemu)
            if args.print_cmdline:
                print(shlex.join(record_command(prog, machine, rdir, args.serial or "stdio")))
                return 0
            result = record(rdir, args.elf, args.iso, machine, prog,
                            serial=args.serial, timeout=args.timeout)
            if not os.path.exists(os.path.join(rdir, META)):
                print(f"fold-replay: nothing recorded: {result.message}", file=sys.stderr)
                return result.status or 1
            rel = os.path.relpath(rdir)
            how = "recorded" if load(rdir)["complete"] else "recorded up to the cut"
            print(f"fold-replay: {how} in {rel}/{RRFILE} ({result.message}); "
                  "replay it under GDB with: make replay", flush=True)
            return 0

        if not args.init or not args.port:
            ap.error(f"{args.mode}: --init and --port are required")
        rec = load(rdir)
        prog = qemu.program(args.qemu) if args.qemu else None
        serial = "stdio" if args.mode == "qemu" else f"file:{os.path.join(rdir, REPLAY_LOG)}"
        cmd = replay_command(rec, rdir, serial, port=args.port, prog=prog)
    except (ReplayError, ValueError) as e:
        print(f"fold-replay: {e}", file=sys.stderr)
        return 1
    if args.print_cmdline:
        print(shlex.join(cmd))
        return 0
    write_init(args.init, rdir, args.port, args.stop_at or None)
    attach = f"{args.gdb} -q -x {shlex.quote(_abs(args.init))}"
    if not launch.port_free(args.port):
        print(f"fold-replay: TCP port {args.port} on 127.0.0.1 is in use (another "
              "fold GDB session?); choose another: make replay GDB_PORT=<port>",
              file=sys.stderr)
        return 1
    what = f"the recording of {rec['cmdline'] or 'a run'}" + \
        ("" if rec["complete"] else f" (cut short: {rec['outcome']})")
    if args.mode == "qemu":
        print(f"fold-replay: QEMU replays {what}, halted, and waits for GDB on "
              f"127.0.0.1:{args.port}. Attach from another terminal with:\n"
              f"    {attach}", flush=True)
        result = qemu.run_foreground(cmd)
        if result.kind != "passed":
            print(f"fold-replay: {result.message}", file=sys.stderr)
        return result.status
    p = start_replay(cmd, os.path.join(rdir, "replay.qemu.txt"))
    if p is None:
        return 1
    print(f"fold-replay: QEMU (pid {p.pid}) replays {what}; console: "
          f"{os.path.relpath(os.path.join(rdir, REPLAY_LOG))}. reverse-stepi and "
          "reverse-continue work; quit GDB to stop QEMU.", flush=True)
    try:
        return proc.run_in_foreground([args.gdb, "-q", "-x", args.init])
    finally:
        proc.stop(p)


if __name__ == "__main__":
    sys.exit(main())
