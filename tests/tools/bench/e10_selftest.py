"""Self-test of experiment E10 (tools/experiments/e10.py): its entry on
canned BENCH lines of a debug and a release run, borne out when the pairs
scale and wait for no lock, partly when four pairs cost more than 5 % over
one or a lock was waited for, missing without a path's figure. No boot.
"""

from __future__ import annotations

import re

from selftest import Failed, expect, run_entry_checks

# (path's lines, debug figure, release figure)
PATH_LINES = (
    ("BENCH syscall {ctx} calls=100000 ns_per_call={v}", 124.20, 121.18),
    ("BENCH throughput {ctx} test=ctxsw_same cpus=0,0 roundtrips=10000 ns_per_roundtrip={v}",
     852.08, 745.78),
    ("BENCH irq {ctx} iters=100000 ns_per_irq={v}", 96.15, 90.19),
    ("BENCH latency {ctx} load=none cpu=0 interval_us=1000 loops=2000 min={v} avg={v} "
     "p99={v} max={v}", 617, 568),
    ("BENCH ipc {ctx} test=call placement=same bytes=0 calls=10000 ns_per_call={v} "
     "messages=20004 fastpath=20003 handoff=0 folds_per_msg=0.00", 782.92, 722.81),
)


def canned(lib, build: str, doctored: dict | None = None) -> list:
    """One run's BENCH lines; doctored: {(what, key): value} replaced in lines with what."""
    ctx = "model=folded mode=full smp=4 clock=icount"
    lines = [t.format(ctx=ctx, v=d if build == "debug" else r) for t, d, r in PATH_LINES]
    base = 782.74 if build == "debug" else 722.83
    for n, f in ((1, 1.0), (2, 1.013), (4, 1.02)):
        per = base * f
        lines.append(f"BENCH ipc {ctx} test=pairs pairs={n} calls=10000 round_trips={n * 10000} "
                     f"ns={int(per * n * 10000)} ns_per_round_trip={per:.2f} "
                     f"messages={n * 20004} contended=0 contended_per_msg=0.0000 "
                     f"top_class=none top_contended=0")
    for (what, key), value in (doctored or {}).items():
        lines = [re.sub(rf"\b{key}=\S+", f"{key}={value}", l) if what in l else l for l in lines]
    parsed = lib.parse_lines(lines)
    expect(not parsed.errors, f"canned lines: {parsed.errors}")
    return parsed.results


def entry_checks():
    import benchlib
    import e10
    runs = {b: canned(benchlib, b) for b in e10.BUILDS}
    e = e10.entry(runs)
    yield (e.verdict == "borne out" and not e.missing, "E10: borne out by canned figures",
           f"{e.verdict}: {e.why} {e.missing}")
    yield (all(t in e.figure for t in ("| 124.20 | 121.18 | 3.02 | 2.4 % | ≤ 80: missed |",
                                       "| 852.08 | 745.78 | 106.30 | 12.5 % | ≤ 600: missed |",
                                       "| release | 4 | 737.29 | 1.020x | 0.0000 | none |")),
           "E10: the paths' and the pairs' tables", e.figure)
    runs["release"] = canned(benchlib, "release", {("pairs=4", "ns_per_round_trip"): "800.00"})
    e = e10.entry(runs)
    yield (e.verdict == "partly" and "fails: release: 4 pairs within 1.05x of one" in e.why,
           "E10: four pairs 11 % over one: partly", f"{e.verdict}: {e.why}")
    runs["release"] = canned(benchlib, "release", {("pairs=2", "contended_per_msg"): "0.0100",
                                                   ("pairs=2", "top_class"): "ipc_ep"})
    e = e10.entry(runs)
    yield (e.verdict == "partly" and "fails: release: 2 pairs, no lock waited for" in e.why
           and "| release | 2 | 732.23 | 1.013x | 0.0100 | ipc_ep |" in e.figure, "E10: a lock waited for: partly", f"{e.verdict}: {e.why}\n{e.figure}")
    runs = {"debug": [r for r in canned(benchlib, "debug") if r.bench != "irq"],
            "release": canned(benchlib, "release")}
    e = e10.entry(runs)
    yield (e.missing == "the runs printed no figure for: debug: irq", "E10: no irq line: missing",
           e.missing)


def entry_main() -> int:
    return run_entry_checks(entry_checks, "E10")
