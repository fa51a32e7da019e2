"""Experiment E8, lazy vs voluntary vs full, from the BENCH lines of the
hackbench, wakeup_hog and mode_cost benchmarks when the kernel has them:

  BENCH hackbench model=M mode=X smp=N clock=C where=kernel|user ops_per_sec=F invol_per_op=F
  BENCH wakeup_hog ... class=fifo|normal min= avg= max=
  BENCH mode_cost ... what=irq_roundtrip|enable_pending via=patched|variable ns=F

The claim (the lazy commit, 2024; the 2025 mode restriction): lazy gets
voluntary's throughput with full's latency. Judged, COUNT=folded -smp 1:
lazy's hackbench ops/s >= 0.99x none's, fewer involuntary switches per op
than full, and the FIFO wake-up latency beside the hog (max) <= 1.1x
full's.
"""

from __future__ import annotations

import benchlib
from entries import LAZY, RESTRICT, Entry, num, table

BENCHES = ("hackbench", "wakeup_hog", "mode_cost")
MODES = ("none", "voluntary", "full", "lazy")


def present(bench_options: dict) -> bool:
    """Whether the kernel has E8's benchmarks (fold_offsets.py's
    BENCH_OPTIONS_<name>, or BENCH lines in the results)."""
    return "hackbench" in bench_options


def entry(results, command: str, have: bool) -> Entry:
    e = Entry("E8", "lazy vs voluntary vs full",
              "lazy preemption gets voluntary's throughput with full's latency; so "
              "none and voluntary can go (x86 keeps full and lazy)",
              LAZY + "; " + RESTRICT, command)
    if not have:
        e.required = False
        return e.miss("this kernel has no `bench hackbench`/`wakeup_hog`/`mode_cost` "
                      "(no BENCH_OPTIONS_hackbench in fold_offsets.py): E8's benchmarks "
                      "are not in this tree yet")

    def fig(bench, key, mode, **ident):
        return benchlib.figure(results, bench, key, model="folded", mode=mode, smp=1, **ident)

    ops = {m: fig("hackbench", "ops_per_sec", m, where="kernel") for m in MODES}
    invol = {m: fig("hackbench", "invol_per_op", m, where="kernel") for m in MODES}
    lat = {m: fig("wakeup_hog", "max", m, **{"class": "fifo"}) for m in MODES}
    gone = [f"{b} {m}" for b, d in (("hackbench ops_per_sec", ops), ("invol_per_op", invol),
                                     ("wakeup_hog fifo max", lat)) for m in ("none", "full", "lazy")
            if d[m] is None]
    if gone:
        return e.miss("the run printed no figure for: " + ", ".join(gone))
    rows = [[m, num(ops[m]), num(invol[m]), num(lat[m])] for m in MODES if ops[m] is not None]
    e.figure = table(["mode", "hackbench ops/s (kernel)", "involuntary switches / op",
                      "FIFO wake-up beside the hog, max ns"], rows)
    # Every boot of the folded kernel runs mode_cost (it measures in mode
    # none whatever the boot's mode): one row per measurement, the boots'
    # figures beside each other only where they differ.
    costs: dict = {}
    for r in results:
        if r.bench == "mode_cost" and r.fields.get("model") == "folded" and r.get("ns") is not None:
            costs.setdefault((r.fields.get("what"), r.fields.get("via"), r.fields.get("mode")),
                             []).append(r.get("ns"))
    if costs:
        e.figure += ("\n\nThe mode's own cost (`bench mode_cost`): the patched sites against a "
                     "variable tested at the same points, one boot per mode, COUNT=folded:\n\n"
                     + table(["what", "via", "measured in mode", "ns", "boots"], [
                         [what, via, mode,
                          num(min(ns)) if min(ns) == max(ns) else f"{num(min(ns))}-{num(max(ns))}",
                          str(len(ns))]
                         for (what, via, mode), ns in costs.items()]))
    checks = [("lazy ops/s >= 0.99x none's", ops["lazy"] >= 0.99 * ops["none"]),
              ("fewer involuntary switches per op than full", invol["lazy"] < invol["full"]),
              ("FIFO wake-up max <= 1.1x full's", lat["lazy"] <= 1.1 * lat["full"])]
    held = [c for c, ok in checks if ok]
    failed = [c for c, ok in checks if not ok]
    e.verdict = "borne out" if not failed else ("partly" if held else "not borne out")
    e.why = "; ".join([f"holds: {c}" for c in held] + [f"fails: {c}" for c in failed])
    return e
