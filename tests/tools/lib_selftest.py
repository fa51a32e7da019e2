"""Checks of tools/lib itself, run by `tests/run --self-test` (each as
"lib-NAME"); also `python3 tests/tools/lib_selftest.py [NAME...]`.

Each check returns a list of problems (empty: passed). They use the fakes
(tests/tools/fakes.py) for QEMU, except lib-kernel-info, which runs the real
make for <tmp>/fold_offsets.py: one compiled file, the whole way from the
C headers through arch/x86_64/kernel/asm-offsets.c and scripts/mkoffsets.sh.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time

if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.lib import ROOT, build, proc, qemu  # noqa: E402
from tests.tools import fakes, run_tests  # noqa: E402

QEMU_RUN = os.path.join(ROOT, "tools", "qemu-run")
HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_LOG = os.path.join(ROOT, "tests", "harness-logs", "good.log")


def test_qemu_command(tmp) -> list[str]:
    problems = []
    cmd = qemu.command(["q", "-L", "x"], qemu.Machine(), "a.iso", "file:a.log")
    want = ["q", "-L", "x", "-machine", "pc", "-m", "256M", "-smp", "2",
            "-accel", "tcg", "-cdrom", "a.iso", "-boot", "d", "-display", "none",
            "-no-reboot", "-serial", "file:a.log", "-monitor", "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if cmd != want:
        problems.append(f"the default command: {cmd}")
    m = qemu.Machine("q35", "5G", 4, "kvm", False)
    cmd = qemu.command(["q"], m, "a.iso", "stdio", gdb_port=1234, extra=["-d", "int"])
    joined = " ".join(cmd)
    for part in ("-machine q35 -m 5G -smp 4 -accel kvm -cpu host,-arch-capabilities",
                 "-S -gdb tcp:127.0.0.1:1234 -d int"):
        if part not in joined:
            problems.append(f"no {part!r} in {joined}")
    if "-icount" in cmd or cmd[-2:] != ["-d", "int"]:
        problems.append(f"-icount without icount, or extra not last: {joined}")
    cmd = qemu.command(["q"], qemu.Machine(icount=True), "a.iso", "stdio")
    if "-icount shift=0,sleep=off" not in " ".join(cmd):
        problems.append(f"icount: {cmd}")
    # UEFI: OVMF's code read only, its variables snapshot=on, q35 unless the
    # machine was chosen; without uefi, no firmware drive at all.
    joined = " ".join(qemu.command(["q"], qemu.Machine(uefi=True), "a.iso", "stdio"))
    for part in ("-machine q35 ", f"if=pflash,format=raw,readonly=on,file={qemu.OVMF_CODE}",
                 f"if=pflash,format=raw,file={qemu.OVMF_VARS},snapshot=on"):
        if part not in joined:
            problems.append(f"uefi: no {part!r} in {joined}")
    if "-machine pc,acpi=off" not in " ".join(qemu.Machine("pc,acpi=off", uefi=True).args()):
        problems.append("uefi: an explicit machine= was replaced")
    if "pflash" in " ".join(cmd):
        problems.append(f"pflash without uefi: {cmd}")
    # What we build, QEMU (here the fake's parser) must take.
    try:
        q = fakes.parse_qemu_args(cmd[1:])
        if (q.serial, q.smp, q.get("-cdrom")) != ("stdio", 2, "a.iso"):
            problems.append(f"parsed back: {q}")
    except ValueError as e:
        problems.append(f"the fake QEMU refuses the command: {e}")
    try:
        qemu.Machine(accel="hvf").args()
        problems.append("accel=hvf was accepted")
    except ValueError:
        pass
    # TCG's threads: auto is single exactly when the vCPUs would take every
    # host core; icount and KVM get no thread= at all.
    cores = qemu.host_cores()
    for smp, tcg, icount, want in ((cores, "auto", False, "tcg,thread=single"),
                                   (cores + 1, "auto", False, "tcg,thread=single"),
                                   (1, "auto", False, "tcg,thread=multi"),
                                   (cores, "single", False, "tcg,thread=single"),
                                   (cores, "multi", False, "tcg"),
                                   (cores, "auto", True, "tcg")):
        args = qemu.Machine(smp=smp, tcg_thread=tcg, icount=icount).args()
        got = args[args.index("-accel") + 1]
        if got != want:
            problems.append(f"smp={smp} tcg_thread={tcg} icount={icount}: "
                            f"-accel {got}, expected {want}")
    if (qemu.tcg_note(qemu.Machine(smp=cores + 1, tcg_thread="auto")) is None
            or qemu.tcg_note(qemu.Machine(smp=cores + 1, tcg_thread="single")) is not None):
        problems.append("the note make run prints: only when auto chose single")
    try:
        qemu.Machine(tcg_thread="many").args()
        problems.append("tcg_thread=many was accepted")
    except ValueError:
        pass
    problems += _replay_command()
    env = {"QEMU": "/opt/qemu/bin/q -L '/a b'"}
    for got, want in ((qemu.program(env=env), ["/opt/qemu/bin/q", "-L", "/a b"]),
                      (qemu.program(env={}), [qemu.DEFAULT_QEMU]),
                      (qemu.program("mine", env=env), ["mine"])):
        if got != want:
            problems.append(f"program(): {got}, expected {want}")
    return problems


def _replay_command() -> list[str]:
    """Record/replay: one CPU under TCG with the BIOS, or ValueError; the
    CD behind a read-only blkreplay node, -icount without sleep=off, and
    in replay the drive for the snapshots."""
    problems = []
    rec = qemu.command(["q"], qemu.Machine(smp=1, tcg_thread="auto"), "a.iso", "stdio",
                       replay=qemu.Replay("record", "r.bin"))
    joined = " ".join(rec)
    for part in ("-smp 1 -accel tcg -icount shift=0,rr=record,rrfile=r.bin "
                 "-drive file=a.iso,if=none,id=cd,format=raw,readonly=on "
                 "-drive driver=blkreplay,if=none,image=cd,id=cd-rr,readonly=on "
                 "-device ide-cd,drive=cd-rr,bootindex=0 -net none "
                 "-global apic-common.vapic=off -display none",):
        if part not in joined:
            problems.append(f"record: no {part!r} in {joined}")
    if "sleep=off" in joined or "-cdrom" in rec or rec.count("-icount") != 1 \
            or "snapshot=on" in joined or "thread=" in joined:
        problems.append(f"record: sleep=off, -cdrom, two -icount, a snapshot drive or "
                        f"a TCG thread=: {joined}")
    rep = " ".join(qemu.command(["q"], qemu.Machine(smp=1), "a.iso", "stdio", gdb_port=9,
                                replay=qemu.Replay("replay", "r.bin", "s.raw")))
    for part in ("-icount shift=0,rr=replay,rrfile=r.bin ",
                 "-drive file=s.raw,format=raw,if=none,id=snapshots,snapshot=on",
                 "-S -gdb tcp:127.0.0.1:9"):
        if part not in rep:
            problems.append(f"replay: no {part!r} in {rep}")
    for m, why in ((qemu.Machine(), "SMP=1"), (qemu.Machine(smp=1, accel="kvm"), "TCG"),
                   (qemu.Machine(smp=1, uefi=True), "BIOS")):
        try:
            qemu.command(["q"], m, "a.iso", "stdio", replay=qemu.Replay("record", "r.bin"))
            problems.append(f"record/replay accepted {m}")
        except ValueError as e:
            if why not in str(e):
                problems.append(f"record/replay refused {m} without naming {why}: {e}")
    return problems


def test_qemu_outcome(tmp) -> list[str]:
    cases = [((1, ""), "passed", 0, "success"),
             ((3, ""), "failed", 1, "tests failed (QEMU exit code 3)"),
             ((5, ""), "panic", 2, "kernel panic (QEMU exit code 5)"),
             ((0, ""), "reset", 3, "the guest reset itself (a triple fault?)"),
             ((0, "qemu-system-x: terminating on signal 15 from pid 9 (sh)"), "signal",
              143, "QEMU was killed by signal 15 (SIGTERM)"),
             ((-9, ""), "signal", 137, "QEMU was killed by signal 9 (SIGKILL)"),
             ((1, "qemu-system-x: -cdrom x: Could not open 'x'"), "error", 4,
              "its own error status, not the kernel's: qemu-system-x: -cdrom x"),
             ((1, "qemu-system-x: warning: host doesn't support it"), "passed", 0, ""),
             ((7, ""), "other", 7, "QEMU exited with code 7")]
    problems = []
    for (rc, out), kind, status, text in cases:
        o = qemu.outcome(rc, out)
        if (o.kind, o.status) != (kind, status) or text not in o.message:
            problems.append(f"outcome({rc}, {out!r}) = {o}, expected {kind}, "
                            f"{status}, {text!r}")
    o = qemu.outcome(0, "", received=signal.SIGINT)
    if o.kind != "signal" or "signal 2 (SIGINT)" not in o.message:
        problems.append(f"a signal we passed on: {o}")
    b = qemu.Boot(exit_code=0, timed_out=True,
                  qemu_output="x: terminating on signal 15 from pid 1")
    if b.signal is not None:
        problems.append("our own timeout's SIGTERM counted as a signal from outside")
    return problems


def _qemu_run(args: list[str], fake: list[str], timeout: float = 20,
              env: dict | None = None) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, QEMU_RUN, *args], capture_output=True,
                       text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                       env=dict(env or os.environ, QEMU=shlex.join(fake)))
    return p.returncode, p.stdout, p.stderr


def test_qemu_run(tmp) -> list[str]:
    """tools/qemu-run (make run) with the fake QEMU: each exit code,
    a signal, a missing ISO, the dry run."""
    problems = []
    iso = os.path.join(tmp, "run.iso")
    open(iso, "w").close()
    for exit, status, text in ((1, 0, ""), (3, 1, "fold: tests failed (QEMU exit code 3)"),
                               (5, 2, "fold: kernel panic"), (0, 3, "a triple fault?")):
        rc, out, err = _qemu_run(["--iso", iso], fakes.qemu_command(GOOD_LOG, exit))
        if rc != status or text not in err or (not text and err):
            problems.append(f"QEMU exit {exit}: status {rc}, stderr {err!r}; expected "
                            f"{status} and {text!r}")
        if "KTAP version 1" not in out:
            problems.append(f"QEMU exit {exit}: the serial console (stdio) lost the log")
    rc, out, err = _qemu_run(["--iso", iso], fakes.qemu_command(GOOD_LOG, 1, kill_self="SIGTERM"))
    if rc != 143 or "fold: QEMU was killed by signal 15 (SIGTERM)" not in err \
            or "triple fault" in err:
        problems.append(f"QEMU terminated by SIGTERM: status {rc}, stderr {err!r}")
    # A SIGTERM to qemu-run itself is passed on to QEMU.
    record = os.path.join(tmp, "hang.json")
    p = subprocess.Popen([sys.executable, QEMU_RUN, "--iso", iso], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, QEMU=shlex.join(fakes.qemu_command(
                             GOOD_LOG, hang=True, record=record))))
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(record) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        p.send_signal(signal.SIGTERM)
        err = p.communicate(timeout=10)[1]
        if p.returncode != 143 or "killed by signal 15 (SIGTERM)" not in err:
            problems.append(f"qemu-run sent SIGTERM: status {p.returncode}, stderr {err!r}")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    # A KVM internal error: QEMU pauses the guest and waits; both ways of
    # booting stop it at once and name the error and its RIP.
    kvm = fakes.qemu_command(GOOD_LOG, hang=True, stderr="KVM internal error. Suberror: 1\n"
                             "emulation failure\nRAX=0000000000000000 RIP=ffffffff80100010")
    rc, out, err = _qemu_run(["--iso", iso], kvm)
    b = qemu.boot(kvm + ["-serial", f"file:{tmp}/k.log"], serial_log=f"{tmp}/k.log",
                  output=f"{tmp}/k.txt", timeout=20, procs=proc.ProcessSet())
    said = "KVM internal error (emulation failure) at RIP 0xffffffff80100010"
    if rc != 4 or said not in err or b.timed_out or said not in (b.kvm_error or ""):
        problems.append(f"a KVM internal error: status {rc}, stderr {err!r}; boot {b}")
    rc, out, err = _qemu_run(["--iso", os.path.join(tmp, "none.iso")], fakes.qemu_command())
    if rc != 4 or "no such ISO" not in err:
        problems.append(f"a missing ISO: status {rc}, stderr {err!r}")
    rc, out, err = _qemu_run(["--smp", "3", "--icount", "1", "--iso", "x.iso",
                              "--print-cmdline", "--", "-d", "int"], ["myqemu", "-L", "a b"])
    want = shlex.join(qemu.command(["myqemu", "-L", "a b"], qemu.Machine(smp=3, icount=True),
                                   "x.iso", "stdio", extra=["-d", "int"]))
    if rc != 0 or out.strip() != want:
        problems.append(f"--print-cmdline: status {rc}, {out.strip()!r}, expected {want!r}")
    return problems


def _alive(pid: int) -> bool:
    """pid exists and is not a zombie (an orphan's zombie waits for init)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_proc(tmp) -> list[str]:
    """stop() takes the process group, SIGKILL for who ignores SIGTERM;
    ProcessSet.run's timeout; a program that does not exist."""
    problems = []
    pids = os.path.join(tmp, "pids")
    stubborn = ("import os, signal, subprocess, sys, time\n"
                "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                "c = subprocess.Popen(['sleep', '60'])\n"
                f"open({pids!r}, 'w').write(f'{{os.getpid()}} {{c.pid}}')\n"
                "time.sleep(60)\n")
    p = proc.start([sys.executable, "-c", stubborn])
    deadline = time.monotonic() + 10
    while not os.path.exists(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)
    t0 = time.monotonic()
    proc.stop(p, term_grace=0.3)
    if p.poll() is None or time.monotonic() - t0 > 4:
        problems.append("stop() did not end a process that ignores SIGTERM")
    try:
        child = int(open(pids).read().split()[1])
    except (OSError, ValueError, IndexError) as e:
        problems.append(f"the stubborn process never said its pids: {e}")
    else:
        time.sleep(0.2)
        if _alive(child):
            problems.append(f"stop() left the child (pid {child}) of its group alive")
            os.kill(child, signal.SIGKILL)
    done = proc.ProcessSet().run(["sleep", "30"], timeout=0.3)
    if not done.timed_out or done.returncode is not None or done.seconds > 4:
        problems.append(f"a 0.3 s timeout: {done}")
    done = proc.ProcessSet().run([os.path.join(tmp, "no-such-program")], timeout=1)
    if "No such file" not in done.error:
        problems.append(f"a missing program: {done}")
    if proc.signal_name(15) != "SIGTERM" or proc.signal_name(99) != "signal 99":
        problems.append("signal_name()")
    return problems


def test_offsets(tmp) -> list[str]:
    """Reading fold_offsets.py: numbers and word lists, and clear errors."""
    problems = []
    path = os.path.join(tmp, "fold_offsets.py")
    with open(path, "w") as f:
        f.write(fakes.FAKE_OFFSETS)
    info = build.kernel_info(path)
    if (info.cmdline_max, info.autorun_max, info.shell_line_max) != (600, 300, 100) \
            or info.kernel_options[:2] != ("test", "autorun") \
            or info.bench_options.get("throughput") != ("ops", "W"):
        problems.append(f"kernel_info(): {info}")
    for text, want in (("X = 5\nY = nope\n", ":2: not NAME = number"),
                       ("L = ['a', 'b c']\n", ":1: not NAME"),
                       ("CMDLINE_MAX = 5\n", "lacks AUTORUN_MAX, SHELL_LINE_MAX, "
                                             "CMDLINE_OPTIONS, BENCH_OPTIONS_<name>")):
        with open(path, "w") as f:
            f.write(text)
        try:
            build.kernel_info(path)
            problems.append(f"{text!r} was accepted")
        except build.BuildError as e:
            if want not in str(e):
                problems.append(f"{text!r}: {e} (wanted {want!r})")
    try:
        build.kernel_info(os.path.join(tmp, "missing.py"))
        problems.append("a missing fold_offsets.py was accepted")
    except build.BuildError as e:
        if "made by the build" not in str(e):
            problems.append(f"a missing file: {e}")
    return problems


def test_kernel_info(tmp) -> list[str]:
    """The real build's limits and option names (make <tmp>/fold_offsets.py)."""
    bdir = os.path.join(tmp, "kernel-info")
    try:
        info = build.fetch_kernel_info(ROOT, bdir, env=build.clean_env())
    except build.BuildError as e:
        return [str(e)]
    problems = []
    if not 0 < info.shell_line_max < info.autorun_max < info.cmdline_max:
        problems.append(f"the limits do not nest: shell line {info.shell_line_max}, "
                        f"autorun {info.autorun_max}, cmdline {info.cmdline_max}")
    for key in ("test", "autorun", "clock", "loglevel", "hz"):
        if key not in info.kernel_options:
            problems.append(f"no kernel option {key!r}: {info.kernel_options}")
    for bench, key in (("preempt", "iters"), ("latency", "loops"), ("latency", "load"),
                       ("throughput", "W"), ("race", "rounds")):
        if key not in info.bench_options.get(bench, ()):
            problems.append(f"bench {bench} has no option {key!r}: {info.bench_options}")
    with open(os.path.join(bdir, "asm-offsets.inc")) as f:
        inc = f.read()
    if "%define CMDLINE_MAX " not in inc or "OPTIONS" in inc:
        problems.append("asm-offsets.inc lacks CMDLINE_MAX or has a word list")
    return problems


def test_build(tmp) -> list[str]:
    problems = []
    if build.build_hash(["A=1", "B=2"]) != build.build_hash(["B=2", "A=1"]):
        problems.append("the same make variables in another order hash differently")
    if build.build_dir("build", []) != "build":
        problems.append(f"build_dir: {build.build_dir('build', [])}, not make's own build")
    if build.build_dir("build", ["COUNT=folded", "PREEMPT=full"]) != "build":
        problems.append("the Makefile's defaults spelled out got another object directory")
    if build.build_dir("build", ["COUNT=ti"]) != "build/cfg/" + build.build_hash(["COUNT=ti"]):
        problems.append(f"build_dir: {build.build_dir('build', ['COUNT=ti'])}")
    if build.build_hash(["COUNT=ti", "PREEMPT=full"]) != build.build_hash(["COUNT=ti"]) or \
            build.build_hash(["COUNT=ti"]) == build.build_hash([]):
        problems.append("COUNT=ti PREEMPT=full and COUNT=ti: not one directory, or the default's")
    cmd = build.iso_command(["make"], "b", "x.iso", "test=all", ["COUNT=ti"], ["iso", "b/fold.sym"])
    if cmd != ["make", "-s", "BUILD=b", "ISO=x.iso", "CMDLINE=test=all", "COUNT=ti",
               "iso", "b/fold.sym"]:
        problems.append(f"iso_command: {cmd}")
    if build.make_program({"MAKE": "make -j3"}) != ["make", "-j3"]:
        problems.append(f"make_program added a -j to $MAKE's own: {build.make_program({'MAKE': 'make -j3'})}")
    mk = build.make_program({})
    if mk[:1] != ["make"] or len(mk) != 2 or not mk[1].startswith("-j") or not mk[1][2:].isdigit():
        problems.append(f"make_program without $MAKE: {mk} (expected make -jN)")
    env = build.clean_env({"MAKEFLAGS": "-j2 COUNT=ti", "MAKELEVEL": "1", "PATH": "/bin"})
    if env != {"PATH": "/bin"}:
        problems.append(f"clean_env: {env}")
    if build.significant_lines("  CC      a.c\n  CC      p.c (ti)\n\nerror: x\n") != ["error: x"]:
        problems.append("significant_lines() kept a progress line")
    return problems


TESTS = [("lib-qemu-command", test_qemu_command), ("lib-qemu-outcome", test_qemu_outcome),
         ("lib-qemu-run", test_qemu_run), ("lib-proc", test_proc),
         ("lib-offsets", test_offsets), ("lib-kernel-info", test_kernel_info),
         ("lib-build", test_build)]


if __name__ == "__main__":
    sys.exit(run_tests(TESTS, sys.argv[1:], "fold-lib-selftest-"))
