"""Grading a lab (make grade, tools/lab/grade): the grading tree, the
seeds, reading the suite's results from the serial log, the report.

The grading tree is the student tree with the reference's tests put back
(Pintos-style): every path under RESTORED comes from the reference, the
rest from the student. A student who edits a test, the harness or the
build changes nothing; the report names the files that differed. Files
are written only when their content differs, so a second grade of the
same tree rebuilds only what changed.

Determinism: the kernel runs under -icount shift=0,sleep=off, the seeds
are fixed or picked from a hash of the student's sources (the same tree
picks the same), and the report holds no wall-clock figure: the same
tree gives the same report, byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field

from . import lab as labmod

# The reference's, always: the tests, the harness, the build, the user
# programs the suites run, and the stubs' recorder.
RESTORED = ("tests/", "tools/", "scripts/", "user/", "Makefile", "linker.ld",
            "kernel/lab.c", "kernel/lab.h")
FIXED_SEEDS = (1, 2)
LINKED = (".c", ".asm")                     # sources whose objects the kernel links
ELFS = ("build/fold.elf", "build/fold.pass1.elf")
PICKED_SEEDS = 2
STUB_TEXT = "is still the stub that make lab left"
RESULT_RE = re.compile(r"^    (ok|not ok) (\d+) (\S+)(?:\s+#\s*(.*))?$")
DIAG_RE = re.compile(r"^    # (\S+): (.*)$")
SUBTEST_RE = re.compile(r"^    # Subtest: (\S+)$")
SEED_RE = re.compile(r"\bseed (\d+)\b")


def restored(rel: str) -> bool:
    return any(rel == r or (r.endswith("/") and rel.startswith(r)) for r in RESTORED)


def pick_seeds(lab: str, root: str, files: list[str]) -> list[int]:
    """PICKED_SEEDS seeds from the student's kernel sources: the same tree,
    the same seeds; any change to them, others."""
    h = hashlib.sha256(lab.encode())
    for rel in sorted(files):
        if restored(rel) or not rel.endswith((".c", ".h", ".asm", ".inc")):
            continue
        h.update(rel.encode() + b"\0")
        with open(os.path.join(root, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    d = h.digest()
    return [1000 + int.from_bytes(d[4 * i:4 * i + 4], "big") % 999_000 for i in
            range(PICKED_SEEDS)]


def same_file(a: str, b: str) -> bool:
    try:
        if os.path.getsize(a) != os.path.getsize(b):
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


@dataclass
class TreeSync:
    differed: list[str] = field(default_factory=list)    # restored paths the student changed
    from_student: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)     # written into the grading tree
    unlike_reference: list[str] = field(default_factory=list)


def grading_tree(ref: str, student: str, dest: str, extra: dict[str, str] | None = None
                 ) -> TreeSync:
    """Make dest the grading tree of student (build/ in dest is kept).
    extra: more of the grader's files, path in dest -> source (a course's
    held-out cases, tools/lab/heldout.py), never the student's."""
    ref_files = labmod.tree_files(ref)
    stu_files = [p for p in labmod.tree_files(student) if p != ".fold-lab"]
    want: dict[str, str] = {}
    sync = TreeSync()
    for p in ref_files:
        if restored(p):
            want[p] = os.path.join(ref, p)
    want.update(extra or {})
    ref_set = set(ref_files)
    for p in stu_files:
        if restored(p):
            if p not in ref_set or not same_file(os.path.join(ref, p), os.path.join(student, p)):
                sync.differed.append(p)
        else:
            want[p] = os.path.join(student, p)
            sync.from_student.append(p)
            if p not in ref_set or not same_file(os.path.join(ref, p), want[p]):
                sync.unlike_reference.append(p)
    stu_set = set(stu_files)
    sync.differed += [p for p in ref_files if restored(p) and p not in stu_set]
    os.makedirs(dest, exist_ok=True)
    came, went = [], []
    for p, src in want.items():
        dst = os.path.join(dest, p)
        if os.path.exists(dst):
            if same_file(src, dst):
                continue
            shutil.copyfile(src, dst)   # now: newer than anything built from it
            shutil.copymode(src, dst)
        else:
            os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
            shutil.copy2(src, dst)      # its own time: a primed build keeps its objects
            came.append(p)
        sync.changed.append(p)
    for d, dirs, names in os.walk(dest):
        rel = os.path.relpath(d, dest)
        if rel == ".":
            dirs[:] = [x for x in dirs if x != "build"]
        for n in names:
            p = os.path.normpath(os.path.join(rel, n))
            if p not in want:
                os.remove(os.path.join(d, n))
                went.append(p)
    # A source that came or went changes what the kernel links, which make
    # does not see when every object is older than the ELF (a held-out
    # file back from an earlier grade, with its object): link again.
    if any(p.endswith(LINKED) for p in came + went):
        for elf in ELFS:
            if os.path.exists(os.path.join(dest, elf)):
                os.remove(os.path.join(dest, elf))
    return sync


# ---------------------------------------------------------------------------
# The suite's results in the serial log
# ---------------------------------------------------------------------------

@dataclass
class CaseResult:
    name: str
    status: str                 # pass, fail, skip, timeout, notrun
    diagnostics: list[str] = field(default_factory=list)
    note: str = ""              # the result line's directive


def suite_results(lines: list[str], suite: str) -> dict[str, CaseResult]:
    """Each case of suite in the log: its result, and the '# case: ...'
    lines the kernel printed before it."""
    results: dict[str, CaseResult] = {}
    inside = False
    pending: dict[str, list[str]] = {}
    for line in lines:
        m = SUBTEST_RE.match(line)
        if m:
            inside = m.group(1) == suite
            pending = {}
            continue
        if not inside:
            continue
        d = DIAG_RE.match(line)
        if d:
            pending.setdefault(d.group(1), []).append(d.group(2))
            continue
        r = RESULT_RE.match(line)
        if r:
            name, note = r.group(3), (r.group(4) or "").strip()
            if r.group(1) == "ok":
                status = "skip" if note.upper().startswith("SKIP") else "pass"
            else:
                status = "timeout" if note.startswith("timeout") else "fail"
            results[name] = CaseResult(name, status, pending.pop(name, []), note)
        elif line.startswith(("ok ", "not ok ")):
            inside = False
    return results


TOP_RE = re.compile(r"^(ok|not ok) (\d+) (\S+)")
PLAN_RE = re.compile(r"^1\.\.(\d+)$")


def regression_failures(lines: list[str], skip_prefix: str = "lab_"
                        ) -> tuple[list[tuple[str, str]], list[str]]:
    """The kernel's own suites in the log (not those named skip_prefix...):
    ([(suite, case)] of each case that failed or timed out, in order;
    what is wrong, one line a failure, each naming the case and the
    first line the kernel printed for it). Nothing wrong: two empty
    lists. A run that ended early (a bail-out, a panic, a reset) says
    how many of its suites reported, and which ran last."""
    cases: list[tuple[str, str]] = []
    why: list[str] = []
    suites = [m.group(1) for m in map(SUBTEST_RE.match, lines) if m]
    for suite in dict.fromkeys(suites):
        if suite.startswith(skip_prefix):
            continue
        for r in suite_results(lines, suite).values():
            if r.status not in ("fail", "timeout"):
                continue
            cases.append((suite, r.name))
            first = r.diagnostics[0] if r.diagnostics else r.note or "no diagnostic line"
            why.append(f"{suite}.{r.name}: {r.status}: {first}")
    plan = next((int(m.group(1)) for m in map(PLAN_RE.match, lines) if m), None)
    reported = sum(1 for l in lines if TOP_RE.match(l))
    if plan is None:
        why.append("the kernel printed no KTAP plan: it never ran its suites")
    elif reported < plan:
        bail = bail_out(lines)
        why.append(f"the run ended after {reported} of its {plan} suites"
                   + (f", in suite {suites[-1]}" if suites else "")
                   + (f": Bail out! {bail}" if bail else ""))
    return cases, why


def bail_out(lines: list[str]) -> str | None:
    return next((l[len("Bail out!"):].strip() for l in lines if l.startswith("Bail out!")),
                None)


def first_seed(diags: list[str]) -> int | None:
    for d in diags:
        m = SEED_RE.search(d)
        if m:
            return int(m.group(1))
    return None


def shell_words(words: list[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)
