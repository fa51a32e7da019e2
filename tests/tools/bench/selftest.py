"""Self-tests for tools/bench/run-bench, on canned serial logs.

Run them with:  tools/bench/run-bench --self-test [-v]

The canned logs (tests/tools/bench/sample-*.log) are what the kernel prints for
folded/full under icount with the plan

    bench preempt; bench latency load=none histogram=1000;
    bench latency load=hog histogram=1000; bench throughput;
    bench uaccess; bench syscall; bench userlat load=none;
    bench userlat load=hog; poweroff

sample-good.log (smp=1) and sample-good-smp2.log (smp=2) are complete;
sample-missing.log lacks four results; sample-malformed.log has four broken
BENCH lines. The last case runs run-bench whole, with tests/tools/fakes.py's
make and this file's QEMU (tests/tools/fakes.py's, writing a log made from
the good samples), one of the boots hanging until its timeout. The cases
of the user-space, E8 and IPC sections follow the general ones (USER_CASES,
E8_CASES, IPC_CASES), then E9's (E9_CASES, in e9_selftest.py).

Run as a program, this file is that QEMU:
    selftest.py fake-qemu -- QEMU-ARGS     (FAKE_HANG=<config name> hangs)
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
THIS = os.path.abspath(__file__)
if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))

from tools.lib import build, qemu, serial, summary_line  # noqa: E402
from tests.tools import fakes  # noqa: E402
SAMPLE_PLAN = ["bench preempt", "bench latency load=none histogram=1000",
               "bench latency load=hog histogram=1000", "bench throughput",
               "bench uaccess", "bench syscall", "bench userlat load=none",
               "bench userlat load=hog", "bench hackbench",
               "bench wakeup_hog", "bench mode_cost", "poweroff"]


def sample(name: str) -> str:
    return os.path.join(HERE, name)


# ---------------------------------------------------------------------------
# Logs for any configuration, made from the good samples
# ---------------------------------------------------------------------------

MODEL_ORDER = ("folded", "percpu", "ti", "off")
MODE_ORDER = ("none", "voluntary", "full", "lazy")
SCALED = ("ns_per_irq", "ns_per_op", "ns_per_roundtrip", "max", "p99", "avg",
          "ns_per_copy", "ns_per_call", "min_ns", "avg_ns", "max_ns",
          "ops_per_sec", "invol_per_op")


def synth_log(model: str, mode: str, smp: int) -> bytes:
    """sample-good(-smp2).log as model/mode would print it, with figures
    that differ per configuration (off/none the smallest). PREEMPT_RT
    (mode rt) runs full and lazy only, named rt and rt-lazy, and refuses
    mode_cost's switch to none."""
    name = "sample-good.log" if smp == 1 else "sample-good-smp2.log"
    with open(sample(name), "rb") as f:
        text = f.read().decode()
    factor = 1 + 0.03 * MODEL_ORDER.index(model) + 0.01 * (MODE_ORDER + ("rt",)).index(mode)
    runs = ({"full": "rt", "lazy": "rt-lazy"} if mode == "rt" else
            {m: m for m in MODE_ORDER if model != "off" or m in ("none", "voluntary")})
    if (model, mode) == ("off", "none"):
        factor = 0.97

    def scale(m):
        key, value = m.group(1), m.group(2)
        if "." in value:
            return f"{key}={float(value) * factor:.2f}"
        return f"{key}={round(int(value) * factor)}"
    out = []
    for line in text.split("\n"):
        if mode == "rt" and line.startswith(("BENCH mode_cost ", "bench mode_cost: ")):
            if line.startswith("bench mode_cost: "):
                out.append("bench mode_cost: cannot start: the switch to none was refused")
            continue
        if line.startswith("BENCH mode_cost "):
            # Its mode= is the mode measured: none, whatever the build's.
            line = line.replace("model=folded", f"model={model}")
        elif line.startswith("BENCH uaccess "):
            # Its mode= is the mode measured: every one the build can run.
            measured = re.search(r" mode=(\S+) ", line).group(1)
            if measured not in runs:
                continue
            line = line.replace(f"model=folded mode={measured} ",
                                f"model={model} mode={runs[measured]} ")
        elif line.startswith("BENCH "):
            line = line.replace("model=folded mode=full",
                                f"model={model} mode={mode}")
        if line.startswith("BENCH "):
            line = re.sub(r"\b(" + "|".join(SCALED) + r")=([0-9.]+)", scale,
                          line)
        out.append(line)
    return "\n".join(out).encode()


# ---------------------------------------------------------------------------
# The fakes
# ---------------------------------------------------------------------------

def fake_qemu(argv: list[str]) -> int:
    """tests/tools/fakes.py's QEMU, with the log of the configuration it is
    asked to boot (the ISO is <model>-<mode>.iso)."""
    def behaviour(q, b):
        model, mode = os.path.basename(q.get("-cdrom"))[:-4].split("-")
        b.log = synth_log(model, mode, q.smp)
        b.hang = os.environ.get("FAKE_HANG") == f"{model}-{mode}-smp{q.smp}"
        return b
    return fakes.fake_qemu(argv, behaviour)


# A kernel for the routing tests, with its own numbers: run-bench reads
# the real ones from the build (test_real_kernel, and lib-kernel-info in
# tests/run --self-test).
TEST_KERNEL = build.KernelInfo(
    cmdline_max=511, autorun_max=255, shell_line_max=128,
    kernel_options=("loglevel", "preempt", "test", "autorun", "idle", "hz",
                    "maxcpus", "clock"),
    bench_options={"preempt": ("iters", "irq_iters"),
                   "latency": ("interval", "loops", "load", "hog_points",
                               "hog_run", "histogram"),
                   "throughput": ("ops", "W", "p", "lock_every", "rounds"),
                   "uaccess": ("iters",), "syscall": ("calls",),
                   "userlat": ("interval", "loops", "load")},
    source="TEST_KERNEL")


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------

class Failed(Exception):
    pass


def expect(cond: bool, what: str) -> None:
    if not cond:
        raise Failed(what)


def mentions(texts: list[str], *needles: str) -> None:
    joined = "\n".join(texts)
    for n in needles:
        expect(n in joined, f"expected a mention of {n!r} in:\n    "
               + "\n    ".join(texts or ["(nothing)"]))


class Cases:
    def __init__(self, rb):
        self.rb = rb                    # the run-bench module
        self.lib = rb.benchlib

    def lines(self, name: str) -> list[str]:
        return serial.read_log(sample(name))

    def judge(self, lines, smp=1, model="folded", mode="full", icount=True,
              boot=None, plan=SAMPLE_PLAN):
        cfg = self.rb.Config(model, mode, smp)
        boot = boot or qemu.Boot(exit_code=1, seconds=1.0)
        self.rb.judge(cfg, lines, boot, self.rb.Plan(list(plan), [], icount),
                      300)
        return cfg

    # -- parsing ---------------------------------------------------------

    def test_good_log(self):
        cfg = self.judge(self.lines("sample-good.log"))
        expect(cfg.status == "ok", f"status {cfg.status}: {cfg.errors}")
        expect(len(cfg.results) == 46, f"{len(cfg.results)} results, not 46")
        r = self.lib.find(cfg.results, "throughput", test="preempt_heavy")[0]
        expect(r.get("ns_per_op") == 103.0 and r.get("W") == 100, str(r))
        h = self.lib.find(cfg.results, "latency_hist", load="hog")[0]
        expect(h.get("counts") == [1500, 500], str(h.get("counts")))

    def test_good_log_smp2(self):
        cfg = self.judge(self.lines("sample-good-smp2.log"), smp=2)
        expect(cfg.status == "ok", f"status {cfg.status}: {cfg.errors}")
        expect(len(cfg.results) == 53, f"{len(cfg.results)} results, not 53")
        worst = self.lib.figure(cfg.results, "latency", "max", worst=True,
                                load="hog")
        cpu0 = self.lib.figure(cfg.results, "latency", "max", load="hog")
        expect((worst, cpu0) == (1817, 1800), f"worst {worst}, cpu0 {cpu0}")

    def test_missing_benchmark(self):
        cfg = self.judge(self.lines("sample-missing.log"))
        expect(cfg.status == "errors", f"status {cfg.status}")
        mentions(cfg.errors, "missing benchmark: no BENCH throughput "
                 "test=ctxsw_same", "no BENCH latency_hist load=hog cpu=0",
                 "no BENCH uaccess mode=voluntary might_fault=off bytes=64",
                 "no BENCH userlat load=hog",
                 "no BENCH wakeup_hog class=normal")
        expect(len(cfg.errors) == 5, f"{len(cfg.errors)} errors, not 5: "
               f"{cfg.errors}")

    def test_malformed_line(self):
        cfg = self.judge(self.lines("sample-malformed.log"))
        expect(cfg.status == "errors", f"status {cfg.status}")
        mentions(cfg.errors, "line 24: ns_per_irq=41x.37 is not a number",
                 "line 57: 'p99' is not key=value",
                 "missing benchmark: no BENCH irq",
                 "missing benchmark: no BENCH latency load=hog cpu=0",
                 "line 102: ns_per_call=12a.06 is not a number",
                 "line 105: userlat line lacks avg_ns",
                 "missing benchmark: no BENCH syscall",
                 "missing benchmark: no BENCH userlat load=none",
                 "invol_per_op=0.25o0 is not a number",
                 "missing benchmark: no BENCH hackbench where=kernel")
        expect(len(cfg.errors) == 12, f"{len(cfg.errors)} errors, not 12: "
               f"{cfg.errors}")
        expect(len(cfg.results) == 41, f"{len(cfg.results)} results, not 41")

    def test_grammar(self):
        bad = {
            "BENCH": "without a benchmark name",
            "BENCH Latency model=a": "is not a benchmark name",
            "BENCH irq model=folded model=ti mode=full smp=1 clock=icount "
            "iters=1 ns_per_irq=1.00": "given twice",
            "BENCH irq mode=full smp=1 clock=icount iters=1 ns_per_irq=1.00":
                "lacks model",
            "BENCH latency_hist model=f mode=f smp=1 clock=icount load=none "
            "cpu=0 bucket_us=1 overflow=0 counts=1,,2": "not a comma-separated",
            "BENCH irq model=f mode=f smp=1 clock=icount iters=1 "
            "ns_per_irq=1,5": "is not a number",
            "BENCH irq model=f mode=f smp=1 clock=icount iters=1 "
            "ns_per_irq=": "is not key=value",
            "BENCH throughput model=f mode=f smp=1 clock=icount "
            "test=ctxsw_same roundtrips=1 ns_per_roundtrip=1.00":
                "cpu (or cpus)",
            "[    1.000] 0: oops BENCH irq": "not at the start of the line",
        }
        for line, why in bad.items():
            p = self.lib.parse_lines(["boot", line])
            mentions(p.errors, "line 2", why)
            expect(not p.results, f"{line!r} gave a result")
        p = self.lib.parse_lines([
            "[    1.234567] 0: BENCH irq model=f mode=f smp=1 clock=wall "
            "iters=5 ns_per_irq=2.50 extra=word",
            "BENCH newbench model=f mode=f smp=1 clock=wall speed=11"])
        expect(not p.errors, str(p.errors))
        expect(p.results[0].get("extra") == "word", "unknown key not kept")
        expect(p.results[1].get("speed") == 11, "unknown benchmark not kept")
        mentions(p.warnings, "unknown benchmark 'newbench'")
        # Every sample past the last bucket: an empty list, not an error.
        p = self.lib.parse_lines([
            "BENCH latency_hist model=f mode=f smp=1 clock=icount load=hog "
            "cpu=0 bucket_us=1 overflow=2000 counts="])
        expect(not p.errors and p.results[0].get("counts") == [],
               f"empty counts=: {p.errors}")

    def test_wrong_configuration(self):
        lines = self.lines("sample-good.log")
        cfg = self.judge(lines, smp=2)
        mentions(cfg.errors, "smp=1 (expected 2)",
                 "no BENCH throughput test=ctxsw_cross",
                 "no BENCH latency load=none cpu=1")
        cfg = self.judge(lines, icount=False, model="ti", mode="none")
        mentions(cfg.errors, "clock=icount (expected wall)",
                 "model=folded (expected ti)", "mode=full (expected none)")

    def test_kernel_complaint(self):
        lines = self.lines("sample-good.log") + [
            "fold> bench latency lops=5",
            "bench latency: unknown option 'lops' (options: interval loops, "
            "as key=value)",
            "fold> bench sideways", "shell: unknown command 'bnech' (try "
            "'help')"]
        cfg = self.judge(lines)
        expect(cfg.status == "errors", f"status {cfg.status}")
        mentions(cfg.errors, "the kernel said: bench latency: unknown option",
                 "the kernel said: shell: unknown command")
        cfg = self.judge(self.lines("sample-good.log") + [
            "bench latency: 1 CPUs, interval 1000 us, 2000 loops, load none"])
        expect(cfg.status == "ok", f"a progress line taken for an error: "
               f"{cfg.errors}")

    # -- boots ---------------------------------------------------------------

    def test_boot_outcomes(self):
        good = self.lines("sample-good.log")
        B = qemu.Boot
        cfg = self.judge(good[:30], boot=B(timed_out=True, seconds=300))
        expect(cfg.status == "timeout", cfg.status)
        mentions([cfg.why], "timeout after 300 s", "last line")
        mentions(cfg.errors, "missing benchmark")
        cfg = self.judge(good, boot=B(exit_code=0))
        expect(cfg.status == "failed", cfg.status)
        mentions([cfg.why], "triple fault")
        panic = good[:20] + ["[    2.0] 0: PANIC: oops on CPU 0",
                             "Call Trace:", " ffffffff80104a2c panic+0x5c"]
        cfg = self.judge(panic, boot=B(exit_code=5))
        mentions([cfg.why], "kernel panic at log line 21", "PANIC: oops")
        cfg = self.judge([], boot=B(exit_code=1))
        mentions([cfg.why], "the serial log is empty")
        cfg = self.judge(good, boot=B(error="cannot start QEMU (qemu): no"))
        mentions([cfg.why], "cannot start QEMU")
        cfg = self.judge(good[:30], boot=B(exit_code=0, qemu_output="qemu: "
                                           "terminating on signal 15 from pid 1"))
        mentions([cfg.why], "QEMU was killed by signal 15 (SIGTERM)")
        expect(self.rb.format_cfg(cfg).startswith("FAILED"), "not FAILED")

    # -- the plan --------------------------------------------------------------

    def test_plan(self):
        def mp(*args, info=TEST_KERNEL):
            return self.rb.make_plan(*args, info)
        UE = self.rb.UsageError
        p = mp(["preempt", "latency", "throughput"], ["none", "hog"], 500,
               "loops=300 ops=1000 latency.interval=200 hz=250", True)
        expect(p.commands == [
            "bench preempt",
            "bench latency load=none histogram=500 loops=300 interval=200",
            "bench latency load=hog histogram=500 loops=300 interval=200",
            "bench throughput ops=1000", "poweroff"], str(p.commands))
        expect(p.cmdline.startswith('clock=icount autorun="bench preempt;')
               and p.cmdline.endswith('poweroff" hz=250'), p.cmdline)
        p = mp(["latency"], ["none"], 0, "load=pingpong,hog", False)
        expect(p.commands == ["bench latency load=pingpong",
                              "bench latency load=hog", "poweroff"],
               str(p.commands))
        expect(p.cmdline.startswith("clock=wall "), p.cmdline)
        for args, why in (("foo=1", "neither a kernel option"),
                          ("clock=wall", "run-bench sets clock="),
                          ("latency.ops=1", "bench latency has no option"),
                          ("loops", "is not key=value"),
                          ("load=sideways", "load 'sideways'"),
                          ("interval=" + "9" * 120, "longer than the kernel "
                           "shell's 128")):
            try:
                mp(["preempt", "latency", "throughput"], ["none"], 0, args,
                   True)
            except UE as e:
                mentions([str(e)], why)
            else:
                raise Failed(f"no error for {args!r}")
        try:
            mp(["latency"], ["none", "hog", "pingpong"], 2000,
               "hog_points=123456 hog_run=1234567 interval=1000 loops=1000",
               True)
        except UE as e:
            mentions([str(e)], "autorun= would be")
        else:
            raise Failed("no error for an autorun= that is too long")
        # The options and limits are the kernel's (info), nothing else.
        other = dataclasses.replace(
            TEST_KERNEL, shell_line_max=30, cmdline_max=90,
            kernel_options=("test", "autorun", "clock", "hz"),
            bench_options={"latency": ("interval", "load")})
        for benches, args, why in (
                (["latency"], "loops=5", "neither a kernel option (hz) nor an "
                 "option of the benchmarks run (latency: interval load)"),
                (["latency"], "loglevel=7", "neither a kernel option"),
                (["preempt"], "", "no benchmark 'preempt' in the kernel "
                 "(it has: latency)"),
                (["latency"], "interval=123456", "longer than the kernel "
                 "shell's 30"),
                (["latency"], "hz=1000 " * 8, "characters, at most 90")):
            try:
                mp(benches, ["none"], 0, args, True, info=other)
            except UE as e:
                mentions([str(e)], why)
            else:
                raise Failed(f"no error for {benches} {args!r} with {other}")
        try:
            mp(["latency"], ["none"], 0, "", True, info=dataclasses.replace(
                TEST_KERNEL, kernel_options=("test", "clock")))
        except UE as e:
            mentions([str(e)], "the kernel has no option autorun, which "
                     "run-bench needs")
        else:
            raise Failed("no error for a kernel without autorun=")

    def test_real_kernel(self):
        """The build's limits and options (make <tmp>/fold_offsets.py): the
        default plans fit them."""
        d = tempfile.mkdtemp(prefix="fold-bench-selftest-")
        try:
            info = build.fetch_kernel_info(self.rb.ROOT, d, env=build.clean_env())
        except build.BuildError as e:
            raise Failed(str(e)) from None
        finally:
            shutil.rmtree(d)
        rb = self.rb
        for plan in ((list(rb.DEFAULT_BENCHES), list(rb.DEFAULT_LOADS),
                      rb.DEFAULT_HISTOGRAM, "", True),
                     (list(rb.DEFAULT_BENCHES), list(rb.REPRO_LOADS), 0,
                      rb.REPRO_ARGS, True)):
            try:
                p = rb.make_plan(*plan, info)
            except rb.UsageError as e:
                raise Failed(f"{plan}: {e}") from None
            expect(len(p.autorun) <= info.autorun_max, p.autorun)
        expect(set(rb.OURS) <= set(info.kernel_options), str(info))

    # -- results.json, comparing runs --------------------------------------------

    def test_json_and_compare(self):
        res = self.lib.parse_lines(self.lines("sample-good.log")).results
        back = [self.lib.Result.from_json(json.loads(json.dumps(r.to_json())))
                for r in res]
        expect([r.raw for r in back] == [r.raw for r in res], "raw differs")
        expect(back[0].fields == res[0].fields, "fields differ")
        j = res[0].to_json()["fields"]
        expect(j["ns_per_pair"] == 3.0 and j["smp"] == 1, str(j))
        expect(self.rb.compare_runs(res, back) == [], "identical runs differ")
        changed = self.lib.parse_lines(
            [l.replace("ns_per_op=103.00", "ns_per_op=104.00")
             for l in self.lines("sample-good.log")
             if "test=ctxsw_same" not in l]).results
        diffs = self.rb.compare_runs(res, changed)
        mentions(diffs, "throughput test=preempt_heavy cpu=0: "
                 "ns_per_op=103.00 then ns_per_op=104.00",
                 "throughput test=ctxsw_same cpus=0,0: not in the second run")
        expect(len(diffs) == 2, f"{len(diffs)} differences: {diffs}")

    # -- the report and the plots --------------------------------------------------

    def data(self, clock="icount", accel="tcg", fail=(), plan_commands=SAMPLE_PLAN,
             extra=None, modes=MODE_ORDER):
        """results.json's data from the synthetic logs of every configuration
        (every model, every mode of modes that it builds with); extra(model,
        mode, smp): more log lines for each (the benchmarks plan_commands
        adds to the sample's)."""
        rb = self.rb
        plan = rb.Plan(list(plan_commands), [], clock == "icount")
        configs = []
        for model in MODEL_ORDER:
            for mode in modes:
                if not self.lib.valid_config(model, mode):
                    continue
                for smp in (1, 2):
                    cfg = rb.Config(model, mode, smp)
                    cfg.log = f"build/bench/logs/{cfg.name}.log"
                    text = synth_log(model, mode, smp).decode()
                    if extra:
                        text += "\n" + "\n".join(extra(model, mode, smp))
                    if clock != "icount":
                        text = text.replace("clock=icount", "clock=wall")
                    lines = [serial.clean_line(l) for l in text.split("\n")]
                    boot = qemu.Boot(exit_code=1, seconds=12.5)
                    if cfg.name in fail:
                        lines = lines[:len(lines) // 3]
                        boot = qemu.Boot(timed_out=True, seconds=300)
                    rb.judge(cfg, lines, boot, plan, 300)
                    configs.append(cfg.to_json())
        return {"schema": "fold-bench/1", "clock": clock, "accel": accel,
                "icount": clock == "icount", "cmdline": plan.cmdline,
                "autorun": plan.autorun, "models": list(MODEL_ORDER),
                "modes": list(modes), "smp": [1, 2], "configs": configs,
                "git": "abc1234", "seconds": 600.0}

    def test_report(self):
        data = self.data(fail=("percpu-full-smp2",))
        md = self.rb.report.render(data, ["throughput-smp1.png",
                                          "throughput-smp1.svg"])
        heads = [l for l in md.splitlines() if l.startswith("####")]
        expect(len(heads) >= 20, f"only {len(heads)} table headings")
        for h in heads:
            expect(h.endswith("clock: icount (1 virtual ns = 1 instruction)"),
                   f"heading without the clock: {h}")
        mentions([md], "## How to read this", "(baseline)", "×)",
                 "| **percpu** |", "n/a[^", "—[^",
                 "percpu/full smp=2: timeout after 300 s",
                 "COUNT=off has no preempt count",
                 "folded+full loses 5.15 instructions per operation vs "
                 "off+none", "W=100 p=1", "ctxsw_cross: ns per round trip, "
                 "smp=2", "resched_ipi", "![throughput-smp1]"
                 "(throughput-smp1.png)", "load=hog, worst CPU, smp=2")
        expect("ctxsw_cross: ns per round trip, smp=1" not in md,
               "a cross-CPU table for smp=1")
        # The page's sections are the table's entries, in its order: here
        # every one but IPC and the user-level driver (not in the plan).
        report = self.rb.report
        want = [s.title for s in report.SECTIONS
                if s.title not in ("IPC: call+reply and notifications",
                                   "Interrupt to user-level driver",
                                   "E9: PREEMPT_RT and priority inversion")]
        got = [l[3:] for l in md.splitlines() if l.startswith("## ")]
        expect(got == want, f"sections {got}, the table's {want}")
        expect(not re.search(r"issue ?[0-9]", md, re.I), "an issue number")
        # Footnote references and definitions match.
        refs = set(re.findall(r"\[\^(\d+)\](?!:)", md))
        defs = set(re.findall(r"^\[\^(\d+)\]:", md, re.M))
        expect(refs == defs and refs, f"footnotes: used {refs}, defined {defs}")
        # A row of the preempt_heavy table, smp=1: folded/full vs off/none.
        sect = md[md.index("#### preempt_heavy: ns per operation (CPU 0), smp=1"):]
        row = next(l for l in sect.splitlines() if l.startswith("| **folded**"))
        expect("| 103.00 (1.03×) | 104.03 (1.04×) | 105.06 (1.05×) |" in row,
               f"folded row: {row}")
        row = next(l for l in sect.splitlines() if l.startswith("| **off**"))
        expect("99.91 (baseline)" in row and "n/a[^" in row, f"off row: {row}")

    def test_build_kind(self):
        """A run of one build (plan.build) must not take a log of the other:
        the banner says which (init/banner.c); the report says which."""
        good = self.lines("sample-good.log")
        rel = [l.replace("default preemption full)",
                         "default preemption full, release build)") for l in good]
        expect(rel != good, "the sample has no banner to doctor")
        for lines, want, bad in ((good, "debug", False), (rel, "release", False),
                                 (good, "release", True), (rel, "debug", True)):
            cfg = self.rb.Config("folded", "full", 1)
            self.rb.judge(cfg, lines, qemu.Boot(exit_code=1, seconds=1.0),
                          self.rb.Plan(list(SAMPLE_PLAN), [], True, want), 300)
            expect((cfg.status != "ok") == bad, f"{want} run: {cfg.status} {cfg.errors}")
            if bad:
                mentions(cfg.errors, f"this run measures the {want} build")
        data = self.data()
        mentions([self.rb.report.render(data)], "- build: debug (the default")
        data["build"] = "release"
        mentions([self.rb.report.render(data)], "- build: release (RELEASE=1: the checks")

    def test_report_wall(self):
        md = self.rb.report.render(self.data(clock="wall", accel="tcg"))
        heads = [l for l in md.splitlines() if l.startswith("####")]
        expect(heads and all(h.endswith("clock: wall (TCG)") for h in heads),
               "headings: " + " | ".join(heads[:3]))
        mentions([md], "Clock: **wall (TCG)**", "ns per operation vs off+none")
        expect("instructions per operation" not in md, "icount words on wall")

    def test_plots(self):
        if not shutil.which(os.environ.get("GNUPLOT") or "gnuplot"):
            print("    (gnuplot not installed: plots not drawn)")
            return
        d = tempfile.mkdtemp(prefix="fold-bench-selftest-")
        try:
            files, warnings = self.rb.plots.draw(self.data(), d)
            expect(not warnings, f"warnings: {warnings}")
            for name in ("throughput-smp1", "throughput-smp2",
                         "latency-smp2-hog-none", "latency-smp1-none-full"):
                expect(f"{name}.png" in files and f"{name}.svg" in files,
                       f"{name} not drawn: {files}")
                with open(os.path.join(d, f"{name}.png"), "rb") as f:
                    expect(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{name}.png")
                with open(os.path.join(d, f"{name}.svg")) as f:
                    expect("<svg" in f.read(4000), f"{name}.svg")
            expect(len(files) == 2 * (2 + 2 * 2 * len(MODE_ORDER)), f"{len(files)} files")
        finally:
            shutil.rmtree(d)

    # -- run-bench whole, with a fake make and a fake QEMU ---------------------------

    def test_end_to_end(self):
        d = tempfile.mkdtemp(prefix="fold-bench-selftest-")
        saved = {k: os.environ.get(k) for k in
                 ("QEMU", "MAKE", "FAKE_HANG", "MAKEFLAGS")}
        os.environ.update({
            "QEMU": shlex.join([sys.executable, THIS, "fake-qemu", "--"]),
            "MAKE": shlex.join(fakes.make_command(fail_if="COUNT=ti",
                                                  refuse_makeflags=True)),
            "FAKE_HANG": "folded-full-smp2",
            "MAKEFLAGS": "-j9 COUNT=percpu"})
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                status = self.rb.main([
                    # the benchmarks of the sample logs (not ipc, udriver)
                    "--benches", "preempt latency throughput uaccess syscall "
                    "userlat hackbench wakeup_hog mode_cost",
                    "--models", "folded ti off", "--modes", "none,full",
                    "--smp", "1 2", "--loads", "none hog", "--histogram",
                    "1000", "--timeout", "3", "-j", "2", "--out", d])
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        text = out.getvalue()
        try:
            lines = text.rstrip().splitlines()
            expect(status == 1, f"exit status {status}\n{text}")
            expect(lines[-1] == "5 passed, 5 failed", f"last line "
                   f"{lines[-1]!r}\n{text}")
            mentions([text], "build [3/5] COUNT=ti PREEMPT=none ... FAILED",
                     "expected ';' before", "ti/none smp=2 ... not booted",
                     "folded/full smp=2 ... FAILED", "timeout after 3 s",
                     "off/none smp=1 ... ok", "not built: off/full")
            with open(os.path.join(d, "RESULTS.md")) as f:
                md = f.read()
            mentions([md], "| folded/full smp=2 | timeout after 3 s",
                     "folded/full smp=2: timeout after 3 s: the kernel never "
                     "powered off (last line: 'Powering off.'); the figure "
                     "is from its log all the same.",
                     "ti/full smp=1: build failed: init/main.c:12: error")
            with open(os.path.join(d, "results.json")) as f:
                data = json.load(f)
            st = {c["name"]: c["status"] for c in data["configs"]}
            expect(st == {"folded-none-smp1": "ok", "folded-none-smp2": "ok",
                          "folded-full-smp1": "ok",
                          "folded-full-smp2": "timeout",
                          "ti-none-smp1": "build failed",
                          "ti-none-smp2": "build failed",
                          "ti-full-smp1": "build failed",
                          "ti-full-smp2": "build failed",
                          "off-none-smp1": "ok", "off-none-smp2": "ok"} or
                   False, f"statuses: {st}")
        except Failed as e:
            raise Failed(f"{e}\n--- run-bench said ---\n{text}") from None
        finally:
            shutil.rmtree(d)


# --------------------------------------------------------------------------
# Self-tests of the user-space benchmarks (bench uaccess, syscall and
# userlat): the plan's loads, the swept mode of uaccess, the kernel's
# complaints, and RESULTS.md's sections with their targets. Run by
# main() (tools/bench/run-bench --self-test) with Cases,
# whose samples and helpers they use.
    synth_log


def synth_lines(model, mode, smp=1):
    return [serial.clean_line(l)
            for l in synth_log(model, mode, smp).decode().split("\n")]


def test_user_plan(c):
    """Loads go to each benchmark that knows them, histogram= only to the
    one that draws it, a key=value to every benchmark that has it."""
    rb = c.rb
    all6 = ["preempt", "latency", "throughput", "uaccess", "syscall",
            "userlat"]
    p = rb.make_plan(all6, ["none", "pingpong"], 500,
                     "loops=300 iters=5000 calls=1000 userlat.interval=500",
                     True, TEST_KERNEL)
    expect(p.commands == [
        "bench preempt iters=5000",
        "bench latency load=none histogram=500 loops=300",
        "bench latency load=pingpong histogram=500 loops=300",
        "bench throughput", "bench uaccess iters=5000",
        "bench syscall calls=1000",
        "bench userlat load=none loops=300 interval=500", "poweroff"],
        str(p.commands))
    p = rb.make_plan(["latency", "userlat"], ["pingpong"], 0, "", True,
                     TEST_KERNEL)
    expect(p.commands == ["bench latency load=pingpong", "poweroff"],
           str(p.commands))
    for benches, loads, why in (
            (["userlat"], ["pingpong"], "load 'pingpong': expected none, hog "
             "(userlat: none, hog)"),
            (all6, ["sideways"], "latency: none, hog, pingpong, lock, local; userlat: "
             "none, hog")):
        try:
            rb.make_plan(benches, loads, 0, "", True, TEST_KERNEL)
        except rb.UsageError as e:
            mentions([str(e)], why)
        else:
            raise Failed(f"no error for loads {loads} of {benches}")


def test_user_judge(c):
    """bench uaccess reports every mode the model can run: COUNT=off has
    no full, and a mode missing or one the model lacks is an error."""
    lines = synth_lines("off", "none")
    cfg = c.judge(lines, model="off", mode="none")
    expect(cfg.status == "ok", f"off/none: {cfg.errors}")
    expect(len(c.lib.find(cfg.results, "uaccess")) == 12,
           "off/none: not 12 uaccess results")
    full = next(l for l in c.lines("sample-good.log")
                if l.startswith("BENCH uaccess") and " mode=full " in l)
    cfg = c.judge(lines + [full.replace("model=folded", "model=off")],
                  model="off", mode="none")
    mentions(cfg.errors, "uaccess mode=full might_fault=on bytes=8: "
             "mode=full (a off/none build runs none, voluntary)")
    expect(len(cfg.errors) == 1, str(cfg.errors))
    good = c.lines("sample-good.log")
    p = c.lib.parse_lines(good)
    expect(not p.warnings, f"uaccess results taken for repeats: {p.warnings}")
    cfg = c.judge([l for l in good if not (
        l.startswith("BENCH uaccess") and " mode=none " in l
        and "might_fault=on bytes=8 " in l)], model="folded", mode="full")
    mentions(cfg.errors, "no BENCH uaccess mode=none might_fault=on bytes=8")
    expect(len(cfg.errors) == 1, str(cfg.errors))
    cfg = c.judge(good + [
        "fold> bench syscall",
        "bench: cannot start getpid_bench (error -2): is it in this ISO?",
        "bench userlat: no figures in cyclictest's output: ",
        "bench: cyclictest failed (status 0x200): usage"])
    mentions(cfg.errors, "the kernel said: bench: cannot start getpid_bench",
             "the kernel said: bench userlat: no figures",
             "the kernel said: bench: cyclictest failed (status 0x200)")
    expect(len(cfg.errors) == 3, str(cfg.errors))


def section(md: str, title: str) -> str:
    start = md.index(title)
    end = md.find("\n## ", start + 1)
    return md[start:end if end >= 0 else len(md)]


def row(text: str, start: str) -> str:
    return next((l for l in text.splitlines() if l.startswith(start)),
                f"(no row {start!r})")


def check_footnotes(md: str) -> None:
    refs = set(re.findall(r"\[\^(\d+)\](?!:)", md))
    defs = set(re.findall(r"^\[\^(\d+)\]:", md, re.M))
    expect(refs == defs, f"footnotes: used {refs}, defined {defs}")


def test_user_report(c):
    data = c.data(fail=("percpu-full-smp2",))
    md = c.rb.report.render(data)
    sc = section(md, "## Null system call")
    mentions([sc], "#### syscall: ns per getpid round trip, smp=1 — clock: "
             "icount", "smp=1: Target (≤ 150 instructions per call): "
             "**target met** in every configuration judged (14; the largest: "
             "136.47, off/voluntary)")
    expect("| **folded** | 124.06 (1.03×) |" in sc, row(sc, "| **folded**"))
    mentions([sc], "Target: at most 150 instructions.")
    t = c.rb.report.TARGETS
    expect(t["syscall"].ok(150) and not t["syscall"].ok(150.01)
           and t["userlat"].ok(1.5) and not t["userlat"].ok(1.51),
           "the syscall and userlat targets are not 150 and 1.5×")
    e7 = section(md, "## E7: copy_from_user")
    expect(row(e7, "| **folded** | none |") ==
           "| **folded** | none | 68.02 | 50.02 | 124.07 | 106.05 | "
           "4,158.10 | 4,140.10 | +18.00 / +18.02 / +18.00 |",
           row(e7, "| **folded** | none |"))
    expect("| **off** | full" not in e7, "a uaccess row for off/full")
    ul = section(md, "## User-space wake-up latency")
    mentions([ul], "smp=1, load=none: Target (user avg ≤ 1.5× kernel avg): "
             "**target met**", "smp=2, load=hog: Target (user avg ≤ 1.5× "
             "kernel avg): **target missed** in 13 of 13 configurations")
    r = row(section(ul, "load=none, smp=2"), "| **percpu** | full")
    expect(re.fullmatch(r"\| \*\*percpu\*\* \| full\[\^\d+\] \| (—\[\^\d+\] \| )"
                        r"{3}722 \| — \| — \|", r), r)
    mentions([md], "percpu/full smp=2: timeout after 300 s")
    r = row(section(ul, "load=none, smp=1"), "| **folded** | none |")
    expect(r == "| **folded** | none | 844 | 844 | 845 | 688 | 1.23× | met |",
           r)
    expect("| prio |" not in ul, "a prio column without a prio key")
    check_footnotes(md)

    # One figure over the target: missed, and named.
    for cfg in data["configs"]:
        if cfg["name"] == "ti-voluntary-smp1":
            for res in cfg["results"]:
                if res["bench"] == "syscall":
                    res["raw"] = re.sub(r"ns_per_call=\S+", "ns_per_call="
                                        "151.00", res["raw"])
                if res["bench"] == "userlat":
                    res["raw"] += " prio=90"
    md = c.rb.report.render(data)
    mentions([md], "smp=1: Target (≤ 150 instructions per call): **target "
             "missed** in 1 of 14 configurations: ti/voluntary (151.00).")
    ul = section(md, "## User-space wake-up latency")
    r = row(section(ul, "load=none, smp=1"), "| **ti** | voluntary |")
    expect(r.startswith("| **ti** | voluntary | 90 | 903 |"), r)
    mentions([ul], "| model | mode | prio | min |")
    check_footnotes(md)

    # Under a wall clock the figures are shown, the targets not judged.
    md = c.rb.report.render(c.data(clock="wall"))
    mentions([md], "Target: not judged. The targets are instruction counts")
    expect("target met" not in md and "target missed" not in md,
           "a target judged on a wall clock")


def test_user_report_one_boot(c):
    """One boot of folded/full: E7 still has every mode (measured in that
    boot, footnoted), and a missing kernel latency shows a dash."""
    rb = c.rb
    plan = rb.Plan([l for l in SAMPLE_PLAN if "latency load=hog" not in l],
                   [], True)
    cfg = rb.Config("folded", "full", 1)
    lines = [l for l in c.lines("sample-good.log")
             if not (l.startswith("BENCH latency") and " load=hog " in l)]
    rb.judge(cfg, lines, qemu.Boot(exit_code=1, seconds=1.0), plan, 300)
    expect(cfg.status == "ok", f"{cfg.status}: {cfg.errors}")
    data = {"schema": "fold-bench/1", "clock": "icount", "accel": "tcg",
            "icount": True, "cmdline": plan.cmdline, "autorun": plan.autorun,
            "models": ["folded"], "modes": ["full"], "smp": [1],
            "configs": [cfg.to_json()]}
    md = rb.report.render(data)
    e7 = section(md, "## E7: copy_from_user")
    r = row(e7, "| **folded** | none[^")
    expect(r.endswith("| 68.02 | 50.02 | 124.07 | 106.05 | 4,158.10 | "
                      "4,140.10 | +18.00 / +18.02 / +18.00 |"), r)
    mentions([md], "folded smp=1: mode none as measured in the folded/full "
             "boot")
    ul = section(md, "## User-space wake-up latency")
    r = row(section(ul, "load=hog, smp=1"), "| **folded** | full |")
    expect(r.startswith("| **folded** | full | 3,752 | 2,001,476 | ")
           and r.endswith("| — | — |"), r)
    mentions([md], "folded/full smp=1: no `bench latency load=hog` figure")
    check_footnotes(md)


USER_CASES = [(f.__name__[5:], f) for f in (test_user_plan, test_user_judge,
                                       test_user_report,
                                       test_user_report_one_boot)]


# --------------------------------------------------------------------------
# Self-tests of E8's section of RESULTS.md (its SECTIONS entry in tools/bench/report.py):
# the table from every mode's figures, and the claim's verdict computed from
# them: borne out when lazy meets all three tests, not borne out (naming
# the test) when one figure is doctored past its bound, not judged under a
# wall clock. Run by main() with Cases.
def doctor(data, name, bench, key, value, **ident):
    """Set key=value on configuration name's BENCH bench line(s) matching ident."""
    hits = 0
    for cfg in data["configs"]:
        if cfg["name"] != name:
            continue
        for res in cfg["results"]:
            if res["bench"] == bench and all(
                    f" {k}={v} " in res["raw"] + " " for k, v in ident.items()):
                res["raw"] = re.sub(rf"\b{key}=\S+", f"{key}={value}", res["raw"])
                hits += 1
    expect(hits, f"no {bench} {ident} line in {name}")


def test_e8_report(c):
    data = c.data()
    # The synthetic logs scale every figure with the mode; make lazy's
    # involuntary switches the fewest, as the real lazy's are.
    for smp in (1, 2):
        for model in ("folded", "percpu", "ti"):
            doctor(data, f"{model}-lazy-smp{smp}", "hackbench", "invol_per_op", "0.0100")
    md = c.rb.report.render(data)
    e8 = section(md, "## E8: lazy preemption")
    mentions([e8], "#### E8, COUNT=folded, smp=1 — clock: icount",
             "- throughput: met: lazy 1,187,849 ops/s = 1.030x none's 1,153,251",
             "- switches: met: lazy 0.0100 involuntary switches per message, "
             "full 0.2600 (fewer than full)",
             "- latency: met: FIFO max lazy 805 ns = 1.009x full's 798 (at most 1.1x)",
             "E8's claim: **borne out** in every configuration judged (6)")
    expect("COUNT=off" not in e8, "an E8 table for COUNT=off (no lazy)")
    r = row(section(e8, "COUNT=folded, smp=1"), "| **lazy** |")
    expect(r.startswith("| **lazy** | 1,187,848.77 (1.03×) | 0.0100 | 805 (1.01×) |"), r)
    r = row(section(e8, "mode_cost, none mode, smp=1"), "| **folded** |")
    expect(r == "| **folded** | 108.05 | 110.05 | +2.00 | 7.00 | 9.00 | +2.00 |", r)

    # Lazy's throughput 2 % under none's: the claim is not borne out, and
    # the table says which configuration and which test.
    doctor(data, "ti-lazy-smp2", "hackbench", "ops_per_sec", "1130186.21")
    # and its FIFO latency over 1.1x full's
    doctor(data, "percpu-lazy-smp1", "wakeup_hog", "max", "950", **{"class": "fifo"})
    md = c.rb.report.render(data)
    mentions([md], "- throughput: **missed**: lazy 1,130,186 ops/s = 0.925x none's",
             "- latency: **missed**: FIFO max lazy 950 ns",
             "E8's claim: **not borne out**: percpu/1 latency, ti/2 throughput missed.")

    # Under a wall clock: the table, no verdict.
    md = c.rb.report.render(c.data(clock="wall"))
    e8 = section(md, "## E8: lazy preemption")
    mentions([e8], "Not judged: the figures are wall-clock times")
    expect("borne out" not in e8, "a verdict on a wall clock")


E8_CASES = [("e8_report", test_e8_report)]


# --------------------------------------------------------------------------
# Self-tests of the IPC sections of RESULTS.md (tools/bench/report.py's entries):
# `bench ipc` and `bench udriver` lines added to the synthetic logs of every
# configuration, the plan's expected results (a missing cross-CPU line is an
# error with two CPUs, not with one), the table, and the targets judged from
# the figures: the quarter of Linux's futex round trip met and 400 missed
# with today's figures, both met when the same-CPU figure is doctored to
# 390, and nothing judged under a wall clock. Run by main() with
# Cases.
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
             "(same-CPU call+reply ≤ 545 instructions): **target missed** in 28 of 28",
             "Target: the same-CPU round trip with no payload at most 545 instructions")
    got = [l[3:] for l in md.splitlines() if l.startswith("## ")]
    expect(got == [s.title for s in c.rb.report.SECTIONS
                   if s.title not in ("Plots", "E9: PREEMPT_RT and priority inversion")],
           f"sections {got}")
    one = ipc[ipc.index("smp=1 — clock"):ipc.index("smp=2 — clock")]
    expect("call cross" not in one, "a cross-CPU column with one CPU")
    ud = section(md, "## Interrupt to user-level driver")
    mentions([ud], "| **folded** | none | 800.16 / 813 | 893.20 / 907 | 441.00 / 441 |")

    # The same-CPU figure doctored to 390: both targets met.
    md = c.rb.report.render(data(c, same0="390.00"))
    mentions([md], "(same-CPU call+reply ≤ 545 instructions): **target met** in every "
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


IPC_CASES = [("ipc_report", test_ipc_report)]


def main(rb, verbose: bool = False) -> int:
    from e9_selftest import E9_CASES     # it imports this module
    cases = Cases(rb)
    names = [n for n in dir(cases) if n.startswith("test_")]
    names.sort(key=lambda n: Cases.__dict__[n].__code__.co_firstlineno)
    tests = [(n[5:], getattr(cases, n)) for n in names] + [
        (label, lambda f=f: f(cases)) for label, f in
        USER_CASES + E8_CASES + IPC_CASES + E9_CASES]
    tally = {True: 0, False: 0}
    for label, test in tests:
        start = time.monotonic()
        try:
            test()
            ok, why = True, ""
        except Failed as e:
            ok, why = False, str(e)
        except Exception:               # noqa: BLE001
            ok, why = False, traceback.format_exc()
        tally[ok] += 1
        secs = time.monotonic() - start
        print(f"{'ok' if ok else 'FAIL'}: {label}"
              + (f" ({secs:.1f} s)" if verbose or secs > 1 else ""))
        for line in why.rstrip().splitlines():
            print("    " + line)
    print(summary_line(tally[True], tally[False]))
    return 0 if tally[False] == 0 else 1


if __name__ == "__main__":
    if sys.argv[1:2] != ["fake-qemu"]:
        sys.exit("usage: selftest.py fake-qemu -- ARGS "
                 "(the self-tests: tools/bench/run-bench --self-test)")
    sys.exit(fake_qemu(sys.argv[2:]))


def run_entry_checks(entry_checks, label: str) -> int:
    """Print an experiment entry's self-checks ((ok, what, detail) from the
    generator entry_checks()), one line each, then the summary; 1 if any
    failed (a Failed raised midway is one failure)."""
    checks = []
    try:
        for c in entry_checks():
            checks.append(c)
    except Failed as e:
        checks.append((False, f"{label}: canned lines", str(e)))
    for ok, what, detail in checks:
        print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": {detail}"), flush=True)
    failed = sum(not ok for ok, _, _ in checks)
    print(summary_line(len(checks) - failed, failed))
    return 1 if failed else 0
