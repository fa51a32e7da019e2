"""Experiment E5, code generation: the whole kernel built once per count
model, and COUNT=folded once more with preempt_enable()'s slow path as a
plain C call (PREEMPT_ENABLE_CALL=c), all with FRAME_POINTER=0
(-fomit-frame-pointer: a frame shows only where the compiler needs one),
then every function of each fold.elf read by codegen.py.
"""

from __future__ import annotations

import os
import shlex

import codegen
from entries import LWN, Entry, num, table
from tools.lib import build

# name: the make variables. PREEMPT=voluntary everywhere: COUNT=off cannot
# have full, and the default mode changes only which state each patch
# site is assembled in, not the code around it.
VARIANTS = {
    "off": ["COUNT=off"],
    "folded": ["COUNT=folded"],
    "folded-c": ["COUNT=folded", "PREEMPT_ENABLE_CALL=c"],
    "percpu": ["COUNT=percpu"],
    "ti": ["COUNT=ti"],
    "racy": ["COUNT=racy"],
}
COMMON = ["PREEMPT=voluntary", "FRAME_POINTER=0"]
BASE = "off"


def build_dir(out: str, name: str) -> str:
    return os.path.join(out, "codegen", name)


def make_command(make: list, out: str, name: str) -> list:
    bdir = build_dir(out, name)
    return make + ["-s", f"BUILD={bdir}"] + VARIANTS[name] + COMMON + [f"{bdir}/fold.elf"]


def build_all(root: str, out: str, env: dict, log) -> dict:
    """{name: fold.elf path, or the error text}."""
    make = build.make_program()
    done = {}
    for name in VARIANTS:
        cmd = make_command(make, out, name)
        log(f"e5: build {name}: {shlex.join(cmd)}")
        status, output = build.run_make(cmd, root, env)
        if status != 0:
            lines = build.significant_lines(output)
            done[name] = f"build failed: {lines[-1] if lines else status}"
        else:
            done[name] = os.path.join(root, build_dir(out, name), "fold.elf")
    return done


def excerpt(f: codegen.Func, limit: int = 24) -> str:
    lines = [i.text for i in f.insns[:limit]]
    if len(f.insns) > limit:
        lines.append(f"... ({len(f.insns) - limit} more instructions)")
    return "\n".join(lines)


def entry(elfs: dict) -> tuple[Entry, dict]:
    cmd = ("make BUILD=build/experiments/codegen/VARIANT FRAME_POINTER=0 PREEMPT=voluntary "
           "COUNT=... [PREEMPT_ENABLE_CALL=c] .../fold.elf; tools/experiments/codegen.py "
           "(objdump -dr -w)")
    e = Entry("E5", "code generation: leaf functions lose their leafness",
              "\"even if that is almost never taken, just the fact that there is a conditional "
              "function call very often makes code generation *much* worse. A function that "
              "is a leaf function with no stack frame with no preemption often turns into a "
              "non-leaf function with stack frames when you enable preemption\" (Linus)",
              LWN, cmd)
    bad = {n: v for n, v in elfs.items() if not os.path.isfile(v)}
    if bad:
        return e.miss("; ".join(f"{n}: {v}" for n, v in bad.items())), {}
    funcs = {n: codegen.analyse(p) for n, p in elfs.items()}
    tot = {n: codegen.totals(f) for n, f in funcs.items()}
    head = ["variant", "functions", "leaf", "frameless", "leaf+frameless",
            "pushes", "slow-path calls", "bytes", "instructions"]
    rows = [[f"**{n}**" if n == BASE else n] +
            [num(tot[n][k]) for k in ("functions", "leaf", "frameless", "leaf_frameless",
                                      "pushes", "slow_calls", "bytes", "insns")]
            for n in funcs]
    text = [table(head, rows), ""]
    lost = {n: codegen.lost_leaves(funcs[BASE], funcs[n]) for n in funcs if n != BASE}
    text.append("Functions leaf and frameless with COUNT=off but not in the variant:")
    text.append("")
    def heavier(n):
        b, o = funcs[BASE], funcs[n]
        return sum(1 for f in b if f in o and (o[f].pushes > b[f].pushes or
                                              (o[f].stack_frame and not b[f].stack_frame)))
    text.append(table(["variant", "lost", "any function with more pushes or a new frame",
                       "functions lost (why)"], [
        [n, len(ls), heavier(n), "; ".join(f"`{f}` ({codegen.why(funcs[n][f])})" for f in ls[:12])
         + (f"; ... {len(ls) - 12} more" if len(ls) > 12 else "")]
        for n, ls in lost.items()]))
    worst = None
    for n, ls in lost.items():
        for f in ls:
            grow = funcs[n][f].bytes - funcs[BASE][f].bytes
            if worst is None or grow > worst[0]:
                worst = (grow, n, f)
    if worst:
        grow, n, f = worst
        text += ["", f"The worst case: `{f}` in {n}, {funcs[BASE][f].bytes} -> "
                 f"{funcs[n][f].bytes} bytes ({codegen.why(funcs[n][f])}). COUNT=off:", "",
                 "```", excerpt(funcs[BASE][f]), "```", "", f"{n}:", "", "```",
                 excerpt(funcs[n][f]), "```"]
    e.figure = "\n".join(text)
    thunk = [n for n in ("folded", "percpu", "ti", "racy") if n in lost]
    lt = max((len(lost[n]) for n in thunk), default=0)
    lc = len(lost.get("folded-c", []))
    nbase = tot[BASE]["leaf_frameless"]
    grow_c = tot.get("folded-c", {}).get("bytes", 0) - tot["folded"]["bytes"]
    push_c = tot.get("folded-c", {}).get("pushes", 0) - tot["folded"]["pushes"]
    leaves = ", ".join(f"{n} {tot[n]['leaf']}" for n in funcs)
    if lc == 0:
        e.verdict = "not borne out"
        e.why = ("no function that is leaf and frameless with COUNT=off loses it, not even with "
                 "preempt_enable() as a plain C call")
    elif lt >= lc:
        e.verdict = "borne out"
        e.why = (f"{lc} functions lose their leaf, frameless form with a plain call and {lt} "
                 "through the thunk: the thunk does not remove the effect")
    else:
        e.verdict = "borne out where it applies, but rare in fold" if lc < 0.1 * nbase \
            else "borne out (for a plain call; the thunk avoids it)"
        e.why = (f"with preempt_enable() as a plain C call, {lc} of the {nbase} functions that are "
                 f"leaf and frameless with COUNT=off get a stack frame and callee-saved pushes "
                 f"(the kernel: {grow_c:+,} bytes and {push_c:+} pushes against the thunk); "
                 f"through the register-saving thunk {lt} do, in every count model. The leaf "
                 f"count itself does not move ({leaves}): the rule above does not count the "
                 "slow-path call, so the cost shows as frames. In fold most functions with a "
                 "preempt section call something anyway (a lock, a wake-up), so few are leaves "
                 "to lose")
    return e, {"totals": tot, "lost": lost}
