"""make lab-mutants' files (tools/lab/mutants): the equivalent mutants
listed with their reasons, the sample and how each of it must end, and
the record of the last full run of each lab, from which --scores prints
each lab's mutation score without a build."""

from __future__ import annotations

import ast
import hashlib
import os

from tools.lib import ROOT
from tools.lib import lab as labmod
from tools.lib import mutate

EQUIVALENT = "tests/labs/equivalent-mutants"
RECORD = "tests/labs/mutation-scores"     # the last full run's outcome of each mutant
SAMPLE = "tests/labs/mutant-sample"
OUTCOMES = ("killed", "survived", "stillborn", "equivalent")


def read_listed(path: str, width: int) -> list[tuple[str, list[str], int]]:
    """(id, the rest of its words, line number) of each line of a list."""
    out = []
    with open(os.path.join(ROOT, path)) as f:
        for no, line in enumerate(f, 1):
            words = line.split(None, width)
            if not words or words[0].startswith("#"):
                continue
            if len(words) < 2:
                raise labmod.LabError(f"{path}:{no}: expected: ID " +
                                      ("REASON" if width == 1 else "OUTCOME"))
            out.append((words[0], [w.strip() for w in words[1:]], no))
    return out


CASES = "@cases"     # a record line's id for the hash of what graded the run


def cases_hash(lab: labmod.Lab) -> str:
    """What the outcomes depend on besides the mutants: the lab's suite,
    its own lines of the rubric and, for its host cases, the code of
    tools/lab/checks.py they reach and tools/lab/disasm.py. A record made
    with others is stale; another lab's cases, added or changed, leave it
    as it was."""
    h = hashlib.sha1()
    suite = os.path.join("tests", "labs", lab.suite + ".c")
    with open(os.path.join(ROOT, suite), "rb") as f:
        h.update(suite.encode() + b"\0" + f.read())
    with open(os.path.join(ROOT, labmod.RUBRIC)) as f:
        own = [" ".join(line.split()) for line in f
               if line.split()[:2] in (["lab", lab.name], ["case", lab.name])]
    h.update("\n".join(own).encode() + b"\0")
    hosts = [c.name for c in lab.cases if c.host]
    if hosts:
        h.update(checks_source(hosts).encode() + b"\0")
        with open(os.path.join(ROOT, "tools/lab/disasm.py"), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


def checks_source(cases: list[str]) -> str:
    """The top-level definitions of tools/lab/checks.py that the checks
    of these host cases reach (CHECKS names each case's function), each
    once, in the file's order."""
    path = os.path.join(ROOT, "tools/lab/checks.py")
    with open(path) as f:
        text = f.read()
    tree = ast.parse(text)
    defs: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defs[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    defs[t.id] = node
    table = defs.get("CHECKS")
    todo = []
    if table is not None and isinstance(table.value, ast.Dict):
        for k, v in zip(table.value.keys, table.value.values):
            if isinstance(k, ast.Constant) and k.value in cases and isinstance(v, ast.Name):
                todo.append(v.id)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        todo += [n.id for n in ast.walk(defs[name]) if isinstance(n, ast.Name)]
    nodes = sorted({id(defs[n]): defs[n] for n in seen}.values(), key=lambda n: n.lineno)
    return "\n".join(ast.get_source_segment(text, n) or "" for n in nodes)


def read_record() -> dict[str, dict[str, str]]:
    """lab -> {id: outcome} of the last full run of each lab, and
    CASES: cases_hash() then."""
    out: dict[str, dict[str, str]] = {}
    path = os.path.join(ROOT, RECORD)
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for no, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) != 3 or (words[2] not in OUTCOMES and words[1] != CASES):
                raise labmod.LabError(f"{RECORD}:{no}: expected: LAB ID OUTCOME")
            out.setdefault(words[0], {})[words[1]] = words[2]
    return out


def write_record(record: dict[str, dict[str, str]]) -> None:
    lines = ["# The outcome of each mutant in the last full run of its lab: written",
             "# by make lab-mutants (tools/lab/mutants), read by its --scores.",
             "# LAB ID OUTCOME (equivalent: a survivor listed in",
             f"# {EQUIVALENT}); LAB {CASES} HASH: the hash of the lab's",
             "# suite, its rubric lines and the host checks that graded them."]
    for lab in sorted(record):
        lines += [f"{lab} {i} {o}" for i, o in sorted(record[lab].items())]
    with open(os.path.join(ROOT, RECORD), "w") as f:
        f.write("\n".join(lines) + "\n")


def scores(labs: dict[str, labmod.Lab], equivalent: dict[str, str]) -> int:
    record = read_record()
    status = 0
    for name, lab in labs.items():
        ids = {m.id for m in mutate.lab_mutants(ROOT, name)[0]}
        got = dict(record.get(name, {}))
        made_with = got.pop(CASES, None)
        if not got:
            print(f"mutation score {name}: not measured: make lab-mutants LAB={name}")
            status = 1
            continue
        if set(got) != ids or made_with != cases_hash(lab):
            why = f"{len(ids - set(got))} new mutants, {len(set(got) - ids)} gone" \
                if set(got) != ids else "its cases changed since"
            print(f"mutation score {name}: stale ({why}): make lab-mutants LAB={name}")
            status = 1
            continue
        res: dict[str, list] = {k: [] for k in OUTCOMES}
        for i, o in got.items():
            if o in ("survived", "equivalent"):
                o = "equivalent" if i in equivalent else "survived"
            res[o].append((i, ""))
        print(summary(lab, res, len(ids)))
    return status


def summary(lab: labmod.Lab, res: dict[str, list], n: int) -> str:
    k, s, e, v = (len(res[x]) for x in ("killed", "stillborn", "equivalent", "survived"))
    live = n - s - e
    pct = f"{100 * k / live:.0f}%" if live else "n/a"
    return (f"mutation score {lab.name}: {k}/{live} = {pct} (mutants {n}, stillborn {s}, "
            f"killed {k}, survived {v}, equivalent {e})")
