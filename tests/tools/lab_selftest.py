"""Checks of the lab tools (tools/lib/lab.py, tools/lib/labgrade.py,
tools/lab/checks.py) on canned input, with no build and no QEMU: run by
make lab-check first; also `python3 tests/tools/lab_selftest.py [NAME...]`.

Each check returns a list of problems (empty: passed).
"""

from __future__ import annotations

import os
import sys
import tempfile

if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

from tools.lab import checks  # noqa: E402
from tools.lib import ROOT  # noqa: E402
from tools.lib import lab as labmod  # noqa: E402
from tools.lib import labgrade  # noqa: E402

SOURCE = """#include "lib/types.h"
#include "kernel/preempt.h"

static bool fold(void)
{
	/* LAB(L1) BEGIN: copy the flag into the count,
	 * one instruction. */
	if (!tif_need_resched())
		return false;
	set_preempt_need_resched();
	return true;
	/* LAB(L1) END: return false; */
}

void other(int cpu)
{
	/* LAB(L2) BEGIN: the other lab's */
	send(cpu);
	/* LAB(L2) END: (void)cpu; */
}
"""


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
    if not labs or any(l.points != 10 for l in labs.values()):
        problems.append(f"tests/labs/rubric: {[(l.name, l.points) for l in labs.values()]}")
    holes = {h.lab for h in labmod.all_holes(ROOT)}
    if holes != set(labs):
        problems.append(f"labs with holes {sorted(holes)}, in the rubric {sorted(labs)}")
    for case in (c for l in labs.values() for c in l.cases if c.host):
        if case.name not in checks.CHECKS:
            problems.append(f"host case {case.name} has no check in tools/lab/checks.py")
    for bad, words in (("lab L1 suite=a\n", "expected: lab"), ("case L1 a 1\n", "after its lab"),
                       ("lab L1 suite=a title=b section=c\n", "has no cases"),
                       ("bogus\n", "not 'bogus'")):
        try:
            labmod.parse_rubric(bad)
            problems.append(f"no error for {bad!r}")
        except labmod.LabError as e:
            if words not in str(e):
                problems.append(f"{bad!r}: {e}")
    if "L1 (" not in labmod.unknown_lab("L9", labs):
        problems.append("unknown_lab() lists no lab")
    return problems


FOLD_OK = """ffffffff80112000 <scheduler_ipi>:
ffffffff80112000:	addq   $0x1,%gs:0x90
ffffffff80112008:	mov    %gs:0x10,%rax
ffffffff80112014:	je     ffffffff80112030 <scheduler_ipi+0x30>
ffffffff80112016:	{fold}
ffffffff80112020:	ret
ffffffff80112040 <resched_curr>:
ffffffff80112040:	lock orq $0x1,(%rdx)
ffffffff80112045:	{sender}
ffffffff80112050:	ret
"""

EXIT = """ffffffff80108160 <irq_dispatch>:
ffffffff801081f8:	testb  $0x2,0x99(%rbx)
ffffffff801081ff:	je     ffffffff801081c3 <irq_dispatch+0x63>
ffffffff80108201:	{test}
ffffffff8010820a:	{jcc}    ffffffff801081c3 <irq_dispatch+0x63>
ffffffff8010820c:	pop    %rbx
ffffffff8010820d:	jmp    ffffffff80112160 <irqentry_exit_cond_resched>
"""


def fold_problems(fold: str, sender: str = "andl   $0x7fffffff,%gs:0x8") -> list[str]:
    return checks.check_fold(checks.parse_objdump(FOLD_OK.format(fold=fold, sender=sender)))


def test_checks(tmp) -> list[str]:
    problems = []
    for fold in ("andl   $0x7fffffff,%gs:0x8", "btrl   $0x1f,%gs:0x8", "andb   $0x7f,%gs:0xb"):
        if fold_problems(fold):
            problems.append(f"a right fold fails: {fold}: {fold_problems(fold)}")
    for fold, words in (("lock andl $0x7fffffff,%gs:0x8", "locked fold"),
                        ("mov    %eax,%gs:0x8", "a load, a change and a store"),
                        ("orl    $0x80000000,%gs:0x8", "does not clear bit 31"),
                        ("andl   $0x7ffffffe,%gs:0x8", "does not clear bit 31"),
                        ("nop", "never writes the count")):
        got = fold_problems(fold)
        if not any(words in p for p in got):
            problems.append(f"{fold}: {got}, expected {words!r}")
    got = fold_problems("andl   $0x7fffffff,%gs:0x8", "lock andl $0x7fffffff,0x8(%rax)")
    if not any("requesting CPU" in p for p in got):
        problems.append(f"a fold from the sender passes: {got}")
    ok = EXIT.format(test="cmpl   $0x0,%gs:0x8", jcc="jne")
    if checks.check_exit(checks.parse_objdump(ok)):
        problems.append(f"the one compare fails: {checks.check_exit(checks.parse_objdump(ok))}")
    for test, jcc, words in (("test   %eax,%eax", "jne", "not one compare"),
                             ("cmpl   $0x80000000,%gs:0x8", "jne", "whether the whole count"),
                             ("cmpl   $0x0,%gs:0x8", "je", "when the count is not 0")):
        got = checks.check_exit(checks.parse_objdump(EXIT.format(test=test, jcc=jcc)))
        if not any(words in p for p in got):
            problems.append(f"{test}; {jcc}: {got}, expected {words!r}")
    none = EXIT.replace("irqentry_exit_cond_resched", "something_else").format(
        test="cmpl   $0x0,%gs:0x8", jcc="jne")
    if not any("never calls" in p for p in checks.check_exit(checks.parse_objdump(none))):
        problems.append("an exit that never preempts passes")
    return problems


LOG = """[    1.0] 0: boot
KTAP version 1
1..1
    KTAP version 1
    # Subtest: lab_l9
    1..4
    ok 1 one
    # two: seed 7 round 0: wrong
    # two: lab L9: f() is still the stub that make lab left (it ran 2 times in this case): h
    not ok 2 two
    ok 3 three # SKIP lab_case=two
    not ok 4 four # timeout after 50 virtual ms
not ok 1 lab_l9
"""


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
    a = labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"])
    if a != labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"]) or len(a) != labgrade.PICKED_SEEDS:
        problems.append("pick_seeds() is not the same for the same tree")
    with open(os.path.join(stu, "kernel", "preempt.h"), "w") as f:
        f.write("changed")
    if labgrade.pick_seeds("L1", stu, ["kernel/preempt.h"]) == a:
        problems.append("pick_seeds() did not change with the sources")
    return problems


TESTS = [("lab-holes", test_holes), ("lab-skeleton", test_skeleton), ("lab-leaks", test_leaks),
         ("lab-docs", test_docs),
         ("lab-rubric", test_rubric), ("lab-checks", test_checks), ("lab-log", test_log),
         ("lab-tree", test_tree)]


def main(names: list[str]) -> int:
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="fold-lab-selftest-") as tmp:
        for name, fn in TESTS:
            if names and not any(n in name for n in names):
                continue
            sub = os.path.join(tmp, name)
            os.makedirs(sub)
            problems = fn(sub)
            print(f"{'ok' if not problems else 'FAILED'}: {name}")
            for p in problems:
                print(f"    - {p}")
            passed += not problems
            failed += bool(problems)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
