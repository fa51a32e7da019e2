"""Build, boot and score a student tree (tools/lab/grade; tools/lab/lab-check
boots each tree once with every lab's suite). See tools/lib/labgrade.py
for the grading tree and the log."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass, field

from tools.lab import checks
from tools.lib import build as build_mod
from tools.lib import lab as labmod
from tools.lib import labgrade, qemu
from tools.lib.proc import ProcessSet
from tools.lib.serial import find_panic, read_log

SMP = 2
MEM = "256M"
# A regression case's limit, per case of the kernel's suites, in virtual
# ms (ktest_case_ms=, tests/kernel/ktest.h): the longest, nmi_swapgs
# under icount, takes up to 12 s, and `test=all` 18 s in all.
REGRESSION_CASE_MS = 30000
# Far above any grade (a boot takes seconds): when QEMU is still running
# after this long, the host was too slow, and that is no grade at all.
HOST_TIMEOUT = 600.0


@dataclass
class Run:
    """One build and boot of a grading tree."""
    tree: str                       # the grading tree
    cmdline: str
    build_ok: bool = False
    build_output: str = ""
    lines: list[str] = field(default_factory=list)
    boot: qemu.Boot | None = None
    host_too_slow: bool = False
    build_seconds: float = 0.0
    name: str = "grade"             # its build/NAME.iso, .log, .qemu.txt

    @property
    def elf(self) -> str:
        return os.path.join(self.tree, "build", "fold.elf")


def cmdline_for(suites: list[str], seeds: list[int], case: str | None) -> str:
    """The grade's command line. Where the kernel's own suites are among
    suites (any not lab_...: a regression case's), each case of theirs
    runs watched, REGRESSION_CASE_MS at most."""
    words = ["test=" + ",".join(suites)] + (["lab_seeds=" + ",".join(map(str, seeds))]
                                            if seeds else []) + ["clock=icount"]
    if case:
        words.insert(-1, f"lab_case={case}")
    if any(not s.startswith("lab_") for s in suites):
        words.append(f"ktest_case_ms={REGRESSION_CASE_MS}")
    return " ".join(words)


def prime(tree: str, ref_tree: str, changed: list[str]) -> None:
    """Start tree's build from ref_tree's (lab-check: one full build of the
    reference, then only what a skeleton changed). Every file that
    differs from the reference is made newer than every copied object."""
    src, dst = os.path.join(ref_tree, "build"), os.path.join(tree, "build")
    if not os.path.isdir(src) or os.path.exists(dst):
        return
    shutil.copytree(src, dst, symlinks=True)
    newest = max(os.stat(os.path.join(d, n)).st_mtime for d, _, ns in os.walk(dst) for n in ns)
    for p in changed:
        path = os.path.join(tree, p)
        if os.path.exists(path):
            os.utime(path, (newest + 2, newest + 2))


def build_tree(run: Run) -> None:
    make = build_mod.make_program()
    cmd = build_mod.iso_command(make, "build", f"build/{run.name}.iso", run.cmdline)
    t0 = time.monotonic()
    status, output = build_mod.run_make(cmd, run.tree, env=build_mod.clean_env())
    if status and "xorriso : ABORT" in output:
        # xorriso (grub-mkrescue's) now and then dies at its exit after
        # writing the ISO (SIGSEGV, "Trying to shut down drive"): the
        # host's tool, not the tree. Once more.
        status, output = build_mod.run_make(cmd, run.tree, env=build_mod.clean_env())
    run.build_seconds = time.monotonic() - t0
    run.build_ok = status == 0
    run.build_output = output


def qemu_command(run: Run) -> list[str]:
    machine = qemu.Machine("pc", MEM, SMP, "tcg", True, False)
    return qemu.command(qemu.program(), machine, f"build/{run.name}.iso",
                        f"file:build/{run.name}.log")


def boot_tree(run: Run, timeout: float = HOST_TIMEOUT, procs: ProcessSet | None = None) -> None:
    log = f"build/{run.name}.log"
    run.boot = qemu.boot(qemu_command(run), serial_log=log, output=f"build/{run.name}.qemu.txt",
                         timeout=timeout, procs=procs or ProcessSet(), cwd=run.tree)
    run.host_too_slow = run.boot.timed_out
    run.lines = read_log(os.path.join(run.tree, log))


# make grade keeps the every-suite boot's log here, under its key: a grade
# of the same tree reads it instead of booting again (docs/10-labs.md).
KEPT_BOOT = "build/every-suite-boot.json"


def boot_key(run: Run) -> str:
    """What run's boot depends on: the path and content of every file of
    the grading tree (the student's sources, the reference's tests and
    build), of the kernel and user programs built from them, the
    kernel's command line and QEMU's. Any other byte: another key."""
    users = os.path.join(run.tree, "build", "user")
    built = ["build/fold.elf"] + sorted(f"build/user/{n}" for n in os.listdir(users)
                                        if n.endswith(".elf"))
    h = hashlib.sha256("\0".join([run.cmdline] + qemu_command(run)).encode())
    for rel in labmod.tree_files(run.tree) + built:
        with open(os.path.join(run.tree, rel), "rb") as f:
            h.update(b"\0%s\0%s" % (rel.encode(), hashlib.sha256(f.read()).digest()))
    return h.hexdigest()


def kept_boot(run: Run, key: str) -> str | None:
    """Load run's log and exit from the kept boot when its key is key: the
    time it booted (None: boot it)."""
    try:
        with open(os.path.join(run.tree, KEPT_BOOT)) as f:
            kept = json.load(f)
    except (OSError, ValueError):
        return None
    if kept.get("key") != key:
        return None
    run.lines, run.boot = kept["lines"], qemu.Boot(exit_code=kept["exit_code"])
    return kept["when"]


def keep_boot(run: Run, key: str) -> None:
    """Keep run's boot under key if the kernel ended it (a failure too: it
    is the tree's); not if the host did (too slow, a signal, no QEMU)."""
    b = run.boot
    if not b or b.exit_code is None or b.timed_out or b.error or b.signal is not None:
        return
    tmp = os.path.join(run.tree, KEPT_BOOT + ".tmp")
    with open(tmp, "w") as f:
        json.dump({"key": key, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   "exit_code": b.exit_code, "lines": run.lines}, f)
    os.replace(tmp, os.path.join(run.tree, KEPT_BOOT))


@dataclass
class Scored:
    case: labmod.Case
    status: str                     # pass, fail, timeout, notrun, skip
    diagnostics: list[str]
    points: int
    failed_at: tuple[str, str] | None = None   # a regression case's first (suite, case)

    @property
    def ok(self) -> bool:
        return self.status == "pass"


def case_entry(s: Scored) -> dict:
    """A scored case as make grade's JSON has it (its "cases"), without the
    rerun and gdb commands, which make grade adds to a failed one."""
    return {"case": s.case.name, "status": s.status, "points": s.points,
            "max": s.case.points, "host": s.case.host, "held_out": s.case.held_out,
            "suite": s.case.suite, "diagnostics": s.diagnostics}


def why_not_run(run: Run) -> str:
    if not run.build_ok:
        return "the kernel did not build"
    panic = find_panic(run.lines)
    if panic:
        return f"the kernel panicked: {run.lines[panic.line - 1].strip()}"
    bail = labgrade.bail_out(run.lines)
    if bail:
        return f"the run bailed out: {bail}"
    unknown = next((l.strip() for l in run.lines if "test: no suite named" in l), None)
    if unknown:  # the grader's own mistake: its kernel lacks a suite it ran
        return f"the kernel has no such suite: {unknown[unknown.index('test: '):]}"
    if run.boot and run.boot.exit_code == 0 and not run.boot.timed_out:
        return "the machine reset (a triple fault?) before the case ran"
    return "the kernel never printed its result"


def score_lab(lab: labmod.Lab, run: Run, only: str | None = None,
              regression: bool = True) -> list[Scored]:
    """Each case of lab (only: that one) in run; regression=False: not the
    regression case (make grade scores it on a boot of its own)."""
    suites = {c.suite or lab.suite for c in lab.cases if not c.host and not c.regression}
    found = {s: labgrade.suite_results(run.lines, s) if run.lines else {} for s in suites}
    out = []
    for c in lab.cases:
        if only and c.name != only:
            continue
        if c.host:
            if not run.build_ok:
                out.append(Scored(c, "notrun", ["the kernel did not build"], 0))
                continue
            problems = checks.run(c.name, run.elf)
            out.append(Scored(c, "fail" if problems else "pass", problems,
                              0 if problems else c.points))
            continue
        if c.regression:
            out += [score_regression(c, run)] if regression else []
            continue
        r = found[c.suite or lab.suite].get(c.name)
        if r is None:
            out.append(Scored(c, "notrun", [why_not_run(run)], 0))
        elif r.status == "timeout":
            out.append(Scored(c, "timeout", r.diagnostics + [f"# {r.note}"], 0))
        elif r.status == "skip":
            out.append(Scored(c, "skip", [f"skipped: {r.note}"], 0))
        else:
            # The stub's line first: it says what is left to write.
            diags = sorted(r.diagnostics, key=lambda d: labgrade.STUB_TEXT not in d)
            out.append(Scored(c, r.status, diags, c.points if r.status == "pass" else 0))
    return out


def score_regression(c: labmod.Case, run: Run) -> Scored:
    """The kernel's own suites in the grade's boot: every case passes (or
    skips), and the run reports every suite."""
    if not run.build_ok or not run.lines:
        return Scored(c, "notrun", [why_not_run(run)], 0)
    ran = next((w[len("test="):].split(",") for w in run.cmdline.split()
                if w.startswith("test=")), [])
    if not set(c.regression) <= set(ran):
        return Scored(c, "notrun", ["this boot did not run the kernel's suites ("
                                    + ",".join(c.regression) + ")"], 0)
    failed, why = labgrade.regression_failures(run.lines)
    if any(w.startswith("the run ended") and "Bail out!" not in w for w in why):
        why.append(why_not_run(run))
    if not why:
        return Scored(c, "pass", [], c.points)
    return Scored(c, "fail", why, 0, failed[0] if failed else None)
