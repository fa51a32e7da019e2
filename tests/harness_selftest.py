"""Self-tests for tests/run, on the canned serial logs in tests/harness-logs/.

Run them with:  tests/run --self-test [-v] [--only NAME]

Each case pushes a canned log through the code real rows use and checks the
verdict: a bad log must fail, and fail for the right reason (the report must
mention it, so a different complaint cannot hide a parser that stopped
noticing), and a good log must pass. Cases with via="qemu" boot a fake QEMU
(tests/tools/fakes.py) through Runner, so the timeout, the exit statuses and
the serial file are exercised on the real code path; via="make" also runs
a fake make. The checks of tools/lib itself (lib-*, tests/tools/lib_selftest.py)
run here too.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from tests.tools import fakes
from tests.tools import lib_selftest

HERE = os.path.dirname(os.path.abspath(__file__))
LOGS = os.path.join(HERE, "harness-logs")


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    log: str | None = None          # canned log in harness-logs/
    expect: str = "pass"            # the row's expect=
    passes: bool = False            # should the harness judge the row ok?
    mention: tuple[str, ...] = ()   # texts its report must contain
    via: str = "log"                # log: parse only; qemu: fake boot; make: build too
    exit: int = 1                   # the fake QEMU's exit status
    hang: bool = False              # the fake QEMU never exits
    kill: str | None = None         # the fake QEMU gets this signal
    make_exit: int = 0
    row: dict = field(default_factory=dict)         # more Row fields
    check: Callable[[Context], list[str]] | None = None


@dataclass
class Context:
    """What a case's extra check may look at."""

    run: object                     # the tests/run module
    case: Case
    result: object                  # RowResult
    report: str
    tmp: str                        # the fake's root directory
    seconds: float

    def record(self, what: str) -> dict:
        try:
            with open(os.path.join(self.tmp, f"{self.case.name}.{what}.json")) as f:
                return json.load(f)
        except OSError:
            return {}


def check_timeout(ctx: Context) -> list[str]:
    problems = []
    if ctx.seconds > 8:
        problems.append(f"took {ctx.seconds:.1f} s to give up on a 1 s timeout")
    pid = ctx.record("qemu").get("pid")
    if pid is None:
        problems.append("the fake QEMU never ran")
    else:
        try:
            os.kill(pid, 0)
            problems.append(f"the fake QEMU (pid {pid}) is still alive")
        except ProcessLookupError:
            pass
    # The log must survive the kill, complete up to the hang.
    log = os.path.join(ctx.tmp, "build", "test", "timeout.log")
    with open(os.path.join(LOGS, "timeout.log")) as f:
        last = f.read().rstrip().splitlines()[-1]
    try:
        with open(log) as f:
            if last not in f.read():
                problems.append("the log on disk lacks the last canned line")
    except OSError:
        problems.append(f"no log left at {log}")
    return problems


def check_commands(ctx: Context) -> list[str]:
    """The make and QEMU command lines the lead's Makefile and the kernel
    rely on."""
    run, row = ctx.run, ctx.result.row
    make = ctx.record("make").get("argv", [])
    qemu = ctx.record("qemu").get("argv", [])
    problems = []
    for arg in ("-s", f"BUILD=build/cfg/{row.build_hash}",
                "ISO=build/test/end-to-end.iso",
                "CMDLINE=test=memory loglevel=debug", "COUNT=ti",
                "PREEMPT=full", "iso"):
        if arg not in make:
            problems.append(f"make was not given {arg!r}: {make}")
    joined = " ".join(qemu)
    for part in ("-machine q35", "-m 5G", "-smp 4", "-accel tcg",
                 "-icount shift=0,sleep=off", "-cdrom build/test/end-to-end.iso",
                 "-boot d", "-display none", "-no-reboot",
                 "-serial file:build/test/end-to-end.log", "-monitor none",
                 "-device isa-debug-exit,iobase=0xf4,iosize=0x04",
                 "-s -S"):
        if part not in joined:
            problems.append(f"QEMU was not given {part!r}: {joined}")
    if run.Row(name="x", build=["A=1", "B=2"]).build_hash != \
            run.Row(name="y", build=["B=2", "A=1"]).build_hash:
        problems.append("the same make variables in another order got "
                        "another object directory")
    return problems


def check_no_debug_exit(ctx: Context) -> list[str]:
    """exit=acpi: QEMU without isa-debug-exit, the rest as usual."""
    joined = " ".join(ctx.record("qemu").get("argv", []))
    problems = []
    if "isa-debug-exit" in joined:
        problems.append(f"QEMU was given isa-debug-exit for an exit=acpi row: {joined}")
    if "-no-reboot" not in joined:
        problems.append(f"QEMU lost -no-reboot: {joined}")
    return problems


def check_build_output(ctx: Context) -> list[str]:
    if ctx.record("qemu"):
        return ["QEMU was booted although the build failed"]
    return []


CASES = [
    # Good logs pass, parsed alone and booted.
    Case("good", "good.log", passes=True,
         mention=("8 tests", "1 skipped", "1 todo")),
    Case("good-booted", "good.log", via="qemu", passes=True),
    Case("stray-output", "stray-output.log", passes=True,
         mention=("2 line(s) of stray output", "line 10")),
    # Each broken KTAP shape fails, for its own reason.
    Case("out-of-order", "out-of-order.log",
         mention=("line 17: test number 3 out of order",)),
    Case("missing-plan", "missing-plan.log",
         mention=("line 9: missing plan",)),
    Case("cut-off", "cut-off.log",
         mention=("cut off in suite scheduler after test 2",)),
    Case("nested-not-ok", "nested-not-ok.log",
         mention=("not ok: memory.guard_page", "expected 14, got 13")),
    Case("nested-not-ok-booted", "nested-not-ok.log", via="qemu", exit=3,
         mention=("not ok: memory.guard_page",)),
    Case("parent-ok-child-not-ok", "parent-ok-child-not-ok.log",
         expect="fail", mention=("says ok, but suite memory has a not ok",)),
    Case("missing-version", "missing-version.log",
         mention=("line 5: KTAP output begins without the top-level "
                  "'KTAP version 1'",)),
    Case("missing-nested-version", "missing-nested-version.log",
         mention=("suite exceptions has no 'KTAP version 1'",)),
    Case("bad-indent", "bad-indent.log",
         mention=("line 11: indentation of 6 spaces",)),
    Case("wrong-count", "wrong-count.log",
         mention=("suite memory planned 3 tests but reported 2",)),
    Case("no-ktap", "triple-fault.log", mention=("no KTAP output",)),
    # expect=fail: a not ok and exit status 3 is what the row wants.
    Case("expected-failure", "nested-not-ok.log", expect="fail", via="qemu",
         exit=3, passes=True, mention=("1 not ok as expected",)),
    Case("expected-failure-all-ok", "good.log", expect="fail", via="qemu",
         exit=3, mention=("every test passed",)),
    # What QEMU's exit status says.
    Case("timeout", "timeout.log", via="qemu", hang=True,
         row={"timeout": 1},
         mention=("timeout: QEMU still running after 1 s",
                  "cut off in suite smp after test 1"),
         check=check_timeout),
    Case("triple-fault", "triple-fault.log", via="qemu", exit=0,
         mention=("triple fault / reset", "idt: loading the IDT")),
    # A SIGTERM from outside: QEMU says so and exits 0, but no triple fault.
    Case("qemu-killed", "timeout.log", via="qemu", kill="SIGTERM",
         mention=("QEMU was killed by signal 15 (SIGTERM)",
                  "terminating on signal 15"),
         check=lambda ctx: ["called a triple fault"]
         if "triple fault" in ctx.report else []),
    Case("exit-mismatch", "good.log", via="qemu", exit=3,
         mention=("QEMU exit status 3",)),
    Case("exit-odd", "good.log", via="qemu", exit=7,
         mention=("QEMU exit status 7",)),
    Case("qemu-error", None, via="qemu", exit=1,
         mention=("QEMU failed to start", "fake-qemu: pretending")),
    # exit=acpi: no isa-debug-exit; QEMU exits 0 when the guest powers off,
    # the verdict is the exit code the kernel printed.
    Case("acpi-poweroff", "acpi-poweroff.log", via="qemu", exit=0, passes=True,
         row={"exit": "acpi"}, check=check_no_debug_exit),
    Case("acpi-reset", "good.log", via="qemu", exit=0, row={"exit": "acpi"},
         mention=("no line contains 'acpi: powering off (S5'",
                  "never reached qemu_exit()")),
    Case("acpi-exit-code", "acpi-poweroff-fail.log", via="qemu", exit=0,
         row={"exit": "acpi"},
         mention=("the kernel's exit code 1 means status 3",
                  "not ok: memory.guard_page")),
    Case("acpi-expected-failure", "acpi-poweroff-fail.log", via="qemu", exit=0,
         expect="fail", passes=True, row={"exit": "acpi"}),
    Case("acpi-qemu-status", "acpi-poweroff.log", via="qemu", exit=1,
         row={"exit": "acpi"}, mention=("QEMU exit status 1, expected 0",)),
    # Panics.
    Case("panic-expected", "panic.log", expect="panic", via="qemu", exit=5,
         passes=True, mention=("panicked as expected", "Call Trace:",
                               "panic+0x5c/0x90")),
    Case("panic-unexpected", "panic.log", via="qemu", exit=5,
         mention=("kernel panic at line 10", "Call Trace:",
                  "long_mode_entry")),
    Case("panic-no-backtrace", "panic-no-trace.log", expect="panic",
         via="qemu", exit=5, mention=("panic without a backtrace",)),
    Case("panic-missing", "good.log", expect="panic", via="qemu", exit=5,
         mention=("expected a panic",)),
    # grep= and nogrep=.
    Case("grep-found", "good.log", passes=True,
         row={"grep": ["smp: 2 CPUs online", "Booting `fold'"],
              "nogrep": ["WARNING"]}),
    Case("grep-missing", "good.log",
         row={"grep": ["smp: 2 CPUs online", "smp: 4 CPUs online"]},
         mention=("missing expected text 'smp: 4 CPUs online'",)),
    Case("nogrep-present", "good.log", row={"nogrep": ["freed 512 frames"]},
         mention=("forbidden text 'freed 512 frames'",)),
    # The whole row: fake make, then fake QEMU.
    Case("end-to-end", "good.log", via="make", passes=True,
         row={"machine": "q35", "mem": "5G", "smp": 4, "icount": True,
              "cmdline": "test=memory loglevel=debug",
              "build": ["COUNT=ti", "PREEMPT=full"], "qemu": ["-s", "-S"]},
         check=check_commands),
    Case("build-fails", "good.log", via="make", make_exit=2,
         mention=("build failed (make exit status 2)",
                  "init/main.c:12: error"),
         check=check_build_output),
]


# ---------------------------------------------------------------------------
# Checks of the table, the command line and the row runner
# ---------------------------------------------------------------------------

def test_config_parse(run, tmp) -> list[str]:
    text = '''
        # a comment
        name=a
        name=b machine=q35 mem=5G smp=4 accel=kvm icount=1 timeout=5 \
expect=panic qemu="-s -S" cmdline="x=1 y=2" build="COUNT=ti PREEMPT=full" \
grep="unknown option 'foo'|b c" nogrep="WARN" group=slow,smp  # trailing
    '''
    rows = run.parse_configs(text.replace("\\\n", ""), "t")
    a, b = rows
    want_a = dict(machine="pc", mem="256M", smp=2, accel="tcg", icount=False,
                  qemu=[], cmdline="test=all", build=[], timeout=60.0,
                  expect="pass", grep=[], nogrep=[], groups=[])
    want_b = dict(machine="q35", mem="5G", smp=4, accel="kvm", icount=True,
                  qemu=["-s", "-S"], cmdline="x=1 y=2",
                  build=["COUNT=ti", "PREEMPT=full"], timeout=5.0,
                  expect="panic", grep=["unknown option 'foo'", "b c"],
                  nogrep=["WARN"], groups=["slow", "smp"])
    problems = []
    for row, want in ((a, want_a), (b, want_b)):
        for key, value in want.items():
            if getattr(row, key) != value:
                problems.append(f"row {row.name}: {key} = "
                                f"{getattr(row, key)!r}, expected {value!r}")
    if b.runs_by_default:
        problems.append("a group=slow row runs by default")
    return problems


def test_config_errors(run, tmp) -> list[str]:
    bad = {
        "name=a\nname=a": "t:2: duplicate name 'a'",
        "machine=pc": "t:1: row has no name=",
        "name=a colour=red": "t:1: unknown key 'colour'",
        "name=a expect=maybe": "t:1: expect='maybe'",
        "name=a smp=0": "t:1: smp='0'",
        "name=a mem=lots": "t:1: mem='lots'",
        "name=a timeout=soon": "t:1: timeout='soon'",
        "name=a accel=hvf": "t:1: accel='hvf'",
        "name=a build=COUNT": "t:1: build='COUNT'",
        "name=a build=CMDLINE=x": "CMDLINE is set by the harness",
        'name=a cmdline="unclosed': "t:1: No closing quotation",
        "name=a/b": "t:1: name='a/b'",
        "name=a name=b": "t:1: 'name' given twice",
        "\n\nname=a junk": "t:3: 'junk' is not key=value",
    }
    problems = []
    for text, want in bad.items():
        try:
            run.parse_configs(text, "t")
            problems.append(f"{text!r} was accepted")
        except run.ConfigError as e:
            if want not in str(e):
                problems.append(f"{text!r}: error {str(e)!r} lacks {want!r}")
    return problems


def test_config_table(run, tmp) -> list[str]:
    """tests/configs itself parses and holds the foundation rows."""
    with open(os.path.join(HERE, "configs")) as f:
        rows = {r.name: r for r in run.parse_configs(f.read())}
    want = {"pc-128M": dict(machine="pc", mem="128M", smp=1),
            "q35-128M": dict(machine="q35", mem="128M"),
            "pc-5G": dict(mem="5G"),
            "q35-5G": dict(machine="q35", mem="5G", smp=2),
            "cmdline-warnings": dict(expect="pass"),
            "panic": dict(cmdline="test=panic", expect="panic")}
    problems = []
    for name, fields in want.items():
        if name not in rows:
            problems.append(f"tests/configs has no row {name}")
            continue
        for key, value in fields.items():
            if getattr(rows[name], key) != value:
                problems.append(f"{name}: {key} is {getattr(rows[name], key)!r}")
    return problems


def test_qemu_command(run, tmp) -> list[str]:
    kvm = run.Row(name="k", accel="kvm", qemu=["-d", "int"])
    cmd = run.qemu_command(["qemu"], kvm, "x.iso", "x.log")
    problems = []
    if " ".join(cmd[cmd.index("-accel"):][:4]) != "-accel kvm -cpu host,-arch-capabilities":
        problems.append(f"kvm row: {cmd}")
    if "-icount" in cmd:
        problems.append("icount given without icount=1")
    if cmd[-2:] != ["-d", "int"]:
        problems.append("qemu= arguments are not last")
    if cmd[0] != "qemu":
        problems.append("QEMU's own command is not first")
    return problems


def test_selection(run, tmp) -> list[str]:
    rows = run.parse_configs("name=pc-a\nname=q35-b group=smp\n"
                             "name=q35-slow group=slow\nname=kvm-a group=kvm")
    cases = [(([], []), ["pc-a", "q35-b"]),
             ((["smp"], []), ["q35-b"]),
             ((["slow,kvm"], []), ["q35-slow", "kvm-a"]),
             ((["all"], []), ["pc-a", "q35-b", "q35-slow", "kvm-a"]),
             (([], ["q35"]), ["q35-b"]),              # substring: not slow
             (([], ["q35-slow"]), ["q35-slow"]),      # exact: asked for
             (([], ["pc-a,kvm-a"]), ["pc-a", "kvm-a"])]
    problems = []
    for (groups, only), want in cases:
        got, _ = run.select_rows(rows, groups, only)
        if [r.name for r in got] != want:
            problems.append(f"--group {groups} --only {only}: "
                            f"{[r.name for r in got]}, expected {want}")
    _, unmatched = run.select_rows(rows, [], ["nope"])
    if unmatched != ["nope"]:
        problems.append("--only nope was not reported as matching nothing")
    return problems


def test_run_rows(run, tmp) -> list[str]:
    """Progress lines, the tally, -j and --no-keep-going, with fake rows."""
    problems = []
    runner = run.Runner(root=tmp, qemu=fakes.qemu_command(
        os.path.join(LOGS, "good.log"), 1), build=False)
    rows = [run.Row(name="r-pass"), run.Row(name="r-fail", expect="fail"),
            run.Row(name="r-pass2")]
    for jobs, keep_going, want in ((1, True, {True: 2, False: 1}),
                                   (3, True, {True: 2, False: 1}),
                                   (1, False, {True: 1, False: 1})):
        tally = {True: 0, False: 0}
        failures = []
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            run.run_rows(runner, rows, jobs, keep_going, False, tally,
                         failures)
        text = out.getvalue()
        label = f"-j {jobs}{'' if keep_going else ' --no-keep-going'}"
        if tally != want:
            problems.append(f"{label}: tally {tally}, expected {want}")
        if "[1/3] r-pass ... ok (" not in text or \
                "[2/3] r-fail ... FAILED" not in text:
            problems.append(f"{label}: progress lines wrong:\n{text}")
        if not keep_going and "r-pass2" in text:
            problems.append(f"{label}: went on after a failure")
        recap = run.format_recap(failures)
        if [f.row.name for f in failures] != ["r-fail"] or not \
                recap.startswith("failed rows (1), again:\n  r-fail ... FAILED"):
            problems.append(f"{label}: recap of the failed rows wrong:\n"
                            f"{recap}")
    if run.format_recap([]) != "":
        problems.append("recap printed with no failed row")
    return problems


def test_build_failures(run, tmp) -> list[str]:
    """A broken build fails every row, but its output is shown once."""
    runner = run.Runner(root=tmp, qemu=["false"], make=fakes.make_command(exit=2))
    rows = [run.Row(name="b1"), run.Row(name="b2", cmdline="test=panic")]
    tally = {True: 0, False: 0}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run.run_rows(runner, rows, 1, True, False, tally, [])
    text = out.getvalue()
    problems = []
    if tally != {True: 0, False: 2}:
        problems.append(f"tally {tally}, expected two failures")
    if text.count("init/main.c:12: error") != 1 or \
            "same make output as row b1" not in text:
        problems.append(f"make's output not shown exactly once:\n{text}")
    return problems


def test_command_line(run, tmp) -> list[str]:
    """main(): the summary is the last line, and the exit status follows."""
    problems = []
    for argv, status, last in (
            (["--log-only", os.path.join(LOGS, "good.log")], 0,
             "1 passed, 0 failed"),
            (["--log-only", os.path.join(LOGS, "cut-off.log")], 1,
             "0 passed, 1 failed"),
            (["--log-only", os.path.join(LOGS, "panic.log"), "--expect",
              "panic", "--exit-code", "5"], 0, "1 passed, 0 failed"),
            (["--log-only", os.path.join(LOGS, "panic.log"), "--expect",
              "panic", "--exit-code", "1"], 1, "0 passed, 1 failed"),
            (["--only", "no-such-row"], 2, "0 passed, 0 failed")):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            got = run.main(argv)
        lines = out.getvalue().rstrip("\n").splitlines()
        if got != status or not lines or lines[-1] != last:
            problems.append(f"tests/run {' '.join(argv)}: status {got}, "
                            f"last line {lines[-1:]}, expected {status} "
                            f"and {last!r}")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run.main(["--list"])
    if "cmdline-warnings" not in out.getvalue():
        problems.append("--list does not show the table")
    return problems


UNIT_TESTS = [("config-parse", test_config_parse),
              ("config-errors", test_config_errors),
              ("config-table", test_config_table),
              ("qemu-command", test_qemu_command),
              ("selection", test_selection),
              ("run-rows", test_run_rows),
              ("build-failures", test_build_failures),
              ("command-line", test_command_line)] + [
    (name, lambda run, tmp, fn=fn: fn(tmp)) for name, fn in lib_selftest.TESTS]


# ---------------------------------------------------------------------------
# Running them
# ---------------------------------------------------------------------------

def run_case(run, case: Case, tmp: str) -> tuple[list[str], str, str]:
    """Returns (problems, the harness's report, a one-line gist of it)."""
    row = run.Row(name=case.name, expect=case.expect, **case.row)
    log = os.path.join(LOGS, case.log) if case.log else None
    start = time.monotonic()
    if case.via == "log":
        verdict = run.judge(row, run.read_log(log), run.Boot())
        result = run.RowResult(row, verdict, log=log)
    else:
        qemu = fakes.qemu_command(log, case.exit, case.hang,
                                  os.path.join(tmp, f"{case.name}.qemu.json"),
                                  case.kill)
        make = fakes.make_command(case.make_exit,
                                  os.path.join(tmp, f"{case.name}.make.json"))
        runner = run.Runner(root=tmp, qemu=qemu, make=make,
                            build=case.via == "make")
        result = runner.run_row(row)
    seconds = time.monotonic() - start
    report = run.format_result(result, verbose=True)

    problems = []
    if result.verdict.ok != case.passes:
        problems.append(f"judged {'ok' if result.verdict.ok else 'failed'}, "
                        f"should be {'ok' if case.passes else 'failed'}")
    for text in case.mention:
        if text not in report:
            problems.append(f"the report does not mention {text!r}")
    if case.check:
        problems += case.check(Context(run, case, result, report, tmp,
                                       seconds))
    v = result.verdict
    gist = f"row judged {'ok' if v.ok else 'failed'}: {v.summary}"
    return problems, report, gist


def main(run, verbose: bool = False, only: list[str] = ()) -> int:
    names = [n for arg in only for n in arg.split(",") if n]
    wanted = (lambda name: not names or any(n in name for n in names))
    jobs = [(c.name, c) for c in CASES if wanted(c.name)] + \
           [(n, f) for n, f in UNIT_TESTS if wanted(n)]
    width = len(str(len(jobs)))
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="fold-harness-selftest-")
    try:
        for i, (name, job) in enumerate(jobs, 1):
            print(f"[{i:>{width}}/{len(jobs)}] {name} ... ", end="", flush=True)
            report = gist = ""
            try:
                if isinstance(job, Case):
                    problems, report, gist = run_case(run, job, tmp)
                else:
                    problems = job(run, tmp)
            except Exception as e:                      # noqa: BLE001
                import traceback
                problems = [f"crashed: {type(e).__name__}: {e}",
                            *traceback.format_exc().splitlines()]
            if problems:
                failed += 1
                print("FAILED")
                for p in problems:
                    print(f"    - {p}")
            else:
                passed += 1
                print(f"ok ({gist})" if gist else "ok")
            if report and (verbose or problems):
                print("\n".join("    | " + l for l in report.splitlines()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
