"""The labs (docs/10-labs.md): their table, the reference's LAB markers,
and the skeletons `make lab` writes.

The table is tests/labs/rubric: one `lab` line per lab (its suite, its
title, its section of docs/10-labs.md) and one `case` line per graded
case with its points; a case marked `host` is checked on the host
(tools/lab/checks.py), the others are KTAP cases of the lab's suite
(tests/labs/lab_l*.c), or of the suite its `suite=` names (a teacher's
held-out cases, tools/lab/heldout.py). A case with `regression=SUITES`
is the kernel's own suites (comma-separated; `all` for every one): it
passes when every case of them does, in the grade's boot. `visibility=` is the case's in an
autograder's result (tools/lab/gradescope.py; default visible).

A hole is a region of kernel source between two comments:

    /* LAB(L3) BEGIN: the hint, which may run over
     * several comment lines. */
    ... the reference's code ...
    /* LAB(L3) END: what the stub does after lab_hole(), if anything; */

In the skeleton of lab L3 each of its holes becomes the hint (as a TODO
comment), a call of lab_hole(3, "function", "hint") (kernel/lab.h) and
the END comment's text; `#include "kernel/lab.h"` is added to the file.
Every other lab's holes keep the reference's code.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field

RUBRIC = "tests/labs/rubric"
DOC = "docs/10-labs.md"
LAB_INCLUDE = '#include "kernel/lab.h"'
LAB_NAME_RE = re.compile(r"^L[1-9][0-9]?$")
BEGIN_RE = re.compile(r"^(?P<indent>[ \t]*)/\* LAB\((?P<lab>[^)]*)\) BEGIN(?P<rest>.*)$")
END_RE = re.compile(r"^[ \t]*/\* LAB\((?P<lab>[^)]*)\) END(?::[ \t]*(?P<stub>.*?))?[ \t]*\*/[ \t]*$")
MARK_RE = re.compile(r"/\*[ \t]*LAB\(")
# A function definition's first line: at column 0, a name and "(", no ";".
FUNC_RE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)[ \t]*\(")
NOT_FUNCS = {"if", "for", "while", "switch", "return", "sizeof", "defined"}
SOURCE_SUFFIXES = (".c", ".h")
# Folders that hold no kernel source with holes (the markers' own docs).
NOT_SOURCE = ("tests/", "tools/", "docs/", "build/", "scripts/")


class LabError(Exception):
    pass


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

# Gradescope's visibility of a test (its autograder specification).
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


@dataclass
class Case:
    name: str
    points: int
    host: bool = False          # checked on the host, not a KTAP case
    suite: str = ""             # its KTAP suite: the lab's, or a held-out one's
    visibility: str = "visible"
    held_out: bool = False      # from make grade's GRADE_EXTRA folder
    regression: tuple[str, ...] = ()  # the kernel's suites it runs, if any


@dataclass
class Lab:
    name: str                   # L1
    suite: str                  # lab_l1
    title: str
    section: str                # the anchor in docs/10-labs.md
    cases: list[Case] = field(default_factory=list)

    @property
    def number(self) -> int:
        return int(self.name[1:])

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cases)


def parse_rubric(text: str, where: str = RUBRIC) -> dict[str, Lab]:
    labs: dict[str, Lab] = {}
    for no, line in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise LabError(f"{where}:{no}: {e}") from None
        if not words:
            continue
        kind, args = words[0], words[1:]
        if kind == "lab":
            keys = dict(a.partition("=")[::2] for a in args[1:])
            if not args or not LAB_NAME_RE.match(args[0]) or \
                    set(keys) != {"suite", "title", "section"}:
                raise LabError(f"{where}:{no}: expected: lab LN suite=NAME title=TEXT "
                               "section=ANCHOR")
            if args[0] in labs:
                raise LabError(f"{where}:{no}: lab {args[0]} given twice")
            labs[args[0]] = Lab(args[0], keys["suite"], keys["title"], keys["section"])
        elif kind == "case":
            case = parse_case(args, labs, f"{where}:{no}")
            labs[args[0]].cases.append(case)
        else:
            raise LabError(f"{where}:{no}: a line is 'lab ...' or 'case ...', not {kind!r}")
    for lab in labs.values():
        if not lab.cases:
            raise LabError(f"{where}: lab {lab.name} has no cases")
    return labs


CASE_USAGE = ("case LN NAME POINTS [host] [suite=SUITE] [regression=SUITE,...] "
              "[visibility=VISIBILITY]")
SUITE_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def parse_case(args: list[str], labs: dict[str, Lab], where: str) -> Case:
    """A `case` line's words after `case`, for a lab of labs."""
    if len(args) < 3 or not args[2].isdigit():
        raise LabError(f"{where}: expected: {CASE_USAGE}")
    if args[0] not in labs:
        raise LabError(f"{where}: {args[0]} is no lab here: a case line comes after its "
                       f"lab's line (expected: {CASE_USAGE})")
    lab = labs[args[0]]
    case = Case(args[1], int(args[2]), suite=lab.suite)
    for word in args[3:]:
        key, eq, value = word.partition("=")
        if word == "host":
            case.host = True
        elif eq and key == "suite" and value:
            case.suite = value
        elif eq and key == "regression" and all(SUITE_RE.match(v) for v in value.split(",")):
            case.regression = tuple(value.split(","))
            case.suite = ""
        elif eq and key == "visibility" and value in VISIBILITIES:
            case.visibility = value
        else:
            raise LabError(f"{where}: {word!r}: expected: {CASE_USAGE}, VISIBILITY one of "
                           + ", ".join(VISIBILITIES))
    if case.regression and case.host:
        raise LabError(f"{where}: a regression case runs the kernel's suites: not host")
    if any(c.name == case.name for c in lab.cases):
        raise LabError(f"{where}: case {case.name} given twice")
    return case


def load_rubric(root: str) -> dict[str, Lab]:
    path = os.path.join(root, RUBRIC)
    with open(path) as f:
        return parse_rubric(f.read(), os.path.relpath(path, root))


def unknown_lab(name: str, labs: dict[str, Lab]) -> str:
    listed = "; ".join(f"{l.name} ({l.title})" for l in labs.values())
    return f"LAB={name or '(empty)'} is not a lab: the labs are {listed}"


# ---------------------------------------------------------------------------
# Holes
# ---------------------------------------------------------------------------

@dataclass
class Hole:
    lab: str
    path: str
    begin: int                  # index of the BEGIN comment's first line
    body: int                   # index of the first line after that comment
    end: int                    # index of the END line
    indent: str
    comment: list[str]          # the BEGIN comment's lines
    stub: str                   # the END comment's text: the stub's tail
    func: str

    @property
    def hint(self) -> str:
        text = " ".join(l.strip().lstrip("/*").strip() for l in self.comment)
        text = re.sub(r"\*/$", "", text).strip()
        text = re.sub(r"^LAB\([^)]*\) BEGIN:?\s*", "", text)
        return re.sub(r"\s+", " ", text).strip()

    def removed(self, lines: list[str]) -> list[str]:
        return lines[self.body:self.end]


def enclosing_function(lines: list[str], index: int) -> str:
    for line in reversed(lines[:index]):
        m = FUNC_RE.match(line)
        if m and m.group(1) not in NOT_FUNCS and not line.rstrip().endswith(";") \
                and not line.startswith("#"):
            return m.group(1)
    return "?"


def find_holes(text: str, path: str) -> list[Hole]:
    """Every hole of a file, checked: BEGIN and END paired, not nested, a
    lab's name on both, a comment that closes."""
    lines = text.splitlines()
    holes: list[Hole] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = BEGIN_RE.match(line)
        if not m:
            if MARK_RE.search(line):
                raise LabError(f"{path}:{i + 1}: a LAB END (or a malformed marker) "
                               "with no LAB BEGIN before it")
            i += 1
            continue
        lab = m.group("lab")
        if not LAB_NAME_RE.match(lab):
            raise LabError(f"{path}:{i + 1}: LAB({lab}): a lab is named L1, L2, ...")
        j = i
        while "*/" not in lines[j]:
            j += 1
            if j == len(lines):
                raise LabError(f"{path}:{i + 1}: the LAB({lab}) BEGIN comment never closes")
        k = j + 1
        while k < len(lines) and not END_RE.match(lines[k]):
            if MARK_RE.search(lines[k]):
                raise LabError(f"{path}:{k + 1}: a LAB marker inside the LAB({lab}) hole "
                               f"that begins at line {i + 1}: holes do not nest")
            k += 1
        if k == len(lines):
            raise LabError(f"{path}:{i + 1}: LAB({lab}) BEGIN has no LAB({lab}) END")
        e = END_RE.match(lines[k])
        if e.group("lab") != lab:
            raise LabError(f"{path}:{k + 1}: LAB({e.group('lab')}) END closes the "
                           f"LAB({lab}) hole that begins at line {i + 1}")
        holes.append(Hole(lab, path, i, j + 1, k, m.group("indent"), lines[i:j + 1],
                          (e.group("stub") or "").strip(), enclosing_function(lines, i)))
        i = k + 1
    return holes


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def short_hint(hint: str, limit: int = 160) -> str:
    if len(hint) <= limit:
        return hint
    cut = hint.rfind(". ", 0, limit)
    return hint[:cut + 1] if cut > 40 else hint[:limit - 3] + "..."


def stub_lines(hole: Hole) -> list[str]:
    ind = hole.indent
    comment = [l.replace(f"LAB({hole.lab}) BEGIN", f"LAB({hole.lab}) TODO", 1)
               for l in hole.comment]
    comment[-1] = re.sub(r"\s*\*/\s*$", "", comment[-1])
    out = comment + [
        f"{ind} * make lab left this stub: write the code here, then delete the",
        f"{ind} * lab_hole() line ({DOC}, {hole.lab}). */",
        f"{ind}lab_hole({hole.lab[1:]}, {c_string(hole.func)}, "
        f"{c_string(short_hint(hole.hint))});",
    ]
    if hole.stub:
        out.append(f"{ind}{hole.stub} /* the stub's own: not the answer */")
    return out


def skeleton_lines(text: str, path: str, lab: str) -> tuple[list[str], list[Hole], list[list[int]]]:
    """The file's lines with lab's holes stubbed (and kernel/lab.h
    included), those holes, and where each line of the reference went:
    [its index in the skeleton], or for a line of a hole every index of
    the hole's stub."""
    lines = text.splitlines()
    holes = [h for h in find_holes(text, path) if h.lab == lab]
    where: list[list[int]] = []
    out: list[str] = []
    prev = 0
    for h in holes:
        where += [[len(out) + k] for k in range(h.begin - prev)]
        out += lines[prev:h.begin]
        stub = stub_lines(h)
        where += [list(range(len(out), len(out) + len(stub)))] * (h.end + 1 - h.begin)
        out += stub
        prev = h.end + 1
    where += [[len(out) + k] for k in range(len(lines) - prev)]
    out += lines[prev:]
    if holes and LAB_INCLUDE not in out:
        first = next(i for i, l in enumerate(out) if "LAB(" in l and "TODO" in l)
        incl = [i for i, l in enumerate(out[:first]) if l.startswith("#include ")]
        if not incl:
            raise LabError(f"{path}: no #include line before its first hole, so "
                           f"nowhere to add {LAB_INCLUDE}")
        at = incl[-1] + 1
        out.insert(at, f"{LAB_INCLUDE} /* make lab: lab_hole() */")
        where = [[k + (k >= at) for k in w] for w in where]
    return out, holes, where


def skeleton_text(text: str, path: str, lab: str) -> tuple[str, list[Hole]]:
    """The file with lab's holes stubbed (and kernel/lab.h included), and
    those holes; the text unchanged if it has none."""
    out, holes, _ = skeleton_lines(text, path, lab)
    if not holes:
        return text, []
    return "\n".join(out) + ("\n" if text.endswith("\n") else ""), holes


def skeleton_doc(ref_root: str, doc: str, text: str,
                 skeletons: dict[str, tuple[list[str], list[list[int]]]]) -> tuple[str, list[str]]:
    """A doc of the skeleton: its code excerpts (tools/lib/excerpts.py) of
    a file with holes show the skeleton's lines, the stub where the
    reference's code was, so that the student's book neither gives the
    answer away nor disagrees with the student's source. skeletons maps
    a path to its skeleton lines and skeleton_lines()'s `where`. Returns
    the new text and the excerpts it could not place."""
    from tools.lib import excerpts
    found, errors = excerpts.parse(doc, text)
    lines = text.splitlines()
    for e in reversed(found):
        if e.file not in skeletons:
            continue
        out, where = skeletons[e.file]
        try:
            region = excerpts.resolve(ref_root, e.file, e.name)
        except excerpts.ResolveError as x:
            errors.append(f"{e.where()}: {x}")
            continue
        starts, why = excerpts.match(e, region)
        if why:
            errors.append(why)
            continue
        runs, lead, trail, _ = excerpts.segments(e.body)
        shown = sorted({k for run, at in zip(runs, starts) for n in range(len(run))
                        for k in where[region[at + n][0] - 1]})
        body = [excerpts.ELISION] if lead else []
        for n, k in enumerate(shown):
            if n and k != shown[n - 1] + 1:
                body.append(excerpts.ELISION)
            body.append(out[k])
        body += [excerpts.ELISION] if trail else []
        lines[e.caption] = f"`{e.file}:{shown[0] + 1}`, `{e.name}`:"
        lines[e.caption + 2:e.close] = body
    return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), errors


# ---------------------------------------------------------------------------
# Trees
# ---------------------------------------------------------------------------

def tree_files(root: str) -> list[str]:
    """A tree's files, relative: git's (tracked and untracked, not
    ignored) when it is a repository, else every file but build/ and .git."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
        files = [p for p in out.decode().split("\0") if p]
        if files:
            return sorted(p for p in set(files) if os.path.isfile(os.path.join(root, p)))
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not (rel == "." and x in ("build", ".git"))
                   and x != "__pycache__"]
        found += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return sorted(found)


def source_files(root: str, files: list[str] | None = None) -> list[str]:
    return [p for p in (files if files is not None else tree_files(root))
            if p.endswith(SOURCE_SUFFIXES) and not p.startswith(NOT_SOURCE)]


def all_holes(root: str, files: list[str] | None = None) -> list[Hole]:
    holes = []
    for p in source_files(root, files):
        with open(os.path.join(root, p), errors="replace") as f:
            holes += find_holes(f.read(), p)
    return holes


def doc_files(files: list[str]) -> list[str]:
    """The docs whose code excerpts quote the sources: README.md, docs/*.md."""
    return [p for p in files if p == "README.md" or
            (p.startswith("docs/") and p.endswith(".md") and p.count("/") == 1)]


def leaked_lines(ref_root: str, skel_root: str, lab: str) -> list[str]:
    """Lines removed from lab's holes that the skeleton still has, where
    the reference has them nowhere but in those holes: in its sources and
    in its docs' code excerpts."""
    files = source_files(ref_root)
    removed, elsewhere = {}, set()
    for p in files:
        with open(os.path.join(ref_root, p)) as f:
            lines = f.read().splitlines()
        mine = [h for h in find_holes("\n".join(lines), p) if h.lab == lab]
        inside = set()
        for h in mine:
            for k in range(h.body, h.end):
                inside.add(k)
                text = lines[k].strip()
                if text and not text.startswith(("/*", "*", "//")):
                    removed.setdefault(text, f"{p}:{k + 1}")
        elsewhere |= {l.strip() for k, l in enumerate(lines) if k not in inside}
    answer = {t: w for t, w in removed.items() if t not in elsewhere}
    found = []
    docs = ["README.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(skel_root, "docs"))
                                  if n.endswith(".md")) \
        if os.path.isdir(os.path.join(skel_root, "docs")) else ["README.md"]
    for p in source_files(skel_root) + [d for d in docs if os.path.exists(os.path.join(skel_root, d))]:
        with open(os.path.join(skel_root, p)) as f:
            for n, line in enumerate(f, 1):
                if line.strip() in answer:
                    found.append(f"{p}:{n} keeps `{line.strip()}` (from {answer[line.strip()]})")
    return found
