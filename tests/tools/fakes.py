"""A fake QEMU and a fake make, for the self-tests of the host tools.

As a program:

    fakes.py qemu [--exit N] [--log FILE] [--hang] [--record FILE]
                  [--kill-self SIGNAL] [--stderr TEXT] -- QEMU-ARGS
        Parses QEMU-ARGS as QEMU would (an option it does not know is an
        error: exit 1 with a message), writes FILE (or nothing, and an
        error message on stderr) where -serial points (file:PATH or stdio),
        then exits N (default 1: the kernel's "all passed"), or hangs.
        SIGINT, SIGTERM and SIGHUP make it do what QEMU does: print
        "terminating on signal N" and exit 0. --kill-self sends it one.
        --record writes {"argv": QEMU-ARGS, "pid": its pid} as JSON;
        --stderr TEXT is printed there first (a KVM internal error).
    fakes.py make [--exit N] [--record FILE] [--fail-if VAR=VALUE]
                  [--refuse-makeflags] -- MAKE-ARGS
        Fails (with a compiler error) on --exit N > 0, or when MAKE-ARGS
        hold VAR=VALUE; else creates ISO=... and the targets given as
        paths, and a fold_offsets.py target holds FAKE_OFFSETS.

Self-tests with their own logs call fake_qemu() with a behaviour function
(tests/tools/bench/selftest.py makes a log for each configuration).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field

if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.lib.qemu import DEFAULT_QEMU  # noqa: E402

THIS = os.path.abspath(__file__)

# A made-up kernel's limits and options (not fold's: the self-tests that
# read them must not depend on the real numbers).
FAKE_OFFSETS = """# A fake fold_offsets.py, from tests/tools/fakes.py
PERCPU_self = 0
CMDLINE_MAX = 600
AUTORUN_MAX = 300
SHELL_LINE_MAX = 100
CMDLINE_OPTIONS = ["test", "autorun", "clock", "hz", "loglevel"]
BENCH_OPTIONS_preempt = ["iters"]
BENCH_OPTIONS_latency = ["loops", "load", "histogram", "section_us"]
BENCH_OPTIONS_throughput = ["ops", "W"]
BENCH_OPTIONS_uaccess = ["iters"]
BENCH_OPTIONS_syscall = ["calls"]
BENCH_OPTIONS_userlat = ["loops", "load"]
BENCH_OPTIONS_hackbench = ["loops", "groups"]
BENCH_OPTIONS_wakeup_hog = ["loops"]
BENCH_OPTIONS_mode_cost = ["iters"]
BENCH_OPTIONS_inversion = ["section_us", "medium_us"]
"""

# QEMU options the host tools use, with a value or without.
VALUE_OPTIONS = {"-machine", "-m", "-smp", "-accel", "-cpu", "-icount", "-cdrom",
                 "-boot", "-display", "-serial", "-monitor", "-device", "-gdb",
                 "-d", "-D", "-L", "-drive"}
FLAG_OPTIONS = {"-no-reboot", "-S", "-s", "-nographic"}


@dataclass
class QemuArgs:
    """A QEMU command line taken apart (without the program)."""

    options: dict = field(default_factory=dict)     # -opt -> [values]
    flags: set = field(default_factory=set)

    def get(self, opt: str, default=None):
        values = self.options.get(opt)
        return values[-1] if values else default

    @property
    def smp(self) -> int:
        return int(self.get("-smp", "1"))

    @property
    def serial(self) -> str | None:
        return self.get("-serial")


def parse_qemu_args(args: list[str]) -> QemuArgs:
    """Raises ValueError with QEMU's kind of message for an unknown option,
    a missing value, or a -smp that is not a number."""
    q = QemuArgs()
    i = 0
    while i < len(args):
        a = args[i]
        if a in FLAG_OPTIONS:
            q.flags.add(a)
        elif a in VALUE_OPTIONS:
            if i + 1 >= len(args):
                raise ValueError(f"{a}: requires an argument")
            q.options.setdefault(a, []).append(args[i + 1])
            i += 1
        else:
            raise ValueError(f"{a}: invalid option")
        i += 1
    if not q.get("-smp", "1").isdigit():
        raise ValueError(f"-smp {q.get('-smp')}: not a CPU count")
    return q


@dataclass
class Behaviour:
    log: bytes | None       # what the guest writes to the serial port
    exit: int = 1
    hang: bool = False
    kill_self: int | None = None


def _split(argv: list[str], flags: set[str]) -> tuple[dict, list[str]]:
    """'--exit 1 --hang -- rest...' -> ({'exit': '1', 'hang': True}, rest)."""
    cut = argv.index("--") if "--" in argv else len(argv)
    opts, own = {}, argv[:cut]
    i = 0
    while i < len(own):
        key = own[i].lstrip("-")
        if key in flags:
            opts[key] = True
            i += 1
        else:
            if i + 1 >= len(own):
                raise SystemExit(f"fakes.py: {own[i]} needs a value")
            opts[key] = own[i + 1]
            i += 2
    return opts, argv[cut + 1:]


def _record(path: str | None, args: list[str]) -> None:
    if path:
        with open(path, "w") as f:
            json.dump({"argv": args, "pid": os.getpid()}, f)


def _terminate(signum, frame):
    print(f"{DEFAULT_QEMU}: terminating on signal {signum} from pid "
          f"{os.getppid()} (fakes.py)", file=sys.stderr, flush=True)
    os._exit(0)


def fake_qemu(argv: list[str], behaviour=None) -> int:
    """behaviour(QemuArgs, Behaviour) -> Behaviour may change what the
    command line's options chose."""
    opts, args = _split(argv, {"hang"})
    if "--version" in args or "-version" in args:
        print("QEMU emulator version 0.0 (fake, tests/tools/fakes.py)")
        return 0
    try:
        q = parse_qemu_args(args)
    except ValueError as e:
        print(f"{DEFAULT_QEMU}: {e}", file=sys.stderr)
        return 1
    _record(opts.get("record"), args)
    log = None
    if "log" in opts:
        with open(opts["log"], "rb") as f:
            log = f.read()
    kill = opts.get("kill-self")
    b = Behaviour(log, int(opts.get("exit", "1")), bool(opts.get("hang")),
                  int(getattr(signal, kill, 0) or kill) if kill else None)
    if behaviour:
        b = behaviour(q, b)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _terminate)
    serial = q.serial or ""
    if serial.startswith("file:"):
        with open(serial[5:], "wb") as out:
            out.write(b.log or b"")
    elif serial == "stdio" and b.log:
        sys.stdout.buffer.write(b.log)
        sys.stdout.flush()
    if "stderr" in opts:
        print(opts["stderr"], file=sys.stderr, flush=True)
    if b.log is None:
        print(f"{DEFAULT_QEMU}: fake-qemu: pretending the machine type is wrong",
              file=sys.stderr, flush=True)
    if b.kill_self:
        os.kill(os.getpid(), b.kill_self)
        time.sleep(5)
    while b.hang:
        time.sleep(3600)
    return b.exit


def fake_make(argv: list[str]) -> int:
    opts, args = _split(argv, {"refuse-makeflags"})
    _record(opts.get("record"), args)
    if opts.get("refuse-makeflags") and os.environ.get("MAKEFLAGS"):
        print("fake-make: MAKEFLAGS leaked into the build: "
              + os.environ["MAKEFLAGS"])
        return 2
    status = int(opts.get("exit", "0"))
    if not status and opts.get("fail-if") in args:
        status = 2
    if status:
        print("init/main.c:12: error: expected ';' before '}' token")
        print("make: *** [Makefile:80: build/kernel/main.o] Error 1")
        return status
    paths = [a[4:] for a in args if a.startswith("ISO=")]
    paths += [a for a in args if "/" in a and "=" not in a and not a.startswith("-")]
    for path in paths:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            f.write(FAKE_OFFSETS if path.endswith("/fold_offsets.py") else "")
    return 0


def qemu_command(log: str | None = None, exit: int = 1, hang: bool = False,
                 record: str | None = None, kill_self: str | None = None,
                 stderr: str | None = None) -> list[str]:
    """The command that runs this fake QEMU (the QEMU arguments follow)."""
    cmd = [sys.executable, THIS, "qemu", "--exit", str(exit)]
    if log:
        cmd += ["--log", log]
    if hang:
        cmd.append("--hang")
    if record:
        cmd += ["--record", record]
    if kill_self:
        cmd += ["--kill-self", kill_self]
    if stderr:
        cmd += ["--stderr", stderr]
    return cmd + ["--"]


def make_command(exit: int = 0, record: str | None = None,
                 fail_if: str | None = None, refuse_makeflags: bool = False) -> list[str]:
    cmd = [sys.executable, THIS, "make", "--exit", str(exit)]
    if record:
        cmd += ["--record", record]
    if fail_if:
        cmd += ["--fail-if", fail_if]
    if refuse_makeflags:
        cmd.append("--refuse-makeflags")
    return cmd + ["--"]


if __name__ == "__main__":
    fakes = {"qemu": fake_qemu, "make": fake_make}
    if len(sys.argv) < 2 or sys.argv[1] not in fakes:
        sys.exit("usage: fakes.py qemu|make [OPTIONS] -- ARGS (see its docstring)")
    sys.exit(fakes[sys.argv[1]](sys.argv[2:]))
