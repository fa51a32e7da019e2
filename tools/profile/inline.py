"""What the compiler inlined, from the debug information: the profile's
table of the code inside the functions.

The function table counts inlined code for the function it was inlined
into (as `perf report` does), so a path that inlines a step for speed
stops showing it: since the IPC fast path inlines the run-queue lock and
the switch's halves, they are all `ipc_fastpath`. The DWARF line table
still knows: for an address, `addr2line -f -i` prints the chain of
functions inlined at it, innermost first and the function it lies in
last (DWARF 5, 6.2 and the DW_TAG_inlined_subroutine entries of 3.3.8.2).
This module reads those chains and counts each instruction for the pair
(the function it lies in, the function inlined directly into that one):
`ipc_fastpath < sched_handoff_lock` holds everything sched_handoff_lock
brought, the spinlock and the checks it inlined in turn.
"""

from __future__ import annotations

import subprocess
from collections import Counter

from tools.profile.execlog import USER_HALF_END


def parse_chains(text: str) -> dict[int, list[str]]:
    """{address: [innermost function, ..., the function it lies in]} from
    the output of `addr2line -a -f -i`: per address a line "0x...", then
    a function name and a "file:line" line for each level."""
    out: dict[int, list[str]] = {}
    cur = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("0x"):
            cur = int(line, 16)
            out[cur] = []
            i += 1
            continue
        if cur is None:
            raise ValueError(f"addr2line output: {line!r} before any address")
        out[cur].append(line.strip())
        i += 2  # the name, then its file:line
    return out


def chains(elf: str, pcs) -> dict[int, list[str]]:
    """The inline chain of every kernel address in pcs (user addresses have
    none here: the user programs are other ELF files)."""
    addrs = sorted({pc for pc in pcs if pc >= USER_HALF_END})
    if not addrs:
        return {}
    r = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", elf],
                       input="".join(f"{a:#x}\n" for a in addrs),
                       capture_output=True, text=True, check=True)
    return parse_chains(r.stdout)


def table(by_pc: Counter, fn_of, chain_of: dict[int, list[str]]) -> Counter:
    """{"outer < inlined": instructions}: each counted instruction whose
    chain has more than one level, under the function it lies in (the
    symbol's name, as the function table has it) and the function inlined
    directly into that one."""
    out: Counter = Counter()
    for pc, n in by_pc.items():
        ch = chain_of.get(pc, [])
        if len(ch) >= 2:
            out[f"{fn_of(pc)} < {ch[-2]}"] += n
    return out
