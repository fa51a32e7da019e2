"""The mutation operators of make lab-mutants (tools/lib/mutate.py) on a
canned region, no build: each operator makes the mutant it should, a
mutant's id survives an unrelated edit above it, and a region that does
not parse says so. Run by tests/tools/lab_selftest.py (make lab-check).
"""

from __future__ import annotations

import os

from tests.tools import canned
from tools.lib import lab as labmod
from tools.lib import mutate

HEADER = canned("flags.h")

SOURCE = canned("mutate.c")

EXPECTED = [(op, before, None if after == "(deleted)" else after) for op, before, after in
            (line.split("\t") for line in canned("mutants").splitlines())]


def mutants_of(tmp: str, source: str) -> list[mutate.Mutant]:
    os.makedirs(os.path.join(tmp, "kernel"), exist_ok=True)
    with open(os.path.join(tmp, "kernel", "flags.h"), "w") as f:
        f.write(HEADER)
    with open(os.path.join(tmp, "kernel", "req.c"), "w") as f:
        f.write(source)
    return mutate.lab_mutants(tmp, "L3")[0]


def test_operators(tmp) -> list[str]:
    problems = []
    ms = mutants_of(tmp, SOURCE)
    for op, before, after in EXPECTED:
        hit = [m for m in ms if m.op == op and before in m.before and
               (after is None and after not in m.after.split("\n")
                if after is None else after in m.after.split("\n")[0] or
                any(l.strip() == after for l in m.after.splitlines()))]
        if not hit:
            problems.append(f"no {op} mutant of `{before}` to `{after}`: "
                            + "; ".join(f"{m.op} {m.after.strip()!r}" for m in ms))
    if any(m.op == "lock" and "lock lock" in m.apply(SOURCE) for m in ms):
        problems.append("lock added twice")
    ids = [m.id for m in ms]
    if len(set(ids)) != len(ids):
        problems.append(f"ids not unique: {ids}")
    # An unrelated edit above the region keeps every id.
    moved = mutants_of(os.path.join(tmp, "moved"), SOURCE.replace(
        '#include "flags.h"\n', '#include "flags.h"\n\nstatic int unrelated;\n'))
    if [m.id for m in moved] != ids:
        problems.append("an unrelated edit changed the mutants' ids")
    # ... and a change to a mutated line changes its id.
    changed = mutants_of(os.path.join(tmp, "changed"), SOURCE.replace("remote(cpu);",
                                                                      "remote(cpu + 0);"))
    if {m.id for m in changed if "remote" in m.before} & {m.id for m in ms}:
        problems.append("a changed line kept its mutants' ids")
    try:
        mutants_of(os.path.join(tmp, "bad"), SOURCE.replace("remote(cpu);", "remote(cpu;"))
        problems.append("an unbalanced region parsed")
    except labmod.LabError as e:
        if "does not parse" not in str(e):
            problems.append(f"an unbalanced region: {e}")
    return problems


TESTS = [("lab-mutate", test_operators)]
