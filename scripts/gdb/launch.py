#!/usr/bin/env python3
"""Start fold under GDB: QEMU with its gdbstub, and GDB with a generated
init file (scripts/gdb/gdbinit.in). Used by scripts/gdb/gdb.mk and by
tests/gdb/run-gdb-test.

    launch.py gdb  --elf E --init F --port P [--break LOC] [--serial S] -- QEMU...
        QEMU in the background (halted, -S), GDB in the foreground; when
        GDB exits, QEMU is stopped.
    launch.py qemu --elf E --init F --port P [--break LOC] -- QEMU...
        Only QEMU, in the foreground with the serial console on stdio; it
        prints the one command that attaches GDB from another terminal.
    launch.py init --elf E --init F --port P [--break LOC]
        Only write the init file.

QEMU... is the QEMU command and its machine arguments (the Makefile's
$(QEMU) $(QEMU_ARGS)); this script adds -S, -gdb and -serial.
"""

import argparse
import os
import shlex
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEMPLATE = os.path.join(HERE, "gdbinit.in")


def gdbinit_text(elf, port, stop_at=None, batch=False, helpers=None):
    """The init file: architecture, symbols, helpers (scripts/gdb/fold.py
    unless given), connect, and (if stop_at) a hardware breakpoint there and
    `continue`."""
    with open(TEMPLATE) as f:
        text = f.read()
    batch_lines = ("set confirm off\nset pagination off\nset height 0\n"
                   "set width 0\n" if batch else "set confirm off\n")
    stop = f"fold-hbreak {stop_at}\ncontinue\n" if stop_at else ""
    return (text.replace("@BATCH@", batch_lines.rstrip("\n"))
            .replace("@ELF@", os.path.abspath(elf))
            .replace("@HELPERS@", os.path.abspath(helpers) if helpers
                     else os.path.join(HERE, "fold.py"))
            .replace("@ROOT@", ROOT)
            .replace("@PORT@", str(port))
            .replace("@STOP@", stop.rstrip("\n")))


def write_init(path, elf, port, stop_at=None, batch=False, extra="", helpers=None):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(gdbinit_text(elf, port, stop_at, batch, helpers))
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


def gdbstub_args(port):
    # Listen on localhost only; -S: the vCPUs start halted, at the reset
    # vector, until GDB says continue.
    return ["-S", "-gdb", f"tcp:127.0.0.1:{port}"]


def start_qemu(cmd, out_path):
    """QEMU in its own session (no terminal signals reach it), its own
    output in out_path."""
    out = open(out_path, "w")
    try:
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    finally:
        out.close()


def stop_process(proc):
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except OSError:
        proc.terminate()
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        proc.wait()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("gdb", "qemu", "init"))
    ap.add_argument("--elf", required=True)
    ap.add_argument("--init", required=True, help="the init file to write")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--break", dest="stop_at", default="kmain",
                    help="where GDB stops first (default kmain; '' for none)")
    ap.add_argument("--serial", default=None,
                    help="QEMU -serial value (gdb mode: default file:<build>/gdb-serial.log)")
    ap.add_argument("--gdb", default=os.environ.get("GDB", "gdb"))
    ap.add_argument("qemu", nargs=argparse.REMAINDER)
    args = ap.parse_args(argv)
    qemu = args.qemu[1:] if args.qemu[:1] == ["--"] else args.qemu

    if not os.path.exists(args.elf):
        print(f"fold-gdb: {args.elf} does not exist: run make", file=sys.stderr)
        return 1
    write_init(args.init, args.elf, args.port, args.stop_at or None)
    attach = f"{args.gdb} -q -x {shlex.quote(os.path.abspath(args.init))}"
    if args.mode == "init":
        print(attach)
        return 0
    if not qemu:
        print("fold-gdb: no QEMU command given", file=sys.stderr)
        return 2
    if not port_free(args.port):
        print(f"fold-gdb: TCP port {args.port} on 127.0.0.1 is in use (another "
              f"fold GDB session?); choose another: make gdb GDB_PORT=<port>",
              file=sys.stderr)
        return 1

    if args.mode == "qemu":
        serial = args.serial or "stdio"
        cmd = qemu + gdbstub_args(args.port) + ["-serial", serial]
        print(f"fold: QEMU waits for GDB on 127.0.0.1:{args.port} (-S: the CPUs "
              f"start when GDB continues). Attach from another terminal with:\n"
              f"    {attach}", flush=True)
        # qemu-run.sh turns isa-debug-exit's codes into pass/fail/panic,
        # as for make run.
        cmd = ["sh", os.path.join(ROOT, "scripts", "qemu-run.sh")] + cmd
        os.execvp(cmd[0], cmd)

    build = os.path.dirname(os.path.abspath(args.init))
    serial = args.serial or f"file:{os.path.join(build, 'gdb-serial.log')}"
    qemu_out = os.path.join(build, "gdb-qemu.txt")
    cmd = qemu + gdbstub_args(args.port) + ["-serial", serial]
    proc = start_qemu(cmd, qemu_out)
    time.sleep(0.2)
    if proc.poll() is not None:
        with open(qemu_out) as f:
            sys.stderr.write(f.read())
        print(f"fold-gdb: QEMU exited at once (status {proc.returncode}): "
              f"{shlex.join(cmd)}", file=sys.stderr)
        return 1
    where = serial[5:] if serial.startswith("file:") else serial
    if where.startswith(os.getcwd() + os.sep):
        where = os.path.relpath(where)
    print(f"fold: QEMU (pid {proc.pid}) waits on 127.0.0.1:{args.port}; serial "
          f"console: {where} (tail -f it in another terminal). Quit GDB to "
          f"stop QEMU.", flush=True)
    try:
        status = run_in_foreground([args.gdb, "-q", "-x", args.init])
    finally:
        stop_process(proc)
    return status


def run_in_foreground(cmd):
    """Run cmd as the terminal's foreground job, as a shell would, so that
    Ctrl-C reaches only it: in GDB, Ctrl-C interrupts the guest, and make
    and this script must not die of it (this script stops QEMU afterwards)."""
    # Should Ctrl-C still reach us (no terminal to hand over), survive it;
    # a handler, unlike SIG_IGN, is reset to the default in the child.
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        return subprocess.call(cmd)
    try:
        fg = os.tcgetpgrp(tty)
    except OSError:
        fg = -1
    if fg != os.getpgrp():          # not in the foreground (make gdb &)
        os.close(tty)
        return subprocess.call(cmd)

    def child():
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.setpgid(0, 0)
        os.tcsetpgrp(tty, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)

    old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        p = subprocess.Popen(cmd, preexec_fn=child, pass_fds=(tty,))
        return p.wait()
    finally:
        os.tcsetpgrp(tty, fg)       # the terminal back to make's group
        signal.signal(signal.SIGTTOU, old)
        os.close(tty)


if __name__ == "__main__":
    sys.exit(main())
