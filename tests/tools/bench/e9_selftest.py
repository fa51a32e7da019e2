"""Self-tests of experiment E9 (PREEMPT_RT): run-bench's side and E9's entry.

run-bench's side (E9_CASES, run by selftest.main with its Cases): the rt
mode (COUNT=folded only; uaccess reports rt and rt-lazy; mode_cost's
refused switch to none is no error on rt, and is one elsewhere), the lock
load, `bench inversion`'s lines and what a run must print of them, the
plan, RESULTS.md's tables (the lock load, the E9 section and its target,
rt's n/a cells) and the plots' data.

E9's entry (entry_main, run by tools/experiments/run-experiments
--self-test): tools/experiments/e9.py's entry() on canned BENCH lines,
borne out as they are, partly and not borne out when figures are doctored,
missing without them. Neither boots anything.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile

import selftest as st
from tools.lib import summary_line
from selftest import (run_entry_checks, MODE_ORDER, SAMPLE_PLAN, Failed, check_footnotes, doctor, expect,
                      mentions, row, section)

E9_TITLE = "## E9: PREEMPT_RT and priority inversion"
PLAN = [c for c in SAMPLE_PLAN if c != "poweroff"] + [
    "bench latency load=lock histogram=1000", "bench inversion", "poweroff"]
RT_MODES = MODE_ORDER + ("rt",)
SECTION_NS = 1_000_000


def lock_max(mode: str) -> int:
    """Outside RT the FIFO wake-up waits for the section; on rt it does not."""
    return 1650 if mode == "rt" else 1_000_245


def e9_lines(model: str, mode: str, smp: int, lock=None, pi1: int = 979_761,
             pi0: int = 10_981_677) -> list[str]:
    """bench latency load=lock (and its histogram) per CPU and bench inversion's two lines."""
    ctx = f"model={model} mode={mode} smp={smp} clock=icount"
    mx = lock or lock_max(mode)
    out = []
    for cpu in range(smp):
        out += [f"BENCH latency {ctx} load=lock cpu={cpu} interval_us=1000 loops=2000 min=666 "
                f"avg={mx // 4} p99={mx - 7} max={mx}",
                f"BENCH latency_hist {ctx} load=lock cpu={cpu} bucket_us=1 overflow=0 "
                "counts=1000,1000"]
    return out + [f"BENCH inversion {ctx} pi={pi} section_us=1000 medium_us=10000 "
                  f"high_wait_ns={w} low_prio={prio}" for pi, w, prio in ((1, pi1, 30), (0, pi0, 0))]


def rt_data(c, clock="icount"):
    return c.data(clock=clock, plan_commands=PLAN, extra=e9_lines, modes=RT_MODES)


# --------------------------------------------------------------------------
# run-bench's side
# --------------------------------------------------------------------------

def test_e9_judge(c):
    """An rt boot's log is judged by what PREEMPT_RT runs."""
    lib = c.lib
    expect([lib.valid_config(m, "rt") for m in st.MODEL_ORDER] == [True, False, False, False],
           "rt is built with COUNT=folded only")
    expect(lib.run_modes("folded", "rt") == ("rt", "rt-lazy")
           and lib.run_modes("off", "none") == ("none", "voluntary"), "run_modes")
    good = st.synth_lines("folded", "rt") + e9_lines("folded", "rt", 1)
    cfg = c.judge(good, model="folded", mode="rt", plan=PLAN)
    expect(cfg.status == "ok", f"folded/rt: {cfg.status}: {cfg.errors}")
    expect(len(lib.find(cfg.results, "uaccess", mode="rt-lazy")) == 6
           and not lib.find(cfg.results, "mode_cost"), "rt's uaccess and mode_cost")
    inv = lib.find(cfg.results, "inversion")
    expect([(r.get("pi"), r.get("high_wait_ns")) for r in inv] == [(1, 979761), (0, 10981677)],
           f"inversion results: {[r.raw for r in inv]}")
    # The refusal is an error in any other mode.
    cfg = c.judge(st.synth_lines("folded", "full") + e9_lines("folded", "full", 1) + [
        "bench mode_cost: cannot start: the switch to none was refused"], plan=PLAN)
    mentions(cfg.errors, "the kernel said: bench mode_cost: cannot start")
    # A mode rt does not run, a mode it runs missing, an inversion line
    # lacking a key or lost.
    none_line = next(l for l in c.lines("sample-good.log")
                     if l.startswith("BENCH uaccess") and " mode=none " in l)
    bad = [l for l in good if not (" mode=rt-lazy " in l and "might_fault=off bytes=64 " in l)
           and not ("BENCH inversion" in l and " pi=0 " in l)]
    bad += [none_line, re.sub(r" high_wait_ns=\S+", "", good[-2]).replace("pi=1", "pi=2"),
            good[-1].replace("pi=0", "pi=3").replace("high_wait_ns=", "high_wait_ns=1x")]
    cfg = c.judge(bad, model="folded", mode="rt", plan=PLAN)
    mentions(cfg.errors, "mode=none (a folded/rt build runs rt, rt-lazy)",
             "no BENCH uaccess mode=rt-lazy might_fault=off bytes=64",
             "inversion line lacks high_wait_ns", "is not a number",
             "missing benchmark: no BENCH inversion pi=0")
    expect(len(cfg.errors) == 5, f"{len(cfg.errors)} errors, not 5: {cfg.errors}")


def test_e9_plan(c):
    """lock goes to latency only; inversion's options to it; the defaults run E9's parts."""
    rb = c.rb
    with tempfile.TemporaryDirectory() as d:        # tests/tools/fakes.py's kernel
        with open(os.path.join(d, "fold_offsets.py"), "w") as f:
            f.write(st.fakes.FAKE_OFFSETS)
        kernel = st.build.kernel_info(f.name)
    p = rb.make_plan(["latency", "userlat", "inversion"], ["none", "lock"], 0,
                     "section_us=500 inversion.medium_us=2000", True, kernel)
    expect(p.commands == ["bench latency load=none section_us=500",
                          "bench latency load=lock section_us=500", "bench userlat load=none",
                          "bench inversion section_us=500 medium_us=2000", "poweroff"],
           str(p.commands))
    try:
        rb.make_plan(["userlat"], ["lock"], 0, "", True, kernel)
    except rb.UsageError as e:
        mentions([str(e)], "load 'lock': expected none, hog")
    else:
        raise Failed("no error for load=lock without bench latency")
    expect("inversion" in rb.DEFAULT_BENCHES and "lock" in rb.DEFAULT_LOADS
           and rb.REPRO_LOADS == ("hog",) and "rt" in rb.benchlib.MODES, "the defaults")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = rb.main(["--models", "percpu ti", "--modes", "rt"])
    expect(status == 2, f"percpu/rt: exit status {status}")
    mentions([err.getvalue()], "PREEMPT=rt is built with COUNT=folded only")


def test_e9_report(c):
    data = rt_data(c)
    bad = {cfg["name"]: cfg["why"] for cfg in data["configs"] if cfg["status"] != "ok"}
    expect(not bad, f"configurations judged not ok: {bad}")
    md = c.rb.report.render(data)
    lat = section(md, "## Wake-up latency")
    r = row(section(lat, "latency max (ns), load=lock, worst CPU, smp=1"), "| **folded** |")
    expect(r.startswith("| **folded** | 1,000,245") and r.endswith("| 1,650 (0.0016×) |"), r)
    r = row(section(lat, "latency max (ns), load=lock, worst CPU, smp=1"), "| **percpu** |")
    expect(r.split(" | ")[-1].startswith("n/a[^"), r)
    mentions([md], "PREEMPT=rt builds with COUNT=percpu, but the matrix builds it with "
             "COUNT=folded only")
    e9 = section(md, E9_TITLE)
    r = row(section(e9, "spinlock_t section, smp=1"), "| **folded** | rt |")
    expect(r == "| **folded** | rt | 1,652 | 1,650 | 1.00× |", r)
    r = row(section(e9, "spinlock_t section, smp=1"), "| **folded** | full |")
    expect(r == "| **folded** | full | 1,620 | 1,000,245 | 617.44× |", r)
    r = row(section(e9, "priority inversion, high's wait for the lock (ns), smp=2"),
            "| **folded** | rt |")
    expect(r == "| **folded** | rt | 1000, 10000 | 979,761 (0.98×) | 30 | 10,981,677 (10.98×) | "
           "0 | met |", r)
    mentions([e9], "**target met** in every configuration judged (30)")
    expect("| **folded** | rt |" in section(md, "## E7: copy_from_user"), "no uaccess row for rt")
    check_footnotes(md)
    # rt's inversion with PI past 1.1x the section: missed, and named.
    doctor(data, "folded-rt-smp1", "inversion", "high_wait_ns", "1200000", pi="1")
    md = c.rb.report.render(data)
    mentions([section(md, E9_TITLE)], "**target missed** in 1 of 30 configurations: "
             "folded/rt smp=1.")
    # A wall clock: the tables, no verdict.
    e9 = section(c.rb.report.render(rt_data(c, clock="wall")), E9_TITLE)
    expect("target met" not in e9 and "Target: not judged" in e9, "a verdict on a wall clock")


def test_e9_plots(c):
    """The plots' data (no gnuplot needed): a histogram per lock-loaded boot, rt a column."""
    d = tempfile.mkdtemp(prefix="fold-bench-selftest-")
    try:
        _, names = c.rb.plots.plan(rt_data(c), d, d, "png")
        expect({"latency-smp1-lock-rt", "latency-smp2-lock-full", "throughput-smp1"}
               <= set(names), f"plots: {names}")
        with open(os.path.join(d, "throughput-smp1.dat")) as f:
            dat = f.read().splitlines()
        expect(dat[0] == "# model none voluntary full lazy rt" and dat[2].endswith(" ?"),
               f"throughput-smp1.dat: {dat[:3]}")
    finally:
        st.shutil.rmtree(d)


E9_CASES = [(f.__name__[5:], f) for f in (test_e9_judge, test_e9_plan, test_e9_report,
                                         test_e9_plots)]


# --------------------------------------------------------------------------
# E9's entry (tools/experiments/e9.py) on canned results
# --------------------------------------------------------------------------

def canned(lib, doctored: dict | None = None) -> list:
    """The BENCH lines of E9's run as a fold with PREEMPT_RT prints them; doctored: {(mode,
    what, key): value}, key=value replaced in mode's lines that have what."""
    lines = []
    for mode, cost in (("full", 1.0), ("lazy", 0.99), ("rt", 1.25)):
        ctx = f"model=folded mode={mode} smp=1 clock=icount"
        lines += [f"BENCH latency {ctx} load=none cpu=0 interval_us=1000 loops=2000 min=634 "
                  "avg=634 p99=635 max=635"]
        lines += [l for l in e9_lines("folded", mode, 1, lock=667 if mode == "rt" else None)
                  if "latency_hist" not in l]
        lines += [f"BENCH throughput {ctx} test=preempt_heavy cpu=0 W=100 p=1 ops=1000000 "
                  f"ns_per_op={103 * cost:.2f} ops_per_sec=9708737",
                  f"BENCH throughput {ctx} test=ctxsw_same cpus=0,0 roundtrips=10000 "
                  f"ns_per_roundtrip={2345 * cost:.2f}",
                  f"BENCH hackbench {ctx} where=kernel groups=2 fds=4 loops=100 depth=16 "
                  f"ops=3200 ns=2516624 ops_per_sec={1271544.74 / cost:.2f} invol_per_op=0.1",
                  f"BENCH ipc {ctx} test=call placement=same bytes=0 calls=10000 "
                  f"ns_per_call={1386.01 * cost:.2f}"]
    for (mode, what, key), value in (doctored or {}).items():
        lines = [re.sub(rf"\b{key}=\S+", f"{key}={value}", l)
                 if f" mode={mode} " in l and what in l else l for l in lines]
    parsed = lib.parse_lines(lines)
    expect(not parsed.errors, f"canned lines: {parsed.errors}")
    return parsed.results


def entry_checks():
    """(ok, what, detail) for each test of E9's entry on canned lines."""
    import benchlib
    import e9
    e = e9.entry(canned(benchlib), e9.COMMAND, True)
    yield (e.verdict == "borne out" and not e.missing, "E9: borne out by canned figures",
           f"{e.verdict}: {e.why} {e.missing}")
    yield (all(t in e.figure for t in ("| rt | 635 | 667 | 1.05x |",
                                       "| full | 635 | 1,000,245 | 1575.19x |",
                                       "| rt | on | 979,761 | 0.98x | 30 |",
                                       "| full | off | 10,981,677 | 10.98x | 0 |",
                                       "| hackbench, ops/s (kernel) | 1,271,544.74 | "
                                       "1,017,235.79 | 0.80x |")),
           "E9: the latency, inversion and cost tables", e.figure)
    yield ("what rt costs against full: preempt_heavy, ns per op 25 % worse" in e.why
           and "hackbench, ops/s (kernel) 20 % worse" in e.why, "E9: the cost, said", e.why)
    e = e9.entry(canned(benchlib, {("rt", "load=lock", "max"): "1500000"}), e9.COMMAND, True)
    yield (e.verdict == "partly" and "fails: rt's max under load=lock <= 2x" in e.why,
           "E9: rt waiting for the section: partly", f"{e.verdict}: {e.why}")
    bad = {("rt", "load=lock", "max"): "1500000", ("full", "load=lock", "max"): "999999",
           ("full", "inversion", "high_wait_ns"): "9999999",
           ("rt", "inversion", "high_wait_ns"): "9999999"}
    e = e9.entry(canned(benchlib, bad), e9.COMMAND, True)
    yield (e.verdict == "not borne out", "E9: every check doctored: not borne out",
           f"{e.verdict}: {e.why}")
    e = e9.entry([r for r in canned(benchlib) if r.bench != "inversion"], e9.COMMAND, True)
    yield (e.missing == "the run printed no figure for: inversion full",
           "E9: no inversion lines: missing", e.missing)
    e = e9.entry([], e9.COMMAND, False)
    yield (bool(e.missing) and not e.required,
           "E9: a kernel without its benchmarks: missing, not required", f"{e.missing}")
    yield (e9.present({"inversion": ("section_us",), "latency": ("loops", "section_us")})
           and not e9.present({"latency": ("loops",)}), "E9: present() reads the options", "")


def entry_main() -> int:
    return run_entry_checks(entry_checks, "E9")


def merged(*mains) -> int:
    """Run self-test mains one after another, their lines as they print them but one closing
    'N passed, N failed' line for all."""
    total, status = [0, 0], 0
    for main in mains:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status |= main()
        for line in out.getvalue().splitlines():
            m = re.fullmatch(r"(\d+) passed, (\d+) failed", line.strip())
            if m:
                total[0] += int(m.group(1))
                total[1] += int(m.group(2))
            else:
                print(line, flush=True)
    print(summary_line(*total))
    return 1 if status or total[1] else 0


if __name__ == "__main__":
    sys.exit("run by tools/bench/run-bench --self-test and tools/experiments/run-experiments "
             "--self-test")
