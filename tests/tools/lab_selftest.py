"""Checks of the lab tools (tools/lib/lab.py, tools/lib/labgrade.py,
tools/lab/checks.py) on canned input, with no build and no QEMU: run by
make lab-check first; also `python3 tests/tools/lab_selftest.py [NAME...]`.

Each check returns a list of problems (empty: passed).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tests.tools import canned, lab_checks_selftest, lab_mutate_selftest, run_tests  # noqa: E402
from tools.lab import checks, gradescope, grading, heldout  # noqa: E402
from tools.lib import ROOT  # noqa: E402
from tools.lib import lab as labmod  # noqa: E402
from tools.lib import labgrade, qemu  # noqa: E402

SOURCE = canned("holes.c")


def expect_error(text: str, words: str) -> list[str]:
    try:
        labmod.find_holes(text, "x.c")
    except labmod.LabError as e:
        return [] if words in str(e) else [f"error {e!s} lacks {words!r}"]
    return [f"no error for a text that needs {words!r}"]


def test_holes(tmp) -> list[str]:
    problems = []
    holes = labmod.find_holes(SOURCE, "x.c")
    got = [(h.lab, h.func, h.stub, h.hint) for h in holes]
    want = [("L1", "fold", "return false;", "copy the flag into the count, one instruction."),
            ("L2", "other", "(void)cpu;", "the other lab's")]
    if got != want:
        problems.append(f"holes: {got}")
    if holes and holes[0].removed(SOURCE.splitlines())[-1].strip() != "return true;":
        problems.append("the hole's body does not end with its last line")
    problems += expect_error("x;\n/* LAB(L1) BEGIN: a */\ny;\n", "has no LAB(L1) END")
    problems += expect_error(SOURCE.replace("LAB(L2) END", "LAB(L3) END"), "closes the LAB(L2)")
    problems += expect_error(SOURCE.replace("send(cpu);", "/* LAB(L2) BEGIN */"),
                             "holes do not nest")
    problems += expect_error("x;\n/* LAB(L1) END */\n", "with no LAB BEGIN")
    problems += expect_error("/* LAB(X1) BEGIN */\n/* LAB(X1) END */\n", "a lab is named")
    problems += expect_error("/* LAB(L1) BEGIN: never\n closes\n", "never closes")
    return problems


def test_skeleton(tmp) -> list[str]:
    problems = []
    text, holes = labmod.skeleton_text(SOURCE, "x.c", "L1")
    if len(holes) != 1:
        problems.append(f"{len(holes)} holes of L1")
    for want in ('#include "kernel/lab.h"',
                 'lab_hole(1, "fold", "copy the flag into the count, one instruction.");',
                 "return false; /* the stub's own: not the answer */",
                 "/* LAB(L1) TODO: copy the flag", "send(cpu);", "/* LAB(L2) BEGIN"):
        if want not in text:
            problems.append(f"the skeleton lacks {want!r}")
    for gone in ("set_preempt_need_resched();", "LAB(L1) BEGIN", "LAB(L1) END"):
        if gone in text:
            problems.append(f"the skeleton keeps {gone!r}")
    lines = text.splitlines()
    if lines.index('#include "kernel/lab.h" /* make lab: lab_hole() */') != 2:
        problems.append("kernel/lab.h is not included after the last #include")
    same, none = labmod.skeleton_text(SOURCE, "x.c", "L5")
    if same != SOURCE or none:
        problems.append("a lab with no hole in the file changed it")
    long = "word " * 60
    if len(labmod.short_hint(long)) > 160:
        problems.append("short_hint() kept a long hint whole")
    quoted = labmod.c_string('a "b" \\c')
    if quoted != '"a \\"b\\" \\\\c"':
        problems.append(f"c_string(): {quoted}")
    return problems


def test_leaks(tmp) -> list[str]:
    ref, skel = os.path.join(tmp, "ref"), os.path.join(tmp, "skel")
    for root, text in ((ref, SOURCE), (skel, labmod.skeleton_text(SOURCE, "k/x.c", "L1")[0])):
        os.makedirs(os.path.join(root, "k"), exist_ok=True)
        with open(os.path.join(root, "k", "x.c"), "w") as f:
            f.write(text)
    problems = []
    if labmod.leaked_lines(ref, skel, "L1"):
        problems.append(f"a clean skeleton leaks: {labmod.leaked_lines(ref, skel, 'L1')}")
    with open(os.path.join(skel, "k", "x.c"), "a") as f:
        f.write("\tset_preempt_need_resched();\n\treturn true;\n")
    with open(os.path.join(skel, "k", "x.c"), "a") as f:
        f.write("\t}\n")  # in the reference outside the hole too: no leak
    leaks = labmod.leaked_lines(ref, skel, "L1")
    if len(leaks) != 2 or "set_preempt_need_resched" not in leaks[0] or \
            "return true;" not in leaks[1]:
        problems.append(f"the answer's two kept lines: {leaks}")
    return problems


def test_docs(tmp) -> list[str]:
    """The book of a lab's tree: an excerpt of a hole shows the stub,
    checks against the skeleton, and one that kept the answer leaks."""
    from tools.lib import excerpts
    ref, skel = os.path.join(tmp, "ref"), os.path.join(tmp, "skel")
    out, _, where = labmod.skeleton_lines(SOURCE, "k/x.c", "L1")
    doc = ("The fold:\n\n`k/x.c:4`, `fold()`:\n```c\nstatic bool fold(void)\n{\n...\n"
           "\tif (!tif_need_resched())\n\t\treturn false;\n...\n```\n")
    for root, text in ((ref, SOURCE), (skel, "\n".join(out) + "\n")):
        os.makedirs(os.path.join(root, "k"), exist_ok=True)
        os.makedirs(os.path.join(root, "docs"), exist_ok=True)
        with open(os.path.join(root, "k", "x.c"), "w") as f:
            f.write(text)
    problems = [f"the reference's excerpt: {e}" for e in excerpts.check(ref, "docs/NAME.md", doc)[1]]
    new, bad = labmod.skeleton_doc(ref, "docs/NAME.md", doc, {"k/x.c": (out, where)})
    problems += [f"skeleton_doc(): {e}" for e in bad]
    problems += [f"the skeleton's excerpt: {e}" for e in excerpts.check(skel, "docs/NAME.md", new)[1]]
    if "lab_hole(1" not in new or "`k/x.c:5`" not in new:
        problems.append(f"the excerpt shows no stub, or the wrong line: {new!r}")
    for text, want in ((new, 0), (doc, 2)):
        with open(os.path.join(skel, "docs", "a.md"), "w") as f:
            f.write(text)
        leaks = labmod.leaked_lines(ref, skel, "L1")
        if len(leaks) != want:
            problems.append(f"{'the stubbed' if not want else 'the reference'} doc: "
                            f"{len(leaks)} leaks, not {want}: {leaks}")
    return problems


def test_rubric(tmp) -> list[str]:
    problems = []
    labs = labmod.load_rubric(ROOT)
    # Each lab: 10 points of its own cases, and a regression case that
    # runs every suite of the kernel.
    own = {l.name: sum(c.points for c in l.cases if not c.regression) for l in labs.values()}
    if not labs or any(p != 10 for p in own.values()):
        problems.append(f"tests/labs/rubric: its own cases' points: {own}")
    for l in labs.values():
        if [c.regression for c in l.cases if c.regression] != [("all",)]:
            problems.append(f"lab {l.name}: no one case with regression=all")
    holes = {h.lab for h in labmod.all_holes(ROOT)}
    if holes != set(labs):
        problems.append(f"labs with holes {sorted(holes)}, in the rubric {sorted(labs)}")
    for case in (c for l in labs.values() for c in l.cases if c.host):
        if case.name not in checks.CHECKS:
            problems.append(f"host case {case.name} has no check in tools/lab/checks.py")
    for bad, words in (("lab L1 suite=a\n", "expected: lab"), ("case L1 a 1\n", "after its lab"),
                       ("lab L1 suite=a title=b section=c\n", "has no cases"),
                       ("bogus\n", "not 'bogus'"),
                       ("lab L1 suite=a title=b section=c\ncase L1 r 2 regression=a,B\n",
                        "regression=a,B"),
                       ("lab L1 suite=a title=b section=c\ncase L1 r 2 host regression=a\n",
                        "not host")):
        try:
            labmod.parse_rubric(bad)
            problems.append(f"no error for {bad!r}")
        except labmod.LabError as e:
            if words not in str(e):
                problems.append(f"{bad!r}: {e}")
    if "L1 (" not in labmod.unknown_lab("L9", labs):
        problems.append("unknown_lab() lists no lab")
    return problems


LOG = canned("ktap.log")


def test_log(tmp) -> list[str]:
    problems = []
    res = labgrade.suite_results(LOG.splitlines(), "lab_l9")
    got = {n: (r.status, len(r.diagnostics)) for n, r in res.items()}
    want = {"one": ("pass", 0), "two": ("fail", 2), "three": ("skip", 0),
            "four": ("timeout", 0)}
    if got != want:
        problems.append(f"suite_results(): {got}")
    if labgrade.first_seed(res["two"].diagnostics) != 7:
        problems.append("first_seed() did not find seed 7")
    if labgrade.suite_results(LOG.splitlines(), "lab_l8"):
        problems.append("another suite's results were taken")
    if labgrade.bail_out(["x", "Bail out! stuck"]) != "stuck":
        problems.append("bail_out() missed the line")
    run = grading.Run("", "", build_ok=True, lines=[
        "[    0.07] 0: test: no suite named 'lab_l3_x'; the suites are all, or:"])
    if "no such suite: test: no suite named 'lab_l3_x'" not in grading.why_not_run(run):
        problems.append(f"why_not_run() for an unknown suite: {grading.why_not_run(run)}")
    problems += regression_log()
    return problems


def regression_log() -> list[str]:
    """A regression case's verdict from a log: the lab's suite left out,
    the kernel's failed case named with its first line, an early end."""
    problems = []
    log = ["KTAP version 1", "1..3", "    # Subtest: lab_l1", "    # a: wrong",
           "    not ok 1 a", "not ok 1 lab_l1", "    # Subtest: sched",
           "    # rr: first line", "    # rr: second line", "    not ok 1 rr",
           "    ok 2 prio", "not ok 2 sched", "    # Subtest: bench", "    ok 1 x"]
    cases, why = labgrade.regression_failures(log)
    if cases != [("sched", "rr")] or len(why) != 2 or why[0] != "sched.rr: fail: first line" \
            or "ended after 2 of its 3 suites, in suite bench" not in why[1]:
        problems.append(f"regression_failures(): {cases} {why}")
    ok = ["KTAP version 1", "1..2", "    # Subtest: lab_l1", "    not ok 1 a", "not ok 1 lab_l1",
          "    # Subtest: sched", "    ok 1 rr", "ok 2 sched"]
    if labgrade.regression_failures(ok) != ([], []):
        problems.append(f"regression_failures() on a good run: {labgrade.regression_failures(ok)}")
    run = grading.Run("", "test=lab_l1 clock=icount", build_ok=True, lines=ok)
    case = labmod.Case("every_kernel_suite_passes", 2, regression=("all",))
    if grading.score_regression(case, run).status != "notrun":
        problems.append("a regression case passed in a boot that did not run its suites")
    run.cmdline = "test=lab_l1,all clock=icount"
    if grading.score_regression(case, run).status != "pass":
        problems.append("a regression case failed on a good run")
    return problems


def test_tree(tmp) -> list[str]:
    ref, stu, dest = (os.path.join(tmp, d) for d in ("r", "s", "g"))
    files = {"tests/run": "test", "kernel/preempt.h": "kernel", "Makefile": "make"}
    for root in (ref, stu):
        for p, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, p)), exist_ok=True)
            with open(os.path.join(root, p), "w") as f:
                f.write(text)
    with open(os.path.join(stu, "tests", "run"), "w") as f:
        f.write("a test the student changed")
    with open(os.path.join(stu, "kernel", "preempt.h"), "w") as f:
        f.write("the student's kernel")
    os.makedirs(os.path.join(dest, "build"))
    with open(os.path.join(dest, "stale.c"), "w") as f:
        f.write("left from before")
    sync = labgrade.grading_tree(ref, stu, dest)
    problems = []

    def read(p):
        with open(os.path.join(dest, p)) as f:
            return f.read()
    if read("tests/run") != "test" or read("kernel/preempt.h") != "the student's kernel":
        problems.append("the grading tree does not hold the reference's test and the "
                        "student's kernel")
    if sync.differed != ["tests/run"] or sync.unlike_reference != ["kernel/preempt.h"]:
        problems.append(f"differed {sync.differed}, unlike the reference {sync.unlike_reference}")
    if os.path.exists(os.path.join(dest, "stale.c")) or not os.path.isdir(os.path.join(dest, "build")):
        problems.append("a stale file stayed, or build/ went")
    again = labgrade.grading_tree(ref, stu, dest)
    if again.changed:
        problems.append(f"a second sync rewrote {again.changed}")
    elf = os.path.join(dest, "build", "fold.elf")
    extra = os.path.join(tmp, "held.c")
    with open(extra, "w") as f:
        f.write("a held-out case")
    held = os.path.join("tests", "labs", "held.c")  # comes into the grading tree only
    for what, more, gone in (("a source that comes", {held: extra}, True),
                             ("the same tree again", {held: extra}, False),
                             ("a source that goes", None, True)):
        with open(elf, "w") as f:
            f.write("linked before")
        labgrade.grading_tree(ref, stu, dest, more)
        if os.path.exists(elf) == gone:
            problems.append(f"{what}: the ELF {'stays' if gone else 'went'}")
    a = labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"])
    if a != labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"]) or len(a) != labgrade.PICKED_SEEDS:
        problems.append("pick_seeds() is not the same for the same tree")
    with open(os.path.join(stu, "kernel", "preempt.h"), "w") as f:
        f.write("changed")
    if labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"]) == a:
        problems.append("pick_seeds() did not change with the sources")
    return problems


HELD_C = canned("held-out.c")
HELD_RUBRIC = "case L3 one 2 suite=lab_l3_extra\ncase L3 two 1 suite=lab_l3_extra visibility=hidden\n"


def test_heldout(tmp) -> list[str]:
    """make grade GRADE_EXTRA=dir: a good folder, the example, and each
    mistake a folder can make, with the message that names it."""
    labs = labmod.load_rubric(ROOT)
    problems = []

    def folder(name, rubric=HELD_RUBRIC, files=None):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        if rubric is not None:
            with open(os.path.join(d, "rubric"), "w") as f:
                f.write(rubric)
        for n, text in (files if files is not None else {"extra.c": HELD_C}).items():
            with open(os.path.join(d, n), "w") as f:
                f.write(text)
        return d
    good = heldout.load(folder("good"), labs, ROOT)
    merged = heldout.merged(labs, good)["L3"]
    got = [(c.name, c.points, c.suite, c.visibility, c.held_out) for c in merged.cases[-2:]]
    if got != [("one", 2, "lab_l3_extra", heldout.VISIBILITY, True),
               ("two", 1, "lab_l3_extra", "hidden", True)] \
            or heldout.suites_of(merged) != ["lab_l3", "lab_l3_extra", "all"] \
            or list(good.files) != [f"{heldout.DEST}/extra.c"] or \
            len(labs["L3"].cases) != len(labmod.load_rubric(ROOT)["L3"].cases):
        problems.append(f"a good folder: {got}, {heldout.suites_of(merged)}, {good.files}")
    example = heldout.load(os.path.join(ROOT, "tests", "labs", "held-out-example"), labs, ROOT)
    if [c.name for c in example.cases.get("L3", [])] != ["request_from_the_other_cpu"]:
        problems.append(f"the example folder: {example.cases}")
    bad = [("missing", None, "no such folder"),
           ("no-rubric", folder("no-rubric", rubric=None), "no rubric"),
           ("bad-line", folder("bad-line", "case L3 one two suite=lab_l3_extra\n"),
            "rubric:1: expected: case LN NAME POINTS"),
           ("bad-word", folder("bad-word", "case L3 one 2 suite=lab_l3_extra colour=red\n"),
            "'colour=red': expected"),
           ("lab-line", folder("lab-line", "lab L9 suite=x title=y section=z\n"),
            "case lines only"),
           ("no-suite", folder("no-suite", "case L3 one 2\n"), "case L3 one names no suite"),
           ("own-suite", folder("own-suite", "case L3 one 2 suite=lab_l3\n"), "is named lab_l3_WORD"),
           ("no-file", folder("no-file", "case L3 one 2 suite=lab_l3_other\n"),
            "suite lab_l3_other (of case one) is defined by no .c file"),
           ("not-in-suite", folder("not-in-suite", HELD_RUBRIC + "case L3 three 1 suite=lab_l3_extra\n"),
            "case three is not a case of suite lab_l3_extra"),
           ("unscored", folder("unscored", "case L3 one 2 suite=lab_l3_extra\n"),
            "case two of suite lab_l3_extra has no line in"),
           ("own-case", folder("own-case", "case L3 local_request_folds_at_once 2 suite=lab_l3_extra\n"),
            "one of lab L3's own cases"),
           ("host", folder("host", "case L3 one 2 host suite=lab_l3_extra\n"), "is marked host"),
           ("clash", folder("clash", files={"lab.h": "", "extra.c": HELD_C}), "tests/labs/lab.h is the tree's own")]
    for name, path, words in bad:
        try:
            heldout.load(path or os.path.join(tmp, name), labs, ROOT)
            problems.append(f"{name}: no error, expected {words!r}")
        except labmod.LabError as e:
            if words not in str(e):
                problems.append(f"{name}: {e}, expected {words!r}")
    return problems


def test_gradescope(tmp) -> list[str]:
    """results.json: make grade's, and each way a doctored one breaks the
    shape; run_autograder's answer to a submission it cannot grade."""
    labs = heldout.merged(labmod.load_rubric(ROOT), heldout.load(
        os.path.join(ROOT, "tests", "labs", "held-out-example"), labmod.load_rubric(ROOT), ROOT))
    lab = labs["L3"]
    entries = [{"case": c.name, "status": "pass" if i else "fail", "points": c.points if i else 0,
                "max": c.points, "host": c.host, "diagnostics": ["seed 1: wrong"],
                "rerun": f"make grade CASE={c.name}"} for i, c in enumerate(lab.cases)]
    want = lab.points - lab.cases[0].points
    obj = gradescope.results(lab, entries, ["make grade: lab L3"], f"score L3: {want}/12")
    problems = [f"make grade's: {p}" for p in gradescope.validate(obj)]
    first, last = obj["tests"][0], obj["tests"][-1]
    if obj["score"] != want or first["status"] != "failed" or "# seed 1: wrong" not in \
            first["output"] or "rerun: make grade" not in first["output"] or \
            last["visibility"] != heldout.VISIBILITY or obj["output"] != \
            f"make grade: lab L3\nscore L3: {want}/12":
        problems.append(f"make grade's results.json: {obj}")
    doctored = [(lambda o: o["tests"][0].pop("visibility"), "no visibility"),
                (lambda o: o["tests"][1].update(score=5), "not within 0..3"),
                (lambda o: o.update(score=o["score"] + 1), "not the tests' sum"),
                (lambda o: o["tests"][2].update(visibility="secret"), "is not one of"),
                (lambda o: o["tests"][3].update(name=o["tests"][2]["name"]), "given twice"),
                (lambda o: o["tests"][0].update(max_score=True), "not both numbers"),
                (lambda o: o["tests"][0].update(score=float("nan")), "not JSON"),
                (lambda o: o.update(tests=[]), "no tests"),
                (lambda o: o["tests"][0].update(status="ok"), "not passed or failed"),
                (lambda o: o.update(grade=1), "unknown key 'grade'")]
    for doctor, words in doctored:
        bad = copy.deepcopy(obj)
        doctor(bad)
        got = gradescope.validate(bad)
        if not any(words in p for p in got):
            problems.append(f"a results.json with {words!r} passes: {got}")
    if gradescope.beside("build/lab/L1.grade.json") != "build/lab/L1.gradescope.json":
        problems.append(f"beside(): {gradescope.beside('build/lab/L1.grade.json')}")
    sub, res = os.path.join(tmp, "submission"), os.path.join(tmp, "results", "results.json")
    os.makedirs(os.path.join(sub, "nested"))
    script = os.path.join(ROOT, "tools", "lab", "run_autograder")
    for why, args, words in (("no lab tree", [], "No lab tree in the submission"),
                             ("the wrong lab", ["--lab", "L2"], "this assignment is lab L2")):
        if why == "the wrong lab":
            with open(os.path.join(sub, "nested", ".fold-lab"), "w") as f:
                json.dump({"lab": "L1"}, f)
        p = subprocess.run([sys.executable, script, sub, res] + args, capture_output=True,
                           text=True)
        try:
            with open(res) as f:
                got = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"run_autograder, {why}: no results.json ({e}); {p.stdout}")
            continue
        if p.returncode != 2 or got["score"] != 0 or words not in got["output"] or \
                gradescope.validate(got):
            problems.append(f"run_autograder, {why}: exit {p.returncode}, {got}, "
                            f"{gradescope.validate(got)}")
    return problems


def test_kept_boot(tmp) -> list[str]:
    """make grade's kept every-suite boot: a failed one read back as failed
    under the same key; one byte of a source, the kernel or a user program
    changed (its size and time kept), or the command line, boots again;
    a boot the host ended (too slow, a signal) is not kept."""
    for rel in ("kernel/preempt.h", "build/fold.elf", "build/user/hello.elf"):
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        with open(os.path.join(tmp, rel), "w") as f:
            f.write("k" + rel)
    case = labmod.Case("every_kernel_suite_passes", 2, regression=("all",))
    run = grading.Run(tmp, "test=all", build_ok=True, name="grade-all", boot=qemu.Boot(3), lines=[
        "KTAP version 1", "1..1", "    # Subtest: sched", "    not ok 1 rr", "not ok 1 sched"])
    grading.keep_boot(run, grading.boot_key(run))

    def kept(cmdline="test=all") -> grading.Run | None:
        r = grading.Run(tmp, cmdline, build_ok=True, name="grade-all")
        return r if grading.kept_boot(r, grading.boot_key(r)) else None
    problems = [] if (r := kept()) and grading.score_regression(case, r).status == "fail" \
        else ["a failed boot of the same tree was not read back as failed"]
    problems += ["another command line read the kept boot"] if kept("test=sched") else []
    for rel in ("kernel/preempt.h", "build/fold.elf", "build/user/hello.elf"):
        path, st = os.path.join(tmp, rel), os.stat(os.path.join(tmp, rel))
        for flip in (b"K", b"k"):       # one byte changed, then back
            with open(path, "r+b") as f:
                f.write(flip)
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
            if (kept() is None) != (flip == b"K"):
                problems.append(f"{rel}, one byte {'changed' if flip == b'K' else 'back'}: "
                                f"the kept boot {'read' if flip == b'K' else 'not read'}")
    for boot in (qemu.Boot(0, timed_out=True), qemu.Boot(0, qemu_output="terminating on signal 2")):
        run.boot, run.cmdline = boot, "test=rt"
        grading.keep_boot(run, grading.boot_key(run))
        problems += [f"a boot the host ended was kept: {boot}"] if kept("test=rt") else []
    return problems


TESTS = [("lab-holes", test_holes), ("lab-skeleton", test_skeleton), ("lab-leaks", test_leaks),
         ("lab-docs", test_docs), ("lab-rubric", test_rubric), ("lab-log", test_log),
         ("lab-tree", test_tree), ("lab-heldout", test_heldout),
         ("lab-gradescope", test_gradescope), ("lab-kept-boot", test_kept_boot)] + \
    lab_checks_selftest.TESTS + lab_mutate_selftest.TESTS


if __name__ == "__main__":
    sys.exit(run_tests(TESTS, sys.argv[1:], "fold-lab-selftest-"))
