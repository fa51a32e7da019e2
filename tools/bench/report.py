"""The Markdown report of a benchmark run (build/bench/RESULTS.md).

Input: the dictionary run-bench writes to results.json. Every table has
rows = count models and columns = preemption modes, one table per metric
and CPU count, with the ratio to the off/none baseline; every table heading
names the clock. A configuration that failed, or a figure its log lacks,
shows "—" and a footnote saying why.
"""

from __future__ import annotations

import os

import benchlib
import report_e8
import report_ipc
import report_user
from benchlib import Result

DASH = "—"


def clock_label(data: dict) -> str:
    if data["clock"] == "icount":
        return "icount (1 virtual ns = 1 instruction)"
    return f"wall ({data['accel'].upper()})"


def unit(data: dict) -> str:
    return "instructions" if data["clock"] == "icount" else "ns"


class Notes:
    """Markdown footnotes, numbered in order of first use, one per text."""

    def __init__(self):
        self.texts: list[str] = []

    def ref(self, text: str) -> str:
        if text not in self.texts:
            self.texts.append(text)
        return f"[^{self.texts.index(text) + 1}]"

    def render(self) -> list[str]:
        return [f"[^{i}]: {t}" for i, t in enumerate(self.texts, 1)]


class Run:
    """results.json, indexed: configs by (model, mode, smp)."""

    def __init__(self, data: dict):
        self.data = data
        self.models = [m for m in benchlib.MODELS if m in data["models"]] + \
            [m for m in data["models"] if m not in benchlib.MODELS]
        self.modes = [m for m in benchlib.MODES if m in data["modes"]] + \
            [m for m in data["modes"] if m not in benchlib.MODES]
        self.smps = sorted(data["smp"])
        self.configs = {(c["model"], c["mode"], c["smp"]): c
                        for c in data["configs"]}
        self.results = {k: [Result.from_json(r) for r in c["results"]]
                        for k, c in self.configs.items()}

    def value(self, model, mode, smp, bench, key, worst=False, **ident):
        res = self.results.get((model, mode, smp))
        if res is None:
            return None
        return benchlib.figure(res, bench, key, worst=worst, **ident)

    def why_missing(self, model, mode, smp) -> str:
        """The footnote for an empty cell."""
        name = f"{model}/{mode} smp={smp}"
        if not benchlib.valid_config(model, mode):
            return ("COUNT=off has no preempt count, so the build refuses "
                    "PREEMPT=full: there is no such configuration.")
        c = self.configs.get((model, mode, smp))
        if c is None:
            return f"{name} was not run."
        log = f" (log: `{c['log']}`)" if c.get("log") else ""
        if c["status"] == "ok":
            return f"{name}: its log has no such result{log}."
        return f"{name}: {c['why']}{log}."


def fmt(v) -> str:
    if v is None:
        return DASH
    if isinstance(v, float):
        return f"{v:,.2f}"
    return f"{v:,}"


def ratio(v, base) -> str:
    if v is None or not base:
        return ""
    r = v / base
    # Two decimals, or two significant digits for a tiny ratio (0.00018×).
    return f" ({r:.2f}×)" if r >= 0.095 else f" ({r:.2g}×)"


def grid(run: Run, notes: Notes, smp: int, get, *, baseline: bool = True,
         first_col: str = "model \\ mode") -> list[str]:
    """A models x modes table; get(model, mode) -> number or None."""
    base = get(*benchlib.BASELINE) if baseline else None
    out = ["| " + " | ".join([first_col] + run.modes) + " |",
           "|" + "---|" * (len(run.modes) + 1)]
    for model in run.models:
        cells = [f"**{model}**"]
        for mode in run.modes:
            if not benchlib.valid_config(model, mode):
                cells.append("n/a" + notes.ref(run.why_missing(model, mode, smp)))
                continue
            v = get(model, mode)
            if v is None:
                cells.append(DASH + notes.ref(run.why_missing(model, mode, smp)))
                continue
            if baseline and (model, mode) == benchlib.BASELINE:
                cell = fmt(v) + " (baseline)"
            else:
                cell = fmt(v) + ratio(v, base)
            c = run.configs.get((model, mode, smp))
            if c is not None and c["status"] != "ok":
                cell += notes.ref(f"{model}/{mode} smp={smp}: {c['why']}; "
                                  "the figure is from its log all the same.")
            cells.append(cell)
        out.append("| " + " | ".join(cells) + " |")
    if baseline and base is None:
        out.append("")
        out.append("No ratios: the baseline off/none "
                   + ("was not run." if "off" not in run.models
                      or "none" not in run.modes else "has no figure."))
    return out


def heading(data: dict, title: str, smp: int | None = None) -> str:
    where = f", smp={smp}" if smp is not None else ""
    return f"#### {title}{where} — clock: {clock_label(data)}"


def render(data: dict, plots: list[str] | None = None) -> str:
    run = Run(data)
    notes = Notes()
    u = unit(data)
    icount = data["clock"] == "icount"
    L: list[str] = []
    add = L.append

    add("# fold benchmark results")
    add("")
    add("## How to read this")
    add("")
    if icount:
        add("Clock: **icount**. QEMU ran with `-icount shift=0,sleep=off`, so "
            "the guest's clock advances by exactly 1 ns per guest instruction: "
            "every figure below in \"ns\" is a count of instructions, the same "
            "on every run and every host. They measure path length, not "
            "hardware speed: a cache miss or a pipeline stall costs nothing "
            "here, and under icount QEMU runs the virtual CPUs one at a time, "
            "so cross-CPU figures (ctxsw_cross, resched_ipi, latency with "
            "smp=2) add up the instructions both CPUs executed, and an IPI "
            "itself costs no time.")
    else:
        add(f"Clock: **wall ({data['accel'].upper()})**. QEMU ran without "
            "-icount, so every figure is host wall-clock time as the guest "
            "saw it: it varies from run to run and with the host's load; "
            "compare figures of one run only, and repeat a run before "
            "believing a difference of a few per cent.")
    add("")
    add("Each table has the count models as rows (`COUNT=`: `folded` is the "
        "per-CPU count with the inverted need-resched bit folded in, "
        "`percpu` the per-CPU count with a separate flag, `ti` the count in "
        "thread_info, `off` no count at all) and the preemption modes as "
        "columns (`PREEMPT=`). Lower is better everywhere. The figure in "
        "parentheses is the ratio to the `off`/`none` cell of the same table, "
        "the kernel that does the least preemption bookkeeping. "
        f"`{DASH}` marks a figure that is missing (the footnote says why); "
        "`n/a` a configuration that cannot be built (COUNT=off with "
        "PREEMPT=full or lazy).")
    add("")
    add("## The run")
    add("")
    add(f"- clock: {clock_label(data)}; accelerator: {data['accel']}")
    for key, label in (("started", "started"), ("git", "source"),
                       ("qemu", "QEMU"), ("host", "host")):
        if data.get(key):
            add(f"- {label}: {data[key]}")
    add(f"- kernel command line: `{data.get('cmdline', '')}`")
    add(f"- benchmark commands (autorun): `{data.get('autorun', '')}`")
    if data.get("bench_args"):
        add(f"- BENCH_ARGS: `{data['bench_args']}`")
    ok = sum(c["status"] == "ok" for c in data["configs"])
    add(f"- configurations: {len(data['configs'])} run, {ok} complete "
        f"(models: {' '.join(run.models)}; modes: {' '.join(run.modes)}; "
        f"smp: {' '.join(map(str, run.smps))})")
    if data.get("seconds"):
        add(f"- took {data['seconds']:.0f} s of wall-clock time")
    add("")

    # -- preempt: the pair in every variant, from one image ----------------
    add("## preempt_disable() + preempt_enable()")
    add("")
    add("`bench preempt` times a pair in every count model side by side in "
        "one image (each variant's code compiled on a stand-in count), and "
        "in the model the image was built with (`built`, the real count). "
        f"ns per pair, loop overhead subtracted ({u}).")
    add("")
    src = None
    for smp in run.smps:
        for model in run.models:
            for mode in run.modes:
                res = run.results.get((model, mode, smp))
                if res and all(benchlib.find(res, "preempt", variant=v)
                               for v in ("folded", "percpu", "ti", "off")):
                    src = src or (model, mode, smp)
    add(heading(data, "ns per pair by variant"))
    add("")
    if src is None:
        add(f"{DASH} no configuration reported every variant.")
    else:
        res = run.results[src]
        off = benchlib.figure(res, "preempt", "ns_per_pair", variant="off")
        add(f"From {src[0]}/{src[1]} smp={src[2]} (the variants are the same "
            "code in every image).")
        add("")
        add(f"| variant | ns per pair | {u} more than off |")
        add("|---|---|---|")
        for v in benchlib.VARIANTS:
            if v == "built":
                continue
            x = benchlib.figure(res, "preempt", "ns_per_pair", variant=v)
            more = DASH if x is None or off is None else f"{x - off:+.2f}"
            add(f"| {v} | {fmt(x)} | {more} |")
    add("")
    for smp in run.smps:
        add(heading(data, "ns per pair in the built model (variant=built)",
                    smp))
        add("")
        L += grid(run, notes, smp, lambda m, md, s=smp: run.value(
            m, md, s, "preempt", "ns_per_pair", variant="built"))
        add("")

    # -- irq ----------------------------------------------------------------
    add("## Interrupt round trip")
    add("")
    add("`int $0x81` to an empty handler and back: entry, dispatch, "
        "irq_enter/irq_exit and the exit path's preemption check "
        f"(ns per interrupt, {u}).")
    add("")
    for smp in run.smps:
        add(heading(data, "irq: ns per interrupt", smp))
        add("")
        L += grid(run, notes, smp, lambda m, md, s=smp: run.value(
            m, md, s, "irq", "ns_per_irq"))
        add("")

    # -- latency --------------------------------------------------------------
    loads = []
    for res in run.results.values():
        for r in res:
            if r.bench == "latency" and r.fields["load"] not in loads:
                loads.append(r.fields["load"])
    loads.sort(key=lambda l: (benchlib.LATENCY_LOADS + (l,)).index(l))
    if loads:
        add("## Wake-up latency")
        add("")
        add("`bench latency`, cyclictest's method: on every CPU a FIFO thread "
            "sleeps to absolute deadlines and records how late it woke. "
            "`load=hog` adds a CPU-bound thread per CPU whose only preemption "
            "points are might_resched() (voluntary) and a rare "
            "cond_resched() (none); `load=pingpong` threads that hand a "
            "message back and forth. Each cell is the worst CPU (the largest "
            f"value over every CPU that reported), in ns ({u}).")
        params = sorted({(r.fields.get("interval_us"), r.fields.get("loops"))
                         for res in run.results.values() for r in res
                         if r.bench == "latency"})
        add("Interval and loops: " + "; ".join(
            f"interval {i} µs, {n} loops" for i, n in params) + ".")
        add("")
        for load in loads:
            add(f"### load={load}")
            add("")
            for key, what in (("max", "max"), ("p99", "99th percentile"),
                              ("avg", "average")):
                for smp in run.smps:
                    add(heading(data, f"latency {what} (ns), load={load}, "
                                      "worst CPU", smp))
                    add("")
                    L += grid(run, notes, smp,
                              lambda m, md, s=smp, k=key, ld=load: run.value(
                                  m, md, s, "latency", k, worst=True, load=ld))
                    add("")

    # -- throughput -------------------------------------------------------------
    add("## Throughput")
    add("")
    wp = sorted({(r.fields.get("W"), r.fields.get("p"), r.fields.get("ops"))
                 for res in run.results.values() for r in res
                 if r.bench == "throughput"
                 and r.fields.get("test") == "preempt_heavy"})
    add("`preempt_heavy`: every CPU at once runs operations of W "
        "instructions of work inside p preempt_disable()/preempt_enable() "
        "pairs plus a per-CPU counter update (`bench throughput` options "
        f"W=, p=, lock_every=); ns per operation on CPU 0, in {u}. "
        + ("Parameters: " + "; ".join(f"W={w} p={p} ({o} operations)"
                                      for w, p, o in wp) + "."
           if wp else ""))
    add("")
    for smp in run.smps:
        add(heading(data, "preempt_heavy: ns per operation (CPU 0)", smp))
        add("")

        def heavy(m, md, s=smp):
            return run.value(m, md, s, "throughput", "ns_per_op",
                             test="preempt_heavy")
        L += grid(run, notes, smp, heavy)
        add("")
        base = heavy(*benchlib.BASELINE)
        if base is not None:
            lines = []
            for model in run.models:
                for mode in run.modes:
                    v = heavy(model, mode)
                    if v is None or (model, mode) == benchlib.BASELINE:
                        continue
                    d = v - base
                    verb = "loses" if d >= 0 else "gains"
                    lines.append(f"- {model}+{mode} {verb} {abs(d):,.2f} "
                                 f"{u} per operation vs off+none "
                                 f"({d / base * 100:+.1f} %)")
            if lines:
                add(f"Per operation, smp={smp}:")
                add("")
                L += lines
                add("")

    for test, what, need2 in (
            ("ctxsw_same", "two threads on one CPU passing the turn "
             "(completions): ns per round trip", False),
            ("ctxsw_cross", "the same between CPU 0 and CPU 1", True),
            ("resched_ipi", "CPU 0 asks CPU 1 to reschedule (RESCHEDULE "
             "IPI) and back: ns per round trip", True)):
        smps = [s for s in run.smps if s >= 2] if need2 else run.smps
        if not smps:
            continue
        add(f"`{test}`: {what}, in {u}."
            + (" Under icount a cross-CPU round trip is the path length on "
               "both CPUs, not a hardware latency." if need2 and icount
               else ""))
        add("")
        for smp in smps:
            add(heading(data, f"{test}: ns per round trip", smp))
            add("")
            L += grid(run, notes, smp, lambda m, md, s=smp, t=test: run.value(
                m, md, s, "throughput", "ns_per_roundtrip", test=t))
            add("")

    # -- user space: the null syscall, E7, a user thread's wake-up ------------
    report_user.sections(run, notes, add)

    # -- E8: lazy preemption against the other modes ------------------------------
    report_e8.sections(run, notes, add)

    # -- IPC and the user-level driver ----------------------------------------------
    report_ipc.sections(run, notes, add)

    # -- the rest ----------------------------------------------------------------
    if plots:
        add("## Plots")
        add("")
        for p in plots:
            if p.endswith(".png"):
                add(f"![{os.path.splitext(p)[0]}]({p})")
                add("")
    failed = [c for c in data["configs"] if c["status"] != "ok"]
    add("## Configurations")
    add("")
    add("| configuration | status | seconds | results | log |")
    add("|---|---|---|---|---|")
    for c in data["configs"]:
        secs = f"{c['seconds']:.1f}" if c.get("seconds") is not None else ""
        status = "ok" if c["status"] == "ok" else c["why"]
        add(f"| {c['model']}/{c['mode']} smp={c['smp']} | {status} | {secs} "
            f"| {len(c['results'])} | `{c.get('log', '')}` |")
    add("")
    if failed:
        add("Errors, per configuration:")
        add("")
        for c in failed:
            add(f"- {c['model']}/{c['mode']} smp={c['smp']}:")
            for e in c["errors"][:10]:
                add(f"  - {e}")
            if len(c["errors"]) > 10:
                add(f"  - ... and {len(c['errors']) - 10} more "
                    "(results.json has them all)")
        add("")
    add("Every BENCH line, with its configuration, is in `results.json`.")
    add("")
    if notes.texts:
        L += notes.render()
        add("")
    return "\n".join(L)
