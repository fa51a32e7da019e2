"""tools/profile/run-profile --self-test: the attribution on made-up and
doctored logs, no QEMU. Each check names what would be wrong if it failed."""

from __future__ import annotations

import re

from tools.lib import summary_line
from collections import Counter

from tools.profile import execlog, inline, stages

SYMS = """\
0000000000001000 t vector_stub_32
0000000000001010 t common_entry
0000000000001050 T error_entry
0000000000001058 t error_entry.gs_ok
000000000000105a t ..@7.no_smap
0000000000001100 T spin_lock
0000000000001200 T wake_up_thread
0000000000002000 T measure
0000000000003000 t measure.cold
0000000000004000 T pp_a
0000000000004100 T complete
0000000000004200 T wait_for_completion
0000000000005000 D some_data
"""


def trace(pc: int) -> str:
    return f"Trace 0: 0x7f00deadbe00 [0000000000000000/{pc:016x}/0000c0b0/ff020201] \n"


def stream(*runs) -> list[str]:
    """runs: (address, count): count instructions from address on."""
    return [trace(a + i) for a, n in runs for i in range(n)]


def base_log() -> list[str]:
    # measure starts (its entry: not a wake-up), sleeps; a tick that wakes
    # nobody; then the timer that wakes it: stub, entry, the local labels,
    # a lock, the wake-up, back in measure.
    return stream((0x2000, 4), (0x1000, 2), (0x1010, 3),
                  (0x1000, 3), (0x1010, 10), (0x1050, 8), (0x1058, 2), (0x105a, 1),
                  (0x1100, 14), (0x1200, 20), (0x2010, 5))


def timer_profile(lines: list[str]) -> execlog.Profile:
    syms = execlog.Symbols.from_nm(SYMS.splitlines())
    pcs = execlog.read_pcs(lines)
    fns = execlog.functions(pcs, syms)
    spans = execlog.windows_from_entry(pcs, fns, syms.address("vector_stub_32"),
                                       "measure", syms.address("measure"))
    prof = execlog.Profile("t", "wake-up", len(spans))
    return execlog.attribute(prof, fns, spans, stages.stage_of)


def ipc_windows(pcs: list[int]) -> list[tuple[int, int]]:
    # 0x1200 plays ipc_fastpath_finish (a switch), 0x1100 ipc_fastpath (an
    # attempt): windows from a switch to the next but one, two attempts in
    # each.
    return execlog.windows_between(pcs, 0x1200, 2, 0x1100, 2)


def checks():
    syms = execlog.Symbols.from_nm(SYMS.splitlines())
    yield ("below the first symbol, the lower half is user code",
           syms.function(0x800) == execlog.USER and syms.function(0x1000) == "vector_stub_32")
    # Two fast round trips, then one with a third attempt (a slow-path
    # message), then a fast one again.
    rt = [0x1200, 0x400000, 0x1100, 0x1200, 0x400000, 0x1100]
    pcs = rt + rt + [0x1200, 0x400000, 0x1100, 0x1100, 0x1200, 0x400000, 0x1100] + rt + [0x1200]
    w = ipc_windows(pcs)
    yield ("IPC windows: a round trip from a switch to the next but one; one with "
           "a slow-path attempt in it is left out",
           w == [(0, 6), (6, 12), (19, 25)])
    yield ("NASM local labels count for the function before them",
           syms.function(0x1059) == "error_entry" and syms.function(0x105a) == "error_entry")
    yield ("GCC's split-off parts are functions of their own",
           syms.function(0x3004) == "measure.cold")
    yield ("data symbols are not functions", syms.function(0x5004) == "wait_for_completion")

    # addr2line -a -f -i: a lock inlined into wake_up_thread, and a check
    # the lock inlined in turn; one address of wake_up_thread's own.
    a2l = ("0x0000000000001200\nspin_lock\nkernel/spinlock.h:40\n"
           "wake_up_thread\nsched/wake.c:10\n"
           "0x0000000000001201\nwake_up_thread\nsched/wake.c:12\n"
           "0x0000000000001202\nlock_check\nkernel/spinlock.h:5\n"
           "spin_lock\nkernel/spinlock.h:41\nwake_up_thread\nsched/wake.c:11\n")
    ch = inline.parse_chains(a2l)
    t = inline.table(Counter({0x1200: 3, 0x1201: 5, 0x1202: 2}), syms.function, ch)
    yield ("inlined: code inlined at any depth counts for what the function inlined "
           "directly, the function's own code for nothing",
           ch[0x1202] == ["lock_check", "spin_lock", "wake_up_thread"]
           and t == Counter({"wake_up_thread < spin_lock": 5}))
    prof = execlog.Profile("t", "wake-up", 1, total=10, inlined=t)
    prof.by_stage["wake-up"] = 10
    yield ("inlined: the table shows it, per wake-up and as a share",
           re.search(r"\n  wake_up_thread < spin_lock +5 +50\.0%\n",
                     execlog.render(prof)) is not None)

    pcs = execlog.read_pcs(stream((0x1100, 3)) + ["Stopped execution of TB chain before "
                                                  "0x7f00 [0000000000001102] \n"])
    yield ("a block QEMU stopped before running is taken back", pcs == [0x1100, 0x1101])
    pcs = execlog.read_pcs(stream((0x1100, 2)) + ["cpu_io_recompile: rewound execution "
                                                  "of TB to 0000000000001101\n"])
    yield ("a block QEMU rewound is taken back", pcs == [0x1100])
    try:
        execlog.read_pcs(["Stopped execution of TB chain before 0x7f00 [1000] \n"])
        yield ("a take-back with nothing to take back is an error", False)
    except execlog.LogError:
        yield ("a take-back with nothing to take back is an error", True)

    prof = timer_profile(base_log())
    yield ("one wake-up: the tick that woke nobody starts no window of its own",
           prof.per == 1 and prof.lengths == [3 + 10 + 8 + 2 + 1 + 14 + 20])
    yield ("per function", prof.by_function["error_entry"] == 11
           and prof.by_function["spin_lock"] == 14 and "measure" not in prof.by_function)
    yield ("per stage", prof.by_stage["locks"] == 14 and prof.by_stage["wake-up"] == 20
           and prof.by_stage["entry/exit"] == 3 + 10 + 11)

    # Doctored: three more lock instructions inside the window.
    lines = base_log()
    at = lines.index(trace(0x1100))
    doctored = lines[:at] + stream((0x1100, 3)) + lines[at:]
    d = timer_profile(doctored)
    yield ("doctored: 3 more instructions in spin_lock inside the window show there",
           d.total == prof.total + 3 and d.by_function["spin_lock"] == 17
           and d.by_stage["locks"] == 17 and d.by_function["wake_up_thread"] == 20)
    # Doctored: instructions after the window change nothing.
    d = timer_profile(lines + stream((0x1100, 50)))
    yield ("doctored: instructions after the window are not counted", d.total == prof.total)
    # Doctored: the wake-up's interrupt taken back by QEMU and rerun.
    d = timer_profile(lines[:at + 1] + ["Stopped execution of TB chain before 0x7f00 "
                                        "[0000000000001100] \n"] + lines[at:])
    yield ("doctored: a stopped block rerun counts once", d.total == prof.total)
    # Doctored: the woken thread's first start is not a wake-up.
    d = timer_profile(stream((0x1000, 3), (0x1200, 5), (0x2000, 2)))
    yield ("a window that ends at the thread's entry is no wake-up", d.per == 0)

    # A function's window and its stretches (ctxsw's round trips).
    fns = execlog.functions(execlog.read_pcs(stream(
        (0x1100, 2), (0x4000, 3), (0x4100, 4), (0x4010, 1), (0x4200, 6),
        (0x4010, 2), (0x4100, 4), (0x4010, 1), (0x1100, 7))), syms)
    lo, hi = execlog.window_of_function(fns, "pp_a")
    yield ("a function's window runs from its first to its last instruction",
           (lo, hi) == (2, 2 + 3 + 4 + 1 + 6 + 2 + 4 + 1))
    yield ("its stretches", execlog.segments(fns, lo, hi, "pp_a") == [2, 9, 16, 22])
    yield ("runs collapse", execlog.run_lengths(fns[lo:hi])[:3]
           == [("pp_a", 3), ("complete", 4), ("pp_a", 1)])
    out = execlog.render(prof)
    yield ("the rendering shows the total and each stage",
           "path total: 58 instructions per wake-up" in out and "locks" in out)
    yield ("a function no stage names is 'other'", stages.stage_of("frobnicate") == "other")


def main() -> int:
    passed = failed = 0
    for name, ok in checks():
        print(f"{'ok  ' if ok else 'FAIL'} profile self-test: {name}")
        passed += ok
        failed += not ok
    print(summary_line(passed, failed))
    return 0 if failed == 0 else 1
