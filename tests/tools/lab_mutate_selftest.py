"""The mutation operators of make lab-mutants (tools/lib/mutate.py) on a
canned region, no build: each operator makes the mutant it should, a
mutant's id survives an unrelated edit above it, and a region that does
not parse says so. Run by tests/tools/lab_selftest.py (make lab-check).
"""

from __future__ import annotations

import os

from tools.lib import lab as labmod
from tools.lib import mutate

HEADER = """#define _TIF_NEED_RESCHED (1UL << 0)
#define _TIF_POLLING_NRFLAG (1UL << 1)
#define _TIF_NEED_RESCHED_LAZY (1UL << 2)
"""

SOURCE = """#include "flags.h"

static bool request(struct thread *curr, u32 cpu)
{
	/* LAB(L3) BEGIN: the hint. */
	u64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, __ATOMIC_SEQ_CST);
	if (old & _TIF_NEED_RESCHED)
		return false;
	remote(cpu);
	if (!busy(cpu) && (cpu > 1 || old))
		this_cpu_stat_inc(sent);
	__asm__ __volatile__("orl $1, %%gs:8" ::: "memory");
	return true;
	/* LAB(L3) END: return false; */
}
"""

# (operator, a line of the region before, the same line after)
EXPECTED = [
    ("delete", "remote(cpu);", None),
    ("drop-inc", "this_cpu_stat_inc(sent);", "{ }"),
    ("negate", "if (old & _TIF_NEED_RESCHED)", "if (!(old & _TIF_NEED_RESCHED))"),
    ("negate", "if (!busy(cpu) && (cpu > 1 || old))", "if (busy(cpu) && (cpu > 1 || old))"),
    ("drop-operand", "if (!busy(cpu) && (cpu > 1 || old))", "if ((cpu > 1 || old))"),
    ("swap-andor", "if (!busy(cpu) && (cpu > 1 || old))", "if (!busy(cpu) || (cpu > 1 || old))"),
    ("plain-atomic", "u64 old = __atomic_fetch_or(&curr->flags, _TIF_NEED_RESCHED, "
     "__ATOMIC_SEQ_CST);", "u64 old = ({ __typeof__(*(&curr->flags)) __mut_old = "
     "*(&curr->flags); *(&curr->flags) = __mut_old | (_TIF_NEED_RESCHED); __mut_old; });"),
    ("lock", '__asm__ __volatile__("orl $1, %%gs:8" ::: "memory");',
     '__asm__ __volatile__("lock orl $1, %%gs:8" ::: "memory");'),
    ("flag-swap", "if (old & _TIF_NEED_RESCHED)", "if (old & _TIF_NEED_RESCHED_LAZY)"),
    ("flag-swap", "if (old & _TIF_NEED_RESCHED)", "if (old & _TIF_POLLING_NRFLAG)"),
    ("flip-return", "return true;", "return false;"),
    ("flip-return", "return false;", "return true;"),
    ("move", "remote(cpu);", "if (old & _TIF_NEED_RESCHED)"),
]


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
