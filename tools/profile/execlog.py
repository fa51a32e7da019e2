"""Reading QEMU's execution log and attributing it to fold's functions.

QEMU's `-d exec,nochain` log has one "Trace" line for every translation
block it is about to run; with `-singlestep` every block is one guest
instruction, so the lines are the instructions in the order the vCPU ran
them. Two other kinds of line say that the block just announced did not
run after all (QEMU 7.2, accel/tcg/cpu-exec.c and cpu_io_recompile() in
accel/tcg/translate-all.c):

    Stopped execution of TB chain before 0x... [PC]   the block at PC was
        entered with an exit already requested (an interrupt, the icount
        budget spent): it starts again later, with a Trace line of its own
    cpu_io_recompile: rewound execution of TB to PC   under -icount an I/O
        instruction must end its block; QEMU rewinds it, retranslates and
        runs it again, with a Trace line of its own

so each of them takes back the Trace line before it. What is left is the
exact instruction stream of one vCPU (run with -smp 1), and under
-icount shift=0 one instruction is one virtual nanosecond: the counts
below are the same figures the benchmarks print.

Functions come from build/fold.sym (`nm -n`, text symbols): an address
belongs to the last text symbol at or below it. Code the compiler inlined
counts for the function it was inlined into, as in `perf report`; the
table of what was inlined (tools/profile/inline.py) splits it again.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

TRACE_RE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
TAKEN_BACK = ("Stopped execution of TB chain before", "cpu_io_recompile: rewound")


class LogError(Exception):
    pass


def read_pcs(lines) -> list[int]:
    """The guest PCs of the instructions that ran, in order."""
    pcs: list[int] = []
    for no, line in enumerate(lines, 1):
        m = TRACE_RE.match(line)
        if m:
            pcs.append(int(m.group(1), 16))
        elif line.startswith(TAKEN_BACK):
            if not pcs:
                raise LogError(f"line {no}: {line.strip()!r} takes back a block "
                               "the log never announced")
            pcs.pop()
    return pcs


GCC_SUFFIX_RE = re.compile(r"\.(cold|part\.\d+|isra\.\d+|constprop\.\d+|lto_priv\.\d+)")


def is_local_label(name: str) -> bool:
    if name.startswith("..@"):
        return True
    if "." not in name.lstrip("."):
        return False
    return not GCC_SUFFIX_RE.search(name)


# The lower half of the canonical address space (SDM Vol. 1, 3.3.7.1,
# 48-bit linear addresses): below the kernel's first symbol, a user
# program's; all of it counts as one function, USER.
USER_HALF_END = 1 << 47
USER = "(user)"


class Symbols:
    """Text symbols of an `nm -n` listing: address -> function."""

    def __init__(self, entries: list[tuple[int, str]]):
        entries = sorted(entries)
        self.addrs = [a for a, _ in entries]
        self.names = [n for _, n in entries]
        self.by_name = {n: a for a, n in entries}

    @classmethod
    def from_nm(cls, lines) -> "Symbols":
        """NASM's local labels (`error_entry.gs_ok`, a macro's `..@7.x`) are
        places inside the function before them, so they are left out; GCC's
        split-off parts (`f.cold`, `f.part.0`, `f.isra.0`, `f.constprop.0`)
        are functions of their own and stay."""
        out = []
        for line in lines:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TtWw" and not is_local_label(parts[2]):
                out.append((int(parts[0], 16), parts[2]))
        if not out:
            raise LogError("no text symbols in the symbol listing")
        return cls(out)

    def function(self, pc: int) -> str:
        i = bisect.bisect_right(self.addrs, pc) - 1
        if i >= 0:
            return self.names[i]
        return USER if pc < USER_HALF_END else f"?{pc:#x}"

    def address(self, name: str) -> int:
        if name not in self.by_name:
            raise LogError(f"no text symbol {name!r} in this build")
        return self.by_name[name]


def functions(pcs: list[int], syms: Symbols) -> list[str]:
    cache: dict[int, str] = {}
    out = []
    for pc in pcs:
        f = cache.get(pc)
        if f is None:
            f = cache[pc] = syms.function(pc)
        out.append(f)
    return out


# ---------------------------------------------------------------------------
# Windows: the stretch of the stream that is "the path"
# ---------------------------------------------------------------------------

def windows_from_entry(pcs: list[int], fns: list[str], start_pc: int,
                       end_fn: str, end_entry: int) -> list[tuple[int, int]]:
    """[i, j): from an instruction at start_pc (an interrupt's stub) up to,
    not including, the first instruction of end_fn after it: the return
    into end_fn of a thread the interrupt woke. A window that meets another
    start_pc first starts again there (an interrupt that woke nobody); one
    that reaches end_fn at its entry (end_entry: the thread's first start,
    not a wake-up) or never reaches it is dropped."""
    out, start = [], None
    for i, pc in enumerate(pcs):
        if pc == start_pc:
            start = i
        elif start is not None and fns[i] == end_fn:
            if pc != end_entry:
                out.append((start, i))
            start = None
    return out


def windows_between(pcs: list[int], mark_pc: int, step: int, inner_pc: int,
                    inner: int) -> list[tuple[int, int]]:
    """[i, j): from one instruction at mark_pc to the step-th next, for
    every step-th mark; kept only if inner_pc runs exactly `inner` times in
    it (an IPC round trip is two fast-path switches, mark_pc, and two
    attempts, inner_pc: a window with a slow-path message in it has more
    attempts than switches, and is left out)."""
    marks = [i for i, pc in enumerate(pcs) if pc == mark_pc]
    out = []
    for k in range(0, len(marks) - step, step):
        lo, hi = marks[k], marks[k + step]
        if sum(1 for i in range(lo, hi) if pcs[i] == inner_pc) == inner:
            out.append((lo, hi))
    return out


def window_of_function(fns: list[str], fn: str) -> tuple[int, int]:
    """[i, j): from fn's first instruction to its last, inclusive: all that
    ran while fn was live (a benchmark's timed loop, the other threads it
    switched to included)."""
    first = next((i for i, f in enumerate(fns) if f == fn), None)
    if first is None:
        raise LogError(f"{fn} never ran while the log was on")
    last = max(i for i in range(first, len(fns)) if fns[i] == fn)
    return first, last + 1


def segments(fns: list[str], lo: int, hi: int, fn: str) -> list[int]:
    """Indexes in [lo, hi) where a run of fn's instructions begins."""
    return [i for i in range(lo, hi) if fns[i] == fn and (i == lo or fns[i - 1] != fn)]


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------

@dataclass
class Profile:
    """Instruction counts of some windows, per function and per stage,
    with the call sequence of one representative window."""
    title: str
    unit: str                      # "round trip", "wake-up"
    per: int                       # how many units the windows hold
    total: int = 0
    by_function: Counter = field(default_factory=Counter)
    by_stage: Counter = field(default_factory=Counter)
    sequence: list[tuple[str, int]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    by_pc: Counter = field(default_factory=Counter)
    inlined: Counter = field(default_factory=Counter)  # tools/profile/inline.py


def run_lengths(names: list[str]) -> list[tuple[str, int]]:
    """Consecutive instructions in one function, collapsed: [(fn, count)]."""
    out: list[tuple[str, int]] = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1] = (n, out[-1][1] + 1)
        else:
            out.append((n, 1))
    return out


def attribute(prof: Profile, fns: list[str], spans: list[tuple[int, int]],
              stage_of, pcs: list[int] | None = None) -> Profile:
    for lo, hi in spans:
        part = fns[lo:hi]
        prof.total += len(part)
        prof.lengths.append(len(part))
        c = Counter(part)
        prof.by_function.update(c)
        for f, n in c.items():
            prof.by_stage[stage_of(f)] += n
        if pcs is not None:
            prof.by_pc.update(pcs[lo:hi])
    return prof


def _fmt(n: float) -> str:
    return f"{n:,.2f}" if n != int(n) else f"{int(n):,}"


def render(prof: Profile, top: int = 25, seq_max: int = 80, inlined_top: int = 15) -> str:
    per = max(prof.per, 1)
    out = [prof.title, ""]
    out.append(f"path total: {_fmt(round(prof.total / per, 2))} instructions per "
               f"{prof.unit} ({prof.total:,} in {len(prof.lengths)} window"
               f"{'s' if len(prof.lengths) != 1 else ''}, {prof.per:,} {prof.unit}s)")
    out += prof.notes
    out += ["", f"{'stage':<28} {'per ' + prof.unit:>16} {'share':>7}"]
    for s, n in sorted(prof.by_stage.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(f"  {s:<26} {_fmt(round(n / per, 2)):>16} {100 * n / prof.total:6.1f}%")
    out += ["", f"{'function':<28} {'per ' + prof.unit:>16} {'share':>7}"]
    ranked = sorted(prof.by_function.items(), key=lambda kv: (-kv[1], kv[0]))
    for f, n in ranked[:top]:
        out.append(f"  {f:<26} {_fmt(round(n / per, 2)):>16} {100 * n / prof.total:6.1f}%")
    if len(ranked) > top:
        rest = sum(n for _, n in ranked[top:])
        out.append(f"  {'(' + str(len(ranked) - top) + ' more functions)':<26} "
                   f"{_fmt(round(rest / per, 2)):>16} {100 * rest / prof.total:6.1f}%")
    if prof.inlined:
        # The code inside the functions above (tools/profile/inline.py).
        inl = sorted(prof.inlined.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = inl[:inlined_top]
        w = max([36] + [len(f) for f, _ in shown])
        out += ["", f"{'inlined: function < what it inlined':<{w + 2}} "
                    f"{'per ' + prof.unit:>16} {'share':>7}"]
        for f, n in shown:
            out.append(f"  {f:<{w}} {_fmt(round(n / per, 2)):>16} {100 * n / prof.total:6.1f}%")
        if len(inl) > inlined_top:
            rest = sum(n for _, n in inl[inlined_top:])
            out.append(f"  {'(' + str(len(inl) - inlined_top) + ' more)':<{w}} "
                       f"{_fmt(round(rest / per, 2)):>16} {100 * rest / prof.total:6.1f}%")
    if prof.sequence:
        n = sum(c for _, c in prof.sequence)
        out += ["", f"call sequence of one {prof.unit} ({n} instructions; "
                    "function and instructions run before the next one):"]
        seq = prof.sequence[:seq_max]
        line = " "
        for f, c in seq:
            item = f" {f} {c} ->"
            if len(line) + len(item) > 78:
                out.append(line)
                line = " "
            line += item
        out.append(line.rstrip(" ->"))
        if len(prof.sequence) > seq_max:
            out.append(f"  ... {len(prof.sequence) - seq_max} more")
    return "\n".join(out) + "\n"
