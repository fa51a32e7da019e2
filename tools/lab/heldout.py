"""A course's held-out cases (make grade GRADE_EXTRA=dir; docs/10-labs.md,
"Held-out cases"): cases a course keeps outside the tree, so that its
students never see them, graded beside the lab's own.

The folder holds what tests/labs/ holds, in the same format:

    rubric      `case` lines as tests/labs/rubric's, each naming the suite
                it runs in:  case L3 NAME POINTS suite=lab_l3_WORD
                [visibility=...] (no `lab` lines: the labs are the tree's;
                no `host` cases: those are tools/lab/checks.py's)
    *.c         the suites, as tests/labs/lab_l*.c: LAB_SUITE(lab_l3_WORD,
                KTEST_CASE_TIMED(NAME, ms), ...), static case functions;
                a suite of lab Ln is named lab_lN_WORD (the kernel's lab
                runner, tests/labs/lab_run.c, takes its lab from the name)
    *.h         anything the .c files include

Every file is copied into the grading tree's tests/labs/ (never into the
student's tree), where the build compiles every .c. Every case of a
suite must have its rubric line and every rubric line its case: a case
nobody scores, or a score with no case, is the folder's mistake, said
before anything is built.
"""

from __future__ import annotations

import copy
import os
import re
import shlex
from dataclasses import dataclass, field

from tools.lib import lab as labmod

SUITE_RE = re.compile(r"\bLAB_SUITE\(\s*(\w+)\s*,(.*?)\)\s*;", re.S)
CASE_RE = re.compile(r"\bKTEST_CASE(?:_TIMED)?\(\s*(\w+)")
DEST = "tests/labs"
# What a held-out case is shown as by default in an autograder's result:
# once the grades are published.
VISIBILITY = "after_published"


@dataclass
class HeldOut:
    folder: str
    files: dict[str, str] = field(default_factory=dict)   # grading tree path -> source
    cases: dict[str, list[labmod.Case]] = field(default_factory=dict)   # by lab


def suites_in(folder: str, names: list[str]) -> dict[str, tuple[str, list[str]]]:
    """suite -> (file, its cases) for every LAB_SUITE() of the .c files."""
    found: dict[str, tuple[str, list[str]]] = {}
    for n in names:
        if not n.endswith(".c"):
            continue
        with open(os.path.join(folder, n), errors="replace") as f:
            text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", f.read(), flags=re.S)
        for m in SUITE_RE.finditer(text):
            if m.group(1) in found:
                raise labmod.LabError(f"{n}: suite {m.group(1)} is defined in "
                                      f"{found[m.group(1)][0]} too")
            found[m.group(1)] = (n, CASE_RE.findall(m.group(2)))
    return found


def load(folder: str, labs: dict[str, labmod.Lab], ref_root: str) -> HeldOut:
    """The folder, checked against the tree's labs; LabError says what is
    wrong, naming the file and line."""
    if not os.path.exists(folder):
        raise labmod.LabError(f"{folder}: no such folder")
    if not os.path.isdir(folder):
        raise labmod.LabError(f"{folder}: not a folder (GRADE_EXTRA names a folder holding "
                              "a rubric and the .c files of its suites)")
    rubric = os.path.join(folder, "rubric")
    if not os.path.isfile(rubric):
        raise labmod.LabError(f"{folder}: no rubric (a file named rubric, with a line "
                              f"'{labmod.CASE_USAGE}' per held-out case)")
    names = sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n))
                   and n.endswith((".c", ".h")))
    held = HeldOut(folder)
    taken = set(os.listdir(os.path.join(ref_root, DEST)))
    for n in names:
        if n in taken:
            raise labmod.LabError(f"{os.path.join(folder, n)}: {DEST}/{n} is the tree's "
                                  "own: give the held-out file another name")
        held.files[f"{DEST}/{n}"] = os.path.abspath(os.path.join(folder, n))
    try:
        suites = suites_in(folder, names)
    except labmod.LabError as e:
        raise labmod.LabError(f"{folder}/{e}") from None
    own = {s.suite for s in labs.values()}
    scratch = copy.deepcopy(labs)
    with open(rubric) as f:
        lines = f.read().splitlines()
    for no, line in enumerate(lines, 1):
        where = f"{rubric}:{no}"
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise labmod.LabError(f"{where}: {e}") from None
        if not words:
            continue
        if words[0] == "lab":
            raise labmod.LabError(f"{where}: a held-out rubric has case lines only: the labs "
                                  f"are the tree's ({labmod.RUBRIC})")
        if words[0] != "case":
            raise labmod.LabError(f"{where}: a line is '{labmod.CASE_USAGE}', not {words[0]!r}")
        args = words[1:]
        if len(args) >= 2 and args[0] in labs and \
                any(c.name == args[1] for c in labs[args[0]].cases):
            raise labmod.LabError(f"{where}: {args[1]} is one of lab {args[0]}'s own cases: "
                                  "give the held-out case another name")
        case = labmod.parse_case(args, scratch, where)
        lab = labs[args[0]]
        case.held_out = True
        if not any(w.startswith("visibility=") for w in args):
            case.visibility = VISIBILITY
        if case.host:
            raise labmod.LabError(f"{where}: case {case.name} is marked host: a held-out case "
                                  "is a KTAP case (the host checks are tools/lab/checks.py's)")
        if not any(w.startswith("suite=") for w in args):
            raise labmod.LabError(
                f"{where}: case {lab.name} {case.name} names no suite: a held-out case runs "
                f"in a suite of its own, LAB_SUITE({lab.suite}_WORD, ...) in a .c file of "
                f"{folder}; name it with suite={lab.suite}_WORD")
        if case.suite in own or not re.fullmatch(re.escape(lab.suite) + r"_\w+", case.suite):
            raise labmod.LabError(f"{where}: suite={case.suite}: a held-out suite of lab "
                                  f"{lab.name} is named {lab.suite}_WORD (the kernel's lab "
                                  "runner takes the lab from the name), and not the lab's own")
        if case.suite not in suites:
            raise labmod.LabError(f"{where}: suite {case.suite} (of case {case.name}) is "
                                  f"defined by no .c file in {folder}: expected "
                                  f"LAB_SUITE({case.suite}, KTEST_CASE_TIMED({case.name}, "
                                  "ms), ...)")
        file, in_suite = suites[case.suite]
        if case.name not in in_suite:
            raise labmod.LabError(f"{where}: case {case.name} is not a case of suite "
                                  f"{case.suite} ({folder}/{file} has "
                                  + (", ".join(in_suite) or "none") + ")")
        scratch[lab.name].cases.append(case)
        held.cases.setdefault(lab.name, []).append(case)
    scored = {(c.suite, c.name) for cs in held.cases.values() for c in cs}
    if not scored:
        raise labmod.LabError(f"{rubric}: no case lines")
    for suite, (file, in_suite) in suites.items():
        for name in in_suite:
            if (suite, name) not in scored:
                raise labmod.LabError(f"{folder}/{file}: case {name} of suite {suite} has no "
                                      f"line in {rubric}: every held-out case is scored")
    return held


def merged(labs: dict[str, labmod.Lab], held: HeldOut | None) -> dict[str, labmod.Lab]:
    """The labs with their held-out cases after their own."""
    if held is None:
        return labs
    out = copy.deepcopy(labs)
    for name, cases in held.cases.items():
        out[name].cases += cases
    return out


def suites_of(lab: labmod.Lab) -> list[str]:
    """The KTAP suites a grade of lab runs: its own, its held-out ones, then
    the kernel's suites its regression case names."""
    return list(dict.fromkeys([lab.suite] + [c.suite for c in lab.cases
                                             if not c.host and not c.regression]
                              + [s for c in lab.cases for s in c.regression]))
