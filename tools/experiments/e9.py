"""Experiment E9, PREEMPT_RT, from a run-bench run of its own (<out>/e9/:
COUNT=folded, modes full, lazy and rt, -smp 1, icount, loads none and
lock, 500 wake-ups each; ARGS below):

  BENCH latency model=folded mode=M smp=1 clock=icount load=none|lock cpu=0 ... max=N
  BENCH inversion ... pi=1|0 section_us=N medium_us=N high_wait_ns=N low_prio=N
  BENCH throughput ... test=preempt_heavy ns_per_op=F / test=ctxsw_same ns_per_roundtrip=F
  BENCH hackbench ... where=kernel ops_per_sec=F
  BENCH ipc ... test=call placement=same bytes=0 ns_per_call=F

The claim (PREEMPT_RT merged in Linux 6.12, 2024; Mars Pathfinder, 1997):
a FIFO thread's wake-up no longer waits for a spinlock_t section, and
priority inheritance bounds an inversion; at a cost in throughput.
Judged: rt's max wake-up latency beside a spinlock_t section (load=lock)
at most 2x its max with no load; full's at least the section (it does
wait for it); with PI high's wait at most 1.1x the section, without at
least medium's run (full's lines, and rt's when the run has them). The
cost is shown, not judged.
"""

from __future__ import annotations

import shlex

import benchlib
from entries import Entry, num, ratio, table

SECTION_US = 1000           # bench latency load=lock's section, given to the run
LOOPS = 500                 # its wake-ups per load: 31 sweeps of the section's lead, a quarter
                            # of the default's time (a busy load costs its whole interval)
MODES = ("full", "lazy", "rt")
BENCHES = ("latency", "inversion", "throughput", "hackbench", "ipc")
ARGS = ["--models", "folded", "--modes", " ".join(MODES), "--smp", "1",
        "--benches", " ".join(BENCHES), "--loads", "none lock",
        "--bench-args", f"latency.section_us={SECTION_US} latency.loops={LOOPS}"]
COMMAND = "tools/bench/run-bench " + shlex.join(ARGS)
RT_LOCK_MAX = 2.0           # rt's max under load=lock over its max with no load, at most
PI_WAIT_MAX = 1.1           # high's wait with PI over the section, at most
SOURCE = ("LWN's coverage of the PREEMPT_RT merge (\"The realtime preemption merge\", "
          "Linux 6.12, 2024); the Mars Pathfinder priority inversion (1997: a VxWorks "
          "mutex without priority inheritance, cured by turning it on)")
# (c): what RT costs, rt against full: (label, bench, key, ident, higher is better)
COSTS = (("preempt_heavy, ns per op", "throughput", "ns_per_op", {"test": "preempt_heavy"}, False),
         ("ctxsw_same, ns per round trip", "throughput", "ns_per_roundtrip",
          {"test": "ctxsw_same"}, False),
         ("hackbench, ops/s (kernel)", "hackbench", "ops_per_sec", {"where": "kernel"}, True),
         ("IPC call+reply, same CPU, 0 B, ns", "ipc", "ns_per_call",
          {"test": "call", "placement": "same", "bytes": "0"}, False))


def present(bench_options: dict) -> bool:
    """Whether the kernel has E9's benchmarks (fold_offsets.py's BENCH_OPTIONS_<name>):
    `bench inversion` and bench latency's section_us (load=lock)."""
    return "inversion" in bench_options and "section_us" in bench_options.get("latency", ())


def fig(results, mode, bench, key, **ident):
    return benchlib.figure(results, bench, key, worst=bench == "latency", model="folded",
                           mode=mode, smp=1, **ident)


def inversion(results, mode):
    """{pi: (high_wait_ns, section_ns, medium_ns, low_prio)} of mode's boot, or None."""
    got = {}
    for pi in ("1", "0"):
        r = next(iter(benchlib.find(results, "inversion", model="folded", mode=mode, smp=1,
                                    pi=pi)), None)
        if r is None:
            return None
        got[pi] = (r.get("high_wait_ns"), r.get("section_us") * 1000,
                   r.get("medium_us") * 1000, r.get("low_prio"))
    return got


def entry(results, command: str, have: bool) -> Entry:
    e = Entry("E9", "PREEMPT_RT: sleeping spinlocks and priority inheritance",
              "PREEMPT_RT: a FIFO thread's wake-up no longer waits for a spinlock_t section, "
              "and priority inheritance bounds an inversion; at a cost in throughput",
              SOURCE, command)
    if not have:
        e.required = False
        return e.miss("this kernel has no `bench inversion` or `bench latency section_us=` "
                      "(no BENCH_OPTIONS_inversion in fold_offsets.py): E9's benchmarks are not "
                      "in this tree yet")
    lat = {(m, load): fig(results, m, "latency", "max", load=load)
           for m in MODES for load in ("none", "lock")}
    inv = {m: inversion(results, m) for m in ("full", "rt")}
    gone = [f"latency load={load} {m}" for (m, load), v in lat.items()
            if v is None and m != "lazy"] + (["inversion full"] if inv["full"] is None else [])
    if gone:
        return e.miss("the run printed no figure for: " + ", ".join(gone))
    e.figure = table(["mode", "load=none, max ns", "load=lock, max ns", "lock / none"], [
        [m, num(lat[(m, "none")]), num(lat[(m, "lock")]), ratio(lat[(m, "lock")], lat[(m, "none")])]
        for m in MODES if None not in (lat[(m, "none")], lat[(m, "lock")])])
    e.figure += (f"\n\nWorst wake-up latency of a FIFO thread (ns = instructions, icount), "
                 f"COUNT=folded, -smp 1; load=lock: a normal thread holding a spinlock_t for "
                 f"{SECTION_US:,} µs just before its deadlines.\n\n")
    e.figure += table(["boot", "priority inheritance", "high waited, ns", "x section",
                       "low's prio meanwhile"], [
        [m, "on" if pi == "1" else "off", num(w), ratio(w, sec), str(prio)]
        for m in ("full", "rt") if inv[m] for pi, (w, sec, _, prio) in inv[m].items()])
    sec, med = inv["full"]["1"][1], inv["full"]["1"][2]
    e.figure += (f"\n\n`bench inversion`: low holds an rt_mutex for {sec // 1000:,} µs of work, "
                 f"high (FIFO 30) wants it, medium (FIFO 20) works {med // 1000:,} µs.\n\n")
    costs = [(label, f, r, up) for label, b, k, i, up in COSTS
             if None not in (f := fig(results, "full", b, k, **i), r := fig(results, "rt", b, k, **i))]
    e.figure += table(["what RT costs", "full", "rt", "rt / full"], [
        [label, num(f), num(r), ratio(r, f)] for label, f, r, _ in costs]) if costs else \
        "(no throughput, hackbench or IPC figures for full and rt)"
    checks = [(f"rt's max under load=lock <= {RT_LOCK_MAX:g}x its load=none max",
               lat[("rt", "lock")] <= RT_LOCK_MAX * lat[("rt", "none")]),
              (f"full's max under load=lock >= the section ({SECTION_US * 1000:,} ns)",
               lat[("full", "lock")] >= SECTION_US * 1000)]
    for m in (m for m in ("full", "rt") if inv[m]):
        (w1, s1, _, _), (w0, _, m0, _) = inv[m]["1"], inv[m]["0"]
        checks += [(f"{m}: with PI high waits <= {PI_WAIT_MAX:g}x the section", w1 <= PI_WAIT_MAX * s1),
                   (f"{m}: without PI high waits >= medium's run", w0 >= m0)]
    held = [c for c, ok in checks if ok]
    failed = [c for c, ok in checks if not ok]
    e.verdict = "borne out" if not failed else ("partly" if held else "not borne out")
    worse = [f"{label} {abs(r / f - 1) * 100:.0f} % {'worse' if (r < f) == up else 'better'}"
             if r != f else f"{label} the same" for label, f, r, up in costs if f]
    e.why = "; ".join([f"holds: {c}" for c in held] + [f"fails: {c}" for c in failed]
                      + ([f"what rt costs against full: {', '.join(worse)}"] if worse else []))
    return e
