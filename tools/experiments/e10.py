"""Experiment E10, what the debug checks cost and how IPC scales, from two
run-bench runs of its own (<out>/e10-debug/, <out>/e10-release/): the
debug build and the release build (make RELEASE=1, kernel/debug/checks.h),
COUNT=folded, PREEMPT=full, -smp 4, icount, the paths' benchmarks:

  BENCH syscall ... ns_per_call=F                       getpid's round trip
  BENCH throughput ... test=ctxsw_same ns_per_roundtrip=F  two threads, one CPU
  BENCH irq ... ns_per_irq=F                            `int` to an empty handler
  BENCH latency ... load=none cpu=0 ... avg=N           timer interrupt -> woken thread
  BENCH ipc ... test=call placement=same bytes=0 ns_per_call=F
  BENCH ipc ... test=pairs pairs=N ns_per_round_trip=F contended_per_msg=F top_class=C

The kernel's benchmarks print every figure; this module only tabulates
them. The claims: the release build leaves out only checks, so what it
saves on each path is what the checks cost there (shown, not judged);
and N client/server pairs on N CPUs, each pair on a CPU of its own with
its own endpoint, cost what one pair costs (the round trip summed over
the CPUs within PAIRS_MAX of one pair's) with no lock waited for
(contended acquisitions per message, lock_stat), in both builds.
"""

from __future__ import annotations

import shlex

import benchlib
from entries import Entry, num, table
from report import IPC_TARGET

SMP = 4
BENCHES = ("syscall", "preempt", "latency", "throughput", "ipc")
BUILDS = ("debug", "release")


def args(release: int) -> list:
    return ["--models", "folded", "--modes", "full", "--smp", str(SMP),
            "--benches", " ".join(BENCHES), "--loads", "none", "--release", str(release)]


COMMAND = "; ".join("tools/bench/run-bench " + shlex.join(args(r)) for r in (0, 1))
PAIRS_MAX = 1.05            # N pairs' round trip over one pair's, at most
SOURCE = ("seL4's IPC fastpath and its benchmarks (sel4bench); Linux's "
          "CONFIG_DEBUG_SPINLOCK, CONFIG_DEBUG_PREEMPT and lockdep, which "
          "production kernels leave out")
# (label, what measures it, bench, key, ident, the release build's goal in
# instructions); the docs cite a cell as "label | column"
PATHS = (("getpid", "`bench syscall`: getpid's round trip", "syscall", "ns_per_call", {}, 80),
         ("ctxsw", "`bench throughput` ctxsw_same: a switch there and back on one CPU",
          "throughput", "ns_per_roundtrip", {"test": "ctxsw_same"}, 600),
         ("irq", "`bench preempt`: an interrupt's round trip", "irq", "ns_per_irq", {}, 70),
         ("timer", "`bench latency load=none` avg: timer interrupt to woken thread",
          "latency", "avg", {"load": "none"}, 480),  # QEMU 7.2 TCG: no TSC-deadline mode
         ("ipc", "`bench ipc`: call+reply on one CPU, no payload", "ipc", "ns_per_call",
          {"test": "call", "placement": "same", "bytes": "0"}, IPC_TARGET))


def fig(results, bench, key, **ident):
    return benchlib.figure(results, bench, key, model="folded", mode="full", smp=SMP, **ident)


def pairs(results) -> dict:
    """{N: (ns_per_round_trip, contended_per_msg, top_class)} of one run."""
    got = {}
    for r in benchlib.find(results, "ipc", model="folded", mode="full", smp=SMP, test="pairs"):
        n, per, c = r.get("pairs"), r.get("ns_per_round_trip"), r.get("contended_per_msg")
        if isinstance(n, int) and isinstance(per, (int, float)) and isinstance(c, (int, float)):
            got[n] = (per, c, r.fields.get("top_class", "?"))
    return got


def entry(runs: dict) -> Entry:
    """runs: {"debug": results, "release": results}."""
    e = Entry("E10", "What the debug checks cost; IPC pairs on separate CPUs",
              "The release build leaves out only checks: what it saves on a path is what "
              "the debug checks cost there. N IPC client/server pairs on N CPUs, each with "
              "its own endpoint, cost what one pair costs (within "
              f"{(PAIRS_MAX - 1) * 100:.0f} %), with no lock waited for",
              SOURCE, COMMAND)
    figs = {(b, p[0]): fig(runs.get(b, []), p[2], p[3], **p[4]) for b in BUILDS for p in PATHS}
    gone = [f"{b}: {label}" for (b, label), v in figs.items() if v is None]
    prs = {b: pairs(runs.get(b, [])) for b in BUILDS}
    gone += [f"{b}: bench ipc test=pairs pairs=1" for b in BUILDS if 1 not in prs[b]]
    if gone:
        return e.miss("the runs printed no figure for: " + ", ".join(gone))
    rows = []
    for label, what, _, _, _, goal in PATHS:
        d, r = figs[("debug", label)], figs[("release", label)]
        rows.append([label, what, num(d), num(r), num(round(d - r, 2)),
                     f"{(d - r) / d * 100:.1f} %" if d else "n/a",
                     f"≤ {goal}: {'met' if r <= goal else 'missed'}"])
    e.figure = table(["path", "measured by (ns = instructions, icount)", "debug", "release",
                      "the checks",
                      "share of debug", "release goal"], rows)
    e.figure += (f"\n\nCOUNT=folded, PREEMPT=full, -smp {SMP}, icount; cpu 0's figure. "
                 "The checks: the switch's count checks, the locks' owners, "
                 "`might_sleep()`, the count-leak check (docs/06-measuring.md, "
                 "The release build). The timer's goal is 480 because QEMU 7.2's TCG "
                 "offers no TSC-deadline mode: the LAPIC's one-shot count is programmed "
                 "from a clock read in every timer interrupt. The IPC goal is the whole "
                 "round trip, `ping`'s and `pong`'s user loops in it; its kernel share "
                 "(`make profile PROFILE=ipc RELEASE=1`: the total less the `user` stage) "
                 "is set beside seL4's fastpath round trip, 443, in "
                 "docs/05-ipc-and-drivers.md.\n\n")
    prow, checks = [], []
    for b in BUILDS:
        one = prs[b][1][0]
        for n in sorted(prs[b]):
            per, c, top = prs[b][n]
            prow.append([b, str(n), num(per), f"{per / one:.3f}x", f"{c:.4f}", top])
            if n > 1:
                checks.append((f"{b}: {n} pairs within {PAIRS_MAX:g}x of one",
                               per <= PAIRS_MAX * one))
            checks.append((f"{b}: {n} pair{'s' if n > 1 else ''}, no lock waited for",
                           c == 0))
    e.figure += table(["build", "pairs", "ns per round trip, summed over CPUs",
                       "/ one pair", "contended acquisitions per message", "lock waited for most"],
                      prow)
    e.figure += ("\n\n`bench ipc test=pairs`: N pairs on N CPUs, each pair's client and server "
                 "pinned to a CPU of its own; "
                 "under icount the virtual time of all pairs over all their round trips is "
                 "the instructions of one round trip summed over the CPUs.")
    held = [c for c, ok in checks if ok]
    failed = [c for c, ok in checks if not ok]
    e.verdict = "borne out" if not failed else ("partly" if held else "not borne out")
    saved = [f"{label} {(figs[('debug', label)] - figs[('release', label)]):,.2f}"
             for label, *_ in PATHS]
    e.why = "; ".join([f"the checks cost (debug - release): {', '.join(saved)}"]
                      + [f"holds: {c}" for c in held] + [f"fails: {c}" for c in failed])
    return e
