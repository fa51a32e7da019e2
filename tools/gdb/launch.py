#!/usr/bin/env python3
"""Start fold under GDB: QEMU with its gdbstub, and GDB with a generated
init file (tools/gdb/gdbinit.in). Used by tools/gdb/gdb.mk and by
tests/gdb/run-gdb-test.

    launch.py gdb  --elf E --init F --port P [--break LOC] [--serial S] MACHINE
        QEMU in the background (halted, -S), GDB in the foreground; when
        GDB exits, QEMU is stopped.
    launch.py qemu --elf E --init F --port P [--break LOC] MACHINE
        Only QEMU, in the foreground with the serial console on stdio; it
        prints the one command that attaches GDB from another terminal.
    launch.py init --elf E --init F --port P [--break LOC]
        Only write the init file.

MACHINE is the Makefile's machine as tools/qemu-run takes it (--iso
ISO [--machine M --mem SIZE --smp N --accel A --icount 0|1 --qemu CMD]);
the QEMU command is tools/lib/qemu.py's, with the gdbstub (-S -gdb).
--print-cmdline prints that command instead of running anything.
"""

import argparse
import os
import shlex
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEMPLATE = os.path.join(HERE, "gdbinit.in")
sys.dont_write_bytecode = True
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tools.lib import proc, qemu  # noqa: E402


def gdbinit_text(elf, port, stop_at=None, batch=False, helpers=None, settings=""):
    """The init file: architecture, symbols, helpers (tools/gdb/fold.py
    unless given), connect, and (if stop_at) a hardware breakpoint there and
    `continue`. settings: more GDB commands before the connection (make
    replay's remotetimeout)."""
    with open(TEMPLATE) as f:
        text = f.read()
    batch_lines = ("set confirm off\nset pagination off\nset height 0\n"
                   "set width 0\n" if batch else "set confirm off\n")
    if settings:
        batch_lines += settings.rstrip("\n") + "\n"
    stop = f"fold-hbreak {stop_at}\ncontinue\n" if stop_at else ""
    return (text.replace("@BATCH@", batch_lines.rstrip("\n"))
            .replace("@ELF@", os.path.abspath(elf))
            .replace("@HELPERS@", os.path.abspath(helpers) if helpers
                     else os.path.join(HERE, "fold.py"))
            .replace("@ROOT@", ROOT)
            .replace("@PORT@", str(port))
            .replace("@STOP@", stop.rstrip("\n")))


def write_init(path, elf, port, stop_at=None, batch=False, extra="", helpers=None,
               settings=""):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(gdbinit_text(elf, port, stop_at, batch, helpers, settings))
        if extra:
            f.write(extra)


def port_free(port):
    """True if nothing listens on 127.0.0.1:port (QEMU could bind it)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # As QEMU does: connections of a finished session in TIME_WAIT do not
    # block the port, a listener does.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def free_port():
    """A port nobody listens on now (for batch runs that must not collide)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("gdb", "qemu", "init"))
    ap.add_argument("--elf", required=True)
    ap.add_argument("--init", required=True, help="the init file to write")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--break", dest="stop_at", default="kmain",
                    help="where GDB stops first (default kmain; '' for none)")
    ap.add_argument("--serial", default=None,
                    help="QEMU -serial value (gdb mode: default file:<build>/gdb-serial.log; "
                         "qemu mode: stdio)")
    ap.add_argument("--gdb", default=os.environ.get("GDB", "gdb"))
    ap.add_argument("--print-cmdline", action="store_true",
                    help="print the QEMU command and exit")
    qemu.add_machine_arguments(ap)
    args = ap.parse_args(argv)

    build = os.path.dirname(os.path.abspath(args.init))
    if args.mode == "qemu":
        serial = args.serial or "stdio"
    else:
        serial = args.serial or f"file:{os.path.join(build, 'gdb-serial.log')}"
    cmd = None
    if args.mode != "init":
        if not args.iso:
            ap.error(f"{args.mode}: --iso is required")
        try:
            cmd = qemu.command(qemu.program(args.qemu), qemu.machine_from_args(args),
                               args.iso, serial, gdb_port=args.port)
        except ValueError as e:
            ap.error(str(e))
    if args.print_cmdline:
        print(shlex.join(cmd) if cmd else "(init: no QEMU)")
        return 0
    if not os.path.exists(args.elf):
        print(f"fold-gdb: {args.elf} does not exist: run make", file=sys.stderr)
        return 1
    write_init(args.init, args.elf, args.port, args.stop_at or None)
    attach = f"{args.gdb} -q -x {shlex.quote(os.path.abspath(args.init))}"
    if args.mode == "init":
        print(attach)
        return 0
    if not port_free(args.port):
        print(f"fold-gdb: TCP port {args.port} on 127.0.0.1 is in use (another "
              f"fold GDB session?); choose another: make gdb GDB_PORT=<port>",
              file=sys.stderr)
        return 1

    if args.mode == "qemu":
        print(f"fold: QEMU waits for GDB on 127.0.0.1:{args.port} (-S: the CPUs "
              f"start when GDB continues). Attach from another terminal with:\n"
              f"    {attach}", flush=True)
        # As for make run: isa-debug-exit's codes (and a signal) said in words.
        result = qemu.run_foreground(cmd)
        if result.kind != "passed":
            print(f"fold: {result.message}", file=sys.stderr)
        return result.status

    qemu_out = os.path.join(build, "gdb-qemu.txt")
    try:
        p = proc.start(cmd, output=qemu_out)
    except OSError as e:
        print(f"fold-gdb: cannot start QEMU ({cmd[0]}): {e}", file=sys.stderr)
        return 1
    time.sleep(0.2)
    if p.poll() is not None:
        with open(qemu_out) as f:
            sys.stderr.write(f.read())
        print(f"fold-gdb: QEMU exited at once (status {p.returncode}): "
              f"{shlex.join(cmd)}", file=sys.stderr)
        return 1
    where = serial[5:] if serial.startswith("file:") else serial
    if where.startswith(os.getcwd() + os.sep):
        where = os.path.relpath(where)
    print(f"fold: QEMU (pid {p.pid}) waits on 127.0.0.1:{args.port}; serial "
          f"console: {where} (tail -f it in another terminal). Quit GDB to "
          f"stop QEMU.", flush=True)
    try:
        status = proc.run_in_foreground([args.gdb, "-q", "-x", args.init])
    finally:
        proc.stop(p)
    return status


if __name__ == "__main__":
    sys.exit(main())
