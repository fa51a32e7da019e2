"""Self-tests of the IPC sections of RESULTS.md (tools/bench/report_ipc.py):
`bench ipc` and `bench udriver` lines added to the synthetic logs of every
configuration, the plan's expected results (a missing cross-CPU line is an
error with two CPUs, not with one), the table, and the targets judged from
the figures: the quarter of Linux's futex round trip met and 400 missed
with today's figures, both met when the same-CPU figure is doctored to
390, and nothing judged under a wall clock. Run by selftest.main with
selftest's Cases.
"""

from __future__ import annotations

from selftest import SAMPLE_PLAN, expect, mentions
from selftest_user import section

PLAN = [c for c in SAMPLE_PLAN if c != "poweroff"] + ["bench ipc", "bench udriver", "poweroff"]
MODES = ("none", "voluntary", "full", "lazy")


def ipc_lines(model: str, mode: str, smp: int, same0: str = "1386.01") -> list[str]:
    ctx = f"model={model} mode={mode} smp={smp} clock=icount"
    out = [f"BENCH ipc {ctx} test=call placement=same bytes=0 calls=10000 ns_per_call={same0} "
           "messages=20004 fastpath=20003 folds_per_msg=0.00",
           f"BENCH ipc {ctx} test=call placement=same bytes=64 calls=10000 ns_per_call=2517.96 "
           "messages=20004 fastpath=20003 folds_per_msg=0.00",
           f"BENCH ipc {ctx} test=notify placement=same rounds=10000 ns_per_signal=809.90 "
           "folds_per_signal=0.00"]
    if smp >= 2:
        out += [f"BENCH ipc {ctx} test=call placement=cross bytes={b} calls=10000 "
                f"ns_per_call={ns} messages=20004 fastpath=0 folds_per_msg=0.99"
                for b, ns in (("0", "2706.58"), ("64", "3839.99"))]
        out.append(f"BENCH ipc {ctx} test=notify placement=cross rounds=10000 "
                   "ns_per_signal=1378.79 folds_per_signal=0.99")
    for md in MODES:
        if model == "off" and md in ("full", "lazy"):
            continue
        c = f"model={model} mode={md} smp={smp} clock=icount"
        out += [f"BENCH udriver {c} src={s} load={l} prio=0 samples=200 mean_ns={m} max_ns={x}"
                for s, l, m, x in (("uart", "none", "441.00", "441"),
                                   ("timer", "none", "800.16", "813"),
                                   ("uart", "hog", "441.00", "441"),
                                   ("timer", "hog", "893.20", "907"))]
    return out


def data(c, clock="icount", drop=(), same0="1386.01"):
    """Selftest's data() with the IPC lines: drop names lines to leave out
    (a substring), same0 the same-CPU 0-byte figure."""
    def extra(model, mode, smp):
        return [l for l in ipc_lines(model, mode, smp, same0) if not any(d in l for d in drop)]
    return c.data(clock=clock, plan_commands=PLAN, extra=extra)


def statuses(d):
    return {cfg["name"]: (cfg["status"], cfg.get("why", "")) for cfg in d["configs"]}


def test_ipc_report(c):
    d = data(c)
    bad = {n: w for n, (s, w) in statuses(d).items() if s != "ok"}
    expect(not bad, f"configurations judged not ok: {bad}")
    md = c.rb.report.render(d)
    ipc = section(md, "## IPC: call+reply and notifications")
    mentions([ipc], "#### IPC: ns per call+reply / per signal, smp=2 — clock: icount",
             "| **folded** | full | 1,386.01 | 2,517.96 | 2,706.58 | 3,839.99 | 809.90 | "
             "1,378.79 | 0.16× | met | missed |",
             "(same-CPU call+reply ≤ 0.25× Linux's 8,519, that is ≤ 2,130): **target met**",
             "(same-CPU call+reply ≤ 400 instructions): **target missed** in 28 of 28")
    one = ipc[ipc.index("smp=1 — clock"):ipc.index("smp=2 — clock")]
    expect("call cross" not in one, "a cross-CPU column with one CPU")
    ud = section(md, "## Interrupt to user-level driver")
    mentions([ud], "| **folded** | none | 800.16 / 813 | 893.20 / 907 | 441.00 / 441 |")

    # The same-CPU figure doctored to 390: both targets met.
    md = c.rb.report.render(data(c, same0="390.00"))
    mentions([md], "(same-CPU call+reply ≤ 400 instructions): **target met** in every "
             "configuration judged (28")
    # ... and to 2,200 (over a quarter of 8,519): the quarter missed.
    md = c.rb.report.render(data(c, same0="2200.00"))
    mentions([md], "(same-CPU call+reply ≤ 0.25× Linux's 8,519, that is ≤ 2,130): "
             "**target missed** in 28 of 28")

    # A cross-CPU line missing: an error with two CPUs only.
    st = statuses(data(c, drop=("placement=cross bytes=64",)))
    expect(st["folded-full-smp1"][0] == "ok", f"smp=1: {st['folded-full-smp1']}")
    expect(st["folded-full-smp2"][0] != "ok" and
           "no BENCH ipc test=call placement=cross bytes=64" in st["folded-full-smp2"][1],
           f"smp=2: {st['folded-full-smp2']}")
    # udriver's mode= is the mode measured: a mode missing is an error.
    st = statuses(data(c, drop=("mode=lazy smp=1 clock=icount src=timer load=hog",)))
    expect(st["folded-full-smp1"][0] != "ok" and "no BENCH udriver" in st["folded-full-smp1"][1],
           f"udriver: {st['folded-full-smp1']}")

    # A wall clock: the tables, no verdict.
    md = c.rb.report.render(data(c, clock="wall"))
    ipc = section(md, "## IPC: call+reply and notifications")
    expect("target met" not in ipc and "target missed" not in ipc, "a verdict on a wall clock")


CASES = [("ipc_report", test_ipc_report)]
