"""The Markdown report of a benchmark run (build/bench/RESULTS.md).

Input: the dictionary run-bench writes to results.json. SECTIONS, at the end of this file, is the
page: one entry per `## ` section, in order, with the benchmarks it shows, its introduction and its
tables. Most tables are a Grid: the count models as rows, the preemption modes as columns, one
table per CPU count, each figure with its ratio to the off/none baseline. A table of another shape
has its own renderer. Every table heading names the clock; a configuration that failed, or a
figure its log lacks, shows "—" and a footnote saying why. The TARGETS are instruction counts:
judged under icount only, a wall clock's figures are shown, not judged.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

import benchlib
from benchlib import Result
from tools.lib.build import build_words    # run-bench puts the repository on sys.path

DASH = "—"


# ---------------------------------------------------------------------------------------------
# The targets: what a figure must stay within, and how a verdict prints it
# ---------------------------------------------------------------------------------------------

@dataclass
class Target:
    what: str                               # the verdict's words: "≤ 150 instructions per call"
    ok: Callable[[float], bool]
    show: Callable[[float], str] = lambda v: f"{v:,.2f}"


SYSCALL_TARGET = 150        # instructions per getpid round trip
USERLAT_TARGET = 1.5        # a user thread's avg wake-up over a kernel thread's, same config
IPC_TARGET = 545            # instructions: call+reply on one CPU with no payload (the fast path),
                            # user loops (95) included; the kernel's share, 450: docs/05-ipc-and-drivers.md
LINUX_FUTEX_RT = 8519       # instructions: a futex ping-pong round trip in a Linux 6.1 guest
LINUX_FUTEX_SHARE = 0.25    # the IPC fast path's round trip over Linux's, at most
THROUGHPUT_MIN = 0.99       # E8: lazy's hackbench ops/s over none's, at least
FIFO_MAX = 1.1              # E8: lazy's FIFO wake-up max over full's, at most
PI_WAIT_MAX = 1.1           # E9: high's wait with priority inheritance over the section, at most

TARGETS = {
    "syscall": Target(f"≤ {SYSCALL_TARGET} instructions per call", lambda v: v <= SYSCALL_TARGET),
    "userlat": Target(f"user avg ≤ {USERLAT_TARGET}× kernel avg", lambda q: q <= USERLAT_TARGET,
                      lambda q: f"{q:,.2f}×"),
    "ipc_share": Target(f"same-CPU call+reply ≤ {LINUX_FUTEX_SHARE:g}× Linux's "
                        f"{LINUX_FUTEX_RT:,}, that is ≤ {LINUX_FUTEX_RT * LINUX_FUTEX_SHARE:,.0f}",
                        lambda v: v / LINUX_FUTEX_RT <= LINUX_FUTEX_SHARE),
    "ipc": Target(f"same-CPU call+reply ≤ {IPC_TARGET} instructions", lambda v: v <= IPC_TARGET),
}


def verdict(target: Target, judged: list[tuple[str, float]]) -> str:
    """One sentence: 'target met' when every judged figure is within the target, else 'target
    missed' naming those that are not."""
    if not judged:
        return f"Target ({target.what}): not judged, no figure to judge."
    missed = [(name, v) for name, v in judged if not target.ok(v)]
    if not missed:
        name, v = max(judged, key=lambda j: j[1])
        return (f"Target ({target.what}): **target met** in every configuration judged "
                f"({len(judged)}; the largest: {target.show(v)}, {name}).")
    return (f"Target ({target.what}): **target missed** in {len(missed)} of {len(judged)} "
            "configurations: " + ", ".join(f"{n} ({target.show(v)})" for n, v in missed) + ".")


# ---------------------------------------------------------------------------------------------
# The run, its clock, footnotes and cells
# ---------------------------------------------------------------------------------------------

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
        self.configs = {(c["model"], c["mode"], c["smp"]): c for c in data["configs"]}
        self.results = {k: [Result.from_json(r) for r in c["results"]]
                        for k, c in self.configs.items()}

    def value(self, model, mode, smp, bench, key, worst=False, **ident):
        res = self.results.get((model, mode, smp))
        if res is None:
            return None
        return benchlib.figure(res, bench, key, worst=worst, **ident)

    def all(self, bench: str) -> list[Result]:
        return [r for res in self.results.values() for r in res if r.bench == bench]

    def distinct(self, bench: str, *keys: str, order=None, **ident) -> list:
        """The values of key (a tuple for several keys) over bench's results: its parameters."""
        got = {tuple(r.fields.get(k) for k in keys) if len(keys) > 1 else r.fields.get(keys[0])
               for r in self.all(bench) if all(r.fields.get(k) == v for k, v in ident.items())}
        return sorted(got, key=order)

    def wanted(self, bench: str) -> bool:
        """The run asked for bench, or some configuration reported it."""
        plan = benchlib.parse_plan(self.data.get("autorun", "").split(";"))
        return any(name == bench for name, _ in plan) or bool(self.all(bench))

    def pairs(self) -> list[tuple[str, str]]:
        """The (model, mode) rows of a per-configuration table, buildable only."""
        return [(m, md) for m in self.models for md in self.modes if benchlib.valid_config(m, md)]

    def why_missing(self, model, mode, smp) -> str:
        """The footnote for an empty cell."""
        name = f"{model}/{mode} smp={smp}"
        if not benchlib.valid_config(model, mode) and model == "off":
            return ("COUNT=off has no preempt count, so the build refuses PREEMPT=full, lazy and "
                    "rt: there is no such configuration.")
        if not benchlib.valid_config(model, mode):      # rt with another count model
            return (f"PREEMPT=rt builds with COUNT={model}, but the matrix builds it with "
                    "COUNT=folded only (one build: E9 compares rt with full and lazy).")
        c = self.configs.get((model, mode, smp))
        if c is None:
            return f"{name} was not run."
        log = f" (log: `{c['log']}`)" if c.get("log") else ""
        if c["status"] == "ok":
            return f"{name}: its log has no such result{log}."
        return f"{name}: {c['why']}{log}."


class Page:
    """RESULTS.md as it is written: the run, its footnotes, its lines."""

    def __init__(self, data: dict, plots: list[str] | None):
        self.data, self.plots = data, plots or []
        self.run, self.notes, self.lines = Run(data), Notes(), []
        self.icount = data["clock"] == "icount"
        self.u = unit(data)

    def add(self, *lines: str) -> None:
        self.lines += lines

    def heading(self, title: str, smp: int | None = None) -> str:
        where = f", smp={smp}" if smp is not None else ""
        return f"#### {title}{where} — clock: {clock_label(self.data)}"

    def table(self, head: list[str]) -> None:
        self.add("| " + " | ".join(head) + " |", "|" + "---|" * len(head))

    def row(self, cells: list[str]) -> None:
        self.add("| " + " | ".join(cells) + " |")

    def flagged(self, model, mode, smp) -> str:
        """A footnote for a figure from a configuration that did not pass."""
        c = self.run.configs.get((model, mode, smp))
        if c is None or c["status"] == "ok":
            return ""
        return self.notes.ref(f"{model}/{mode} smp={smp}: {c['why']}; the figure is from its log "
                              "all the same.")

    def missing(self, model, mode, smp) -> str:
        return DASH + self.notes.ref(self.run.why_missing(model, mode, smp))

    def mark(self, ok: bool) -> str:
        """A table's target column."""
        return ("met" if ok else "missed") if self.icount else "not judged"

    def not_judged(self) -> str:
        return ("Target: not judged. The targets are instruction counts, judged under icount; "
                f"this run's clock is {clock_label(self.data)}.")


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


def delta(a, b) -> str:
    return DASH if a is None or b is None else f"{a - b:+.2f}"


# ---------------------------------------------------------------------------------------------
# The models x modes table
# ---------------------------------------------------------------------------------------------

@dataclass
class Grid:
    """One table per CPU count: the count models as rows, the preemption modes as columns, a
    figure per cell with its ratio to off/none."""
    title: str                  # the heading; the CPU count and the clock follow it
    bench: str
    key: str
    ident: dict = field(default_factory=dict)
    worst: bool = False         # the largest over every CPU, not CPU 0's
    min_smp: int = 1            # 2: a cross-CPU figure
    note: Callable | None = None        # note(page): a paragraph before the tables
    target: Target | None = None        # judged under each table
    after: Callable | None = None       # after(page, smp, get): lines under each table


def grid(page: Page, smp: int, get) -> list[str]:
    """A models x modes table; get(model, mode) -> number or None."""
    run = page.run
    base = get(*benchlib.BASELINE)
    out = ["| " + " | ".join(["model \\ mode"] + run.modes) + " |",
           "|" + "---|" * (len(run.modes) + 1)]
    for model in run.models:
        cells = [f"**{model}**"]
        for mode in run.modes:
            valid = benchlib.valid_config(model, mode)
            v = get(model, mode) if valid else None
            if v is None:
                cells.append(("n/a" if not valid else DASH)
                             + page.notes.ref(run.why_missing(model, mode, smp)))
            else:
                cells.append(fmt(v) + (" (baseline)" if (model, mode) == benchlib.BASELINE
                                       else ratio(v, base)) + page.flagged(model, mode, smp))
        out.append("| " + " | ".join(cells) + " |")
    if base is None:
        out += ["", "No ratios: the baseline off/none " + (
            "was not run." if "off" not in run.models or "none" not in run.modes
            else "has no figure.")]
    return out


def render_grid(page: Page, g: Grid, **ident) -> None:
    smps = [s for s in page.run.smps if s >= g.min_smp]
    if not smps:
        return
    if g.note:
        page.add(g.note(page), "")
    for smp in smps:
        def get(m, md, s=smp):
            return page.run.value(m, md, s, g.bench, g.key, worst=g.worst, **g.ident, **ident)
        page.add(page.heading(g.title.format(**ident), smp), "", *grid(page, smp, get), "")
        if g.target and page.icount:
            judged = [(f"{m}/{md}", v) for m, md in page.run.pairs()
                      if (v := get(m, md)) is not None]
            page.add(f"smp={smp}: " + verdict(g.target, judged), "")
        elif g.target:
            page.add(page.not_judged(), "")
        if g.after:
            page.add(*g.after(page, smp, get))


# ---------------------------------------------------------------------------------------------
# The tables of other shapes
# ---------------------------------------------------------------------------------------------

def preempt_variants(page: Page) -> None:
    """Every variant's pair, from the first configuration that reported them all."""
    run, u = page.run, page.u
    src = next(((model, mode, smp) for smp in run.smps for model in run.models
                for mode in run.modes if (res := run.results.get((model, mode, smp)))
                and all(benchlib.find(res, "preempt", variant=v)
                        for v in ("folded", "percpu", "ti", "off"))), None)
    page.add(page.heading("ns per pair by variant"), "")
    if src is None:
        page.add(f"{DASH} no configuration reported every variant.", "")
        return
    res = run.results[src]
    off = benchlib.figure(res, "preempt", "ns_per_pair", variant="off")
    page.add(f"From {src[0]}/{src[1]} smp={src[2]} (the variants are the same code in every "
             "image).", "", f"| variant | ns per pair | {u} more than off |", "|---|---|---|")
    for v in benchlib.VARIANTS[:-1]:            # all but "built"
        x = benchlib.figure(res, "preempt", "ns_per_pair", variant=v)
        page.add(f"| {v} | {fmt(x)} | {delta(x, off)} |")
    page.add("")


def per_operation(page: Page, smp: int, get) -> list[str]:
    """Under preempt_heavy's table: what each configuration costs over off+none."""
    base = get(*benchlib.BASELINE)
    lines = []
    for model, mode in ((m, md) for m in page.run.models for md in page.run.modes):
        v = get(model, mode)
        if base is None or v is None or (model, mode) == benchlib.BASELINE:
            continue
        d = v - base
        lines.append(f"- {model}+{mode} {'loses' if d >= 0 else 'gains'} {abs(d):,.2f} {page.u} "
                     f"per operation vs off+none ({d / base * 100:+.1f} %)")
    return [f"Per operation, smp={smp}:", "", *lines, ""] if lines else []


def latency_loads(page: Page) -> list[str]:
    loads = list(dict.fromkeys(r.fields["load"] for r in page.run.all("latency")))
    return sorted(loads, key=lambda l: (benchlib.LATENCY_LOADS + (l,)).index(l))


def uaccess_value(run: Run, model, mode, smp, mf, size):
    """A copy_from_user figure measured in mode: from the boot of model/mode if it has it, else
    from another boot of the model (bench uaccess switches the mode at run time); (value, the
    boot's mode)."""
    for boot in [mode] + [md for md in run.modes if md != mode]:
        v = benchlib.figure(run.results.get((model, boot, smp), []), "uaccess", "ns_per_copy",
                            mode=mode, might_fault=mf, bytes=size)
        if v is not None:
            return v, boot
    return None, None


def uaccess_table(page: Page) -> None:
    """A row per model and every mode it can run, wherever it was measured."""
    run, sizes = page.run, benchlib.UACCESS_BYTES
    for smp in run.smps:
        page.add(page.heading("copy_from_user: ns per call", smp), "")
        page.table(["model", "mode"] + [f"{b} B {mf}" for b in sizes
                                        for mf in benchlib.MIGHT_FAULT] + ["Δ might_fault"])
        for model in (m for m in run.models
                      if any((m, md, smp) in run.configs for md in run.modes)):
            for mode in (md for md in benchlib.MODES if benchlib.valid_config(model, md)):
                got = {(mf, b): uaccess_value(run, model, mode, smp, mf, b)
                       for b in sizes for mf in benchlib.MIGHT_FAULT}
                if mode not in run.modes and all(v is None for v, _ in got.values()):
                    continue
                cells = [fmt(v) if v is not None else DASH + page.notes.ref(
                    f"{model} smp={smp}: no boot reported copy_from_user in mode {mode}, "
                    f"might_fault={mf}, {b} bytes.") for (mf, b), (v, _) in got.items()]
                deltas = [delta(got[("on", b)][0], got[("off", b)][0]) for b in sizes]
                label = mode
                for boot in sorted({boot for _, boot in got.values() if boot}):
                    if boot != mode:
                        label += page.notes.ref(f"{model} smp={smp}: mode {mode} as measured in "
                                                f"the {model}/{boot} boot (no figure from a boot "
                                                f"of {model}/{mode}).")
                    label += page.flagged(model, boot, smp)
                page.row([f"**{model}**", label, *cells,
                          DASH if DASH in deltas else " / ".join(deltas)])
        page.add("")


def userlat_tables(page: Page) -> None:
    """A user thread's wake-up beside `bench latency`'s kernel thread, per load and CPU count,
    each table judged against the userlat target."""
    run, target = page.run, TARGETS["userlat"]
    planned = {a.get("load", benchlib.USERLAT_LOADS[0])
               for n, a in benchlib.parse_plan(page.data.get("autorun", "").split(";"))
               if n == "userlat"}
    order = benchlib.USERLAT_LOADS
    loads = sorted({r.fields["load"] for r in run.all("userlat")} | planned,
                   key=lambda l: (order.index(l) if l in order else len(order), l))
    prio = any("prio" in r.fields for r in run.all("userlat"))
    for load in loads:
        for smp in run.smps:
            page.add(page.heading(f"user wake-up latency (ns), load={load}", smp), "")
            page.table(["model", "mode"] + (["prio"] if prio else [])
                       + ["min", "avg", "max", "kernel avg", "user / kernel", "target"])
            judged = []
            for model, mode in run.pairs():
                rows = benchlib.find(run.results.get((model, mode, smp), []), "userlat", load=load)
                r = rows[0] if rows else None
                cells = [f"**{model}**", mode + page.flagged(model, mode, smp)]
                if prio:
                    cells.append(r.fields.get("prio", "") if r else "")
                for k in ("min_ns", "avg_ns", "max_ns"):
                    v = r.get(k) if r else None
                    cells.append(page.missing(model, mode, smp) if v is None else fmt(v))
                kavg = run.value(model, mode, smp, "latency", "avg", load=load)
                cells.append(fmt(kavg) if kavg is not None else DASH + page.notes.ref(
                    f"{model}/{mode} smp={smp}: no `bench latency load={load}` figure to "
                    "compare with."))
                avg = r.get("avg_ns") if r else None
                if avg is None or not kavg:
                    cells += [DASH, DASH]
                else:
                    cells += [f"{avg / kavg:,.2f}×", page.mark(target.ok(avg / kavg))]
                    judged.append((f"{model}/{mode}", avg / kavg))
                page.row(cells)
            page.add("", f"smp={smp}, load={load}: "
                     + (verdict(target, judged) if page.icount else page.not_judged()), "")


def e8_judge(run: Run, model, smp) -> list[tuple[str, bool | None, str]]:
    """E8's tests of the lazy claim for one model and CPU count: [(test, ok or None when a
    figure is missing, what the figures are)]. The tick test is reported, not part of the claim:
    a normal sleeper in lazy waits at most one tick longer than in full."""
    def v(mode, bench, key, **ident):
        return run.value(model, mode, smp, bench, key, **ident)
    lz, nn = v("lazy", "hackbench", "ops_per_sec"), v("none", "hackbench", "ops_per_sec")
    li, fi = v("lazy", "hackbench", "invol_per_op"), v("full", "hackbench", "invol_per_op")
    lf, ff = (v(m, "wakeup_hog", "max", **{"class": "fifo"}) for m in ("lazy", "full"))
    ln, fn = (v(m, "wakeup_hog", "max", **{"class": "normal"}) for m in ("lazy", "full"))
    tick = v("lazy", "wakeup_hog", "tick_ns", **{"class": "normal"})
    return [
        ("throughput", None, "no hackbench figure for lazy and none") if lz is None or not nn else
        ("throughput", lz / nn >= THROUGHPUT_MIN, f"lazy {lz:,.0f} ops/s = {lz / nn:.3f}x none's "
         f"{nn:,.0f} (at least {THROUGHPUT_MIN}x)"),
        ("switches", None, "no invol_per_op figure for lazy and full") if li is None or fi is None
        else ("switches", li < fi, f"lazy {li:.4f} involuntary switches per message, full "
              f"{fi:.4f} (fewer than full)"),
        ("latency", None, "no FIFO wakeup_hog figure for lazy and full") if lf is None or not ff
        else ("latency", lf <= FIFO_MAX * ff, f"FIFO max lazy {lf:,} ns = {lf / ff:.3f}x full's "
              f"{ff:,} (at most {FIFO_MAX}x)"),
        ("tick", None, "no normal wakeup_hog figure for lazy and full")
        if ln is None or fn is None or not tick else
        ("tick", ln <= tick + fn, f"normal max lazy {ln:,} ns, full {fn:,} ns: {ln - fn:,} ns "
         f"more, the tick is {tick:,} ns")]


def e8_claim(judged: dict) -> str:
    """The sentence RESULTS.md and README quote: computed, not typed."""
    tests = [t for res in judged.values() for t in res if t[0] != "tick"]
    if not tests:
        return "E8's claim: **not judged**, no figures to judge."
    if any(ok is None for _, ok, _ in tests):
        return ("E8's claim: **not judged** everywhere: a figure is missing (the lines above say "
                "which).")
    bad = [f"{'/'.join(map(str, k))} {name}" for k, res in judged.items()
           for name, ok, _ in res if name != "tick" and not ok]
    if bad:
        return "E8's claim: **not borne out**: " + ", ".join(bad) + " missed."
    return (f"E8's claim: **borne out** in every configuration judged ({len(judged)}): lazy's "
            f"throughput is at least {THROUGHPUT_MIN}x none's with fewer involuntary switches per "
            f"message than full, and its FIFO wake-up latency at most {FIFO_MAX}x full's.")


def e8_tables(page: Page) -> None:
    """Per CPU count and model (one that can run lazy): every mode's hackbench and wakeup_hog
    figures, then the claim's tests."""
    run, judged = page.run, {}
    for smp in run.smps:
        for model in (m for m in run.models if benchlib.valid_config(m, "lazy")):
            def g(mode, bench, key, **ident):
                return run.value(model, mode, smp, bench, key, **ident)
            page.add(page.heading(f"E8, COUNT={model}", smp), "")
            page.table(["mode", "hackbench ops/s", "invol/op", "FIFO max", "FIFO avg",
                        "normal max", "normal avg"])
            base = g("none", "hackbench", "ops_per_sec")
            ffull = g("full", "wakeup_hog", "max", **{"class": "fifo"})
            for mode in (m for m in benchlib.MODES
                         if m in run.modes and benchlib.valid_config(model, m)):
                ops = g(mode, "hackbench", "ops_per_sec")
                inv = g(mode, "hackbench", "invol_per_op")
                wake = {(c, k): g(mode, "wakeup_hog", k, **{"class": c})
                        for c in ("fifo", "normal") for k in ("max", "avg")}
                fmax = wake[("fifo", "max")]
                cells = [f"**{mode}**" + page.flagged(model, mode, smp),
                         fmt(ops) + (ratio(ops, base) if mode != "none" else ""),
                         DASH if inv is None else f"{inv:.4f}",
                         fmt(fmax) + (ratio(fmax, ffull) if mode != "full" else ""),
                         fmt(wake[("fifo", "avg")]), fmt(wake[("normal", "max")]),
                         fmt(wake[("normal", "avg")])]
                if ops is None and fmax is None:
                    cells[1] += page.notes.ref(run.why_missing(model, mode, smp))
                page.row(cells)
            page.add("")
            if not page.icount:
                page.add("Not judged: the figures are wall-clock times (the targets are "
                         "instruction counts, under icount).", "")
                continue
            judged[(model, smp)] = e8_judge(run, model, smp)
            for name, ok, text in judged[(model, smp)]:
                word = "not judged" if ok is None else "met" if ok else "**missed**"
                page.add(f"- {name}: {word}: {text}")
            page.add("")
    if page.icount:
        page.add(e8_claim(judged), "")


def mode_cost_table(page: Page) -> None:
    """bench mode_cost, measured in none mode, from the first boot of the model that has it."""
    run = page.run
    page.add("### The mode machinery's own cost", "",
             "`bench mode_cost`, in none mode with a reschedule request pending: an interrupt "
             "round trip from kernel code (its exit asks the mode) and a "
             "preempt_disable()/preempt_enable() pair (the enable calls preempt_schedule_thunk). "
             "`patched`: the patch sites as fold runs them (5-byte NOPs); `variable`: the sites "
             "rewritten to jump to a load and test of preempt_mode, the code they replaced "
             f"({page.u}).", "")

    def cost(model, smp, what, via):
        for mode in run.modes:
            rows = benchlib.find(run.results.get((model, mode, smp), []), "mode_cost",
                                 mode="none", what=what, via=via)
            if rows and isinstance(rows[0].get("ns"), (int, float)):
                return rows[0].get("ns")
        return None
    for smp in run.smps:
        page.add(page.heading("mode_cost, none mode", smp), "")
        page.table(["model", "IRQ round trip, patched", "variable", "saved",
                    "preempt_enable(), patched", "variable", "saved"])
        for model in run.models:
            cells = [f"**{model}**"]
            for what in benchlib.MODE_COST_WHAT:
                p, var = cost(model, smp, what, "patched"), cost(model, smp, what, "variable")
                cells += [fmt(p), fmt(var), delta(var, p)]
            page.row(cells)
        page.add("")


def ipc_tables(page: Page) -> None:
    """call+reply and notify per configuration; the same-CPU 0-byte call judged against the IPC
    fast path's two targets."""
    run, share, absolute, judged = page.run, TARGETS["ipc_share"], TARGETS["ipc"], []
    for smp in run.smps:
        calls = [(c, b) for c in ("same", "cross") for b in ("0", "64") if c == "same" or smp >= 2]
        notify = [c for c in ("same", "cross") if c == "same" or smp >= 2]
        page.add(page.heading("IPC: ns per call+reply / per signal", smp), "")
        page.table(["model", "mode"] + [f"call {c} {b} B" for c, b in calls]
                   + [f"notify {c}" for c in notify]
                   + ["vs Linux futex", f"≤ {LINUX_FUTEX_SHARE:g}×", f"≤ {IPC_TARGET}"])
        for model, mode in run.pairs():
            if (model, mode, smp) not in run.configs:
                continue
            cells = [f"**{model}**", mode + page.flagged(model, mode, smp)]
            cells += [fmt(run.value(model, mode, smp, "ipc", "ns_per_call", test="call",
                                    placement=c, bytes=b)) for c, b in calls]
            cells += [fmt(run.value(model, mode, smp, "ipc", "ns_per_signal", test="notify",
                                    placement=c)) for c in notify]
            fast = run.value(model, mode, smp, "ipc", "ns_per_call", test="call",
                             placement="same", bytes="0")
            if fast is None:
                cells[2] += page.notes.ref(run.why_missing(model, mode, smp))
                cells += [DASH] * 3
            else:
                judged.append((f"{model}/{mode} smp={smp}", fast))
                cells += [f"{fast / LINUX_FUTEX_RT:.2f}×", page.mark(share.ok(fast)),
                          page.mark(absolute.ok(fast))]
            page.row(cells)
        page.add("")
    if page.icount:
        page.add(verdict(share, judged), "", verdict(absolute, judged), "")
    else:
        page.add(page.not_judged(), "")


def udriver_tables(page: Page) -> None:
    """Mean / max per interrupt source and load. bench udriver measures every mode in each boot;
    the boot's own mode is its row's figure."""
    run = page.run
    cases = (("timer", "none"), ("timer", "hog"), ("uart", "none"))
    for smp in run.smps:
        page.add(page.heading("interrupt to user driver: mean / max ns", smp), "")
        page.table(["model", "mode"] + [f"{s} {l}" for s, l in cases])
        for model, mode in run.pairs():
            if (model, mode, smp) not in run.configs:
                continue
            cells = [f"**{model}**", mode + page.flagged(model, mode, smp)]
            for src, load in cases:
                rows = benchlib.find(run.results[(model, mode, smp)], "udriver", src=src,
                                     load=load, mode=mode)
                mean = rows[0].get("mean_ns") if rows else None
                cells.append(page.missing(model, mode, smp) if mean is None
                             else f"{fmt(mean)} / {fmt(rows[0].get('max_ns'))}")
            page.row(cells)
        page.add("")


def lock_loaded(run: Run) -> bool:
    return any(r.fields.get("load") == "lock" for r in run.all("latency"))


def lock_latency_table(page: Page) -> None:
    """E9 in bench latency: the worst wake-up beside a spinlock_t section (load=lock) against the
    same kernel's with no load, per configuration."""
    run = page.run
    if not lock_loaded(run):
        return
    for smp in run.smps:
        page.add(page.heading("E9: max wake-up latency (ns), worst CPU, without and with a "
                              "spinlock_t section", smp), "")
        page.table(["model", "mode", "load=none", "load=lock", "lock / none"])
        for model, mode in ((m, md) for m, md in run.pairs() if (m, md, smp) in run.configs):
            v = {load: run.value(model, mode, smp, "latency", "max", worst=True, load=load)
                 for load in ("none", "lock")}
            page.row([f"**{model}**", mode + page.flagged(model, mode, smp)]
                     + [page.missing(model, mode, smp) if x is None else fmt(x) for x in v.values()]
                     + [f"{v['lock'] / v['none']:,.2f}×" if v["lock"] is not None and v["none"]
                        else DASH])
        page.add("")


def inversion_tables(page: Page) -> None:
    """bench inversion per configuration: high's wait with and without priority inheritance,
    judged against the section (with) and medium's run (without)."""
    run, judged = page.run, []
    if not run.wanted("inversion"):
        return
    for smp in run.smps:
        page.add(page.heading("E9: priority inversion, high's wait for the lock (ns)", smp), "")
        page.table(["model", "mode", "section, medium (µs)", "with PI (× section)", "low's prio",
                    "without PI (× section)", "low's prio", "target"])
        for model, mode in ((m, md) for m, md in run.pairs() if (m, md, smp) in run.configs):
            res = run.results[(model, mode, smp)]
            r1, r0 = (next(iter(benchlib.find(res, "inversion", pi=pi)), None) for pi in "10")
            cells = [f"**{model}**", mode + page.flagged(model, mode, smp)]
            if r1 is None or r0 is None:
                page.row(cells + [page.missing(model, mode, smp)] + [DASH] * 5)
                continue
            sec, med = r1.get("section_us") * 1000, r1.get("medium_us") * 1000
            w1, w0 = r1.get("high_wait_ns"), r0.get("high_wait_ns")
            ok = w1 <= PI_WAIT_MAX * sec and w0 >= med
            judged.append((f"{model}/{mode} smp={smp}", ok))
            page.row(cells + [f"{r1.fields['section_us']}, {r1.fields['medium_us']}",
                              fmt(w1) + ratio(w1, sec), r1.fields["low_prio"],
                              fmt(w0) + ratio(w0, sec), r0.fields["low_prio"], page.mark(ok)])
        page.add("")
    what = (f"Target (with PI high waits at most {PI_WAIT_MAX}× the section, without PI at least "
            "medium's run)")
    missed = [name for name, ok in judged if not ok]
    if not page.icount:
        page.add(page.not_judged(), "")
    elif not judged:
        page.add(f"{what}: not judged, no figure to judge.", "")
    elif missed:
        page.add(f"{what}: **target missed** in {len(missed)} of {len(judged)} configurations: "
                 + ", ".join(missed) + ".", "")
    else:
        page.add(f"{what}: **target met** in every configuration judged ({len(judged)}).", "")


def how_to_read(page: Page) -> None:
    if page.icount:
        page.add("Clock: **icount**. QEMU ran with `-icount shift=0,sleep=off`, so the guest's "
                 "clock advances by exactly 1 ns per guest instruction: every figure below in "
                 "\"ns\" is a count of instructions, the same on every run and every host. They "
                 "measure path length, not hardware speed: a cache miss or a pipeline stall "
                 "costs nothing here, and under icount QEMU runs the virtual CPUs one at a time, "
                 "so cross-CPU figures (ctxsw_cross, resched_ipi, latency with smp=2) add up the "
                 "instructions both CPUs executed, and an IPI itself costs no time.")
    else:
        page.add(f"Clock: **wall ({page.data['accel'].upper()})**. QEMU ran without -icount, so "
                 "every figure is host wall-clock time as the guest saw it: it varies from run to "
                 "run and with the host's load; compare figures of one run only, and repeat a "
                 "run before believing a difference of a few per cent.")
    page.add("", "Each table has the count models as rows (`COUNT=`: `folded` is the per-CPU "
             "count with the inverted need-resched bit folded in, `percpu` the per-CPU count "
             "with a separate flag, `ti` the count in thread_info, `off` no count at all) and "
             "the preemption modes as columns (`PREEMPT=`). Lower is better everywhere. The "
             "figure in parentheses is the ratio to the `off`/`none` cell of the same table, the "
             f"kernel that does the least preemption bookkeeping. `{DASH}` marks a figure that "
             "is missing (the footnote says why); `n/a` a configuration that cannot be built "
             "(COUNT=off with PREEMPT=full, lazy or rt) or that the matrix leaves out (rt with "
             "another COUNT than folded). `rt` is PREEMPT_RT (`make PREEMPT=rt`): full "
             "preemption with a sleeping spinlock_t, an rt_mutex with priority inheritance.", "")


def the_run(page: Page) -> None:
    data, run = page.data, page.run
    page.add(f"- clock: {clock_label(data)}; accelerator: {data['accel']}")
    # Runs from before the release build existed measured the debug build.
    page.add(f"- build: {build_words(data.get('build', 'debug'))}")
    for key, label in (("started", "started"), ("git", "source"), ("qemu", "QEMU"),
                       ("host", "host")):
        if data.get(key):
            page.add(f"- {label}: {data[key]}")
    page.add(f"- kernel command line: `{data.get('cmdline', '')}`",
             f"- benchmark commands (autorun): `{data.get('autorun', '')}`")
    if data.get("bench_args"):
        page.add(f"- BENCH_ARGS: `{data['bench_args']}`")
    ok = sum(c["status"] == "ok" for c in data["configs"])
    page.add(f"- configurations: {len(data['configs'])} run, {ok} complete (models: "
             f"{' '.join(run.models)}; modes: {' '.join(run.modes)}; smp: "
             f"{' '.join(map(str, run.smps))})")
    if data.get("seconds"):
        page.add(f"- took {data['seconds']:.0f} s of wall-clock time")
    page.add("")


def plot_images(page: Page) -> None:
    for p in page.plots:
        if p.endswith(".png"):
            page.add(f"![{os.path.splitext(p)[0]}]({p})", "")


def configurations(page: Page) -> None:
    configs = page.data["configs"]
    page.table(["configuration", "status", "seconds", "results", "log"])
    for c in configs:
        page.row([f"{c['model']}/{c['mode']} smp={c['smp']}",
                  "ok" if c["status"] == "ok" else c["why"],
                  f"{c['seconds']:.1f}" if c.get("seconds") is not None else "",
                  str(len(c["results"])), f"`{c.get('log', '')}`"])
    page.add("")
    failed = [c for c in configs if c["status"] != "ok"]
    if failed:
        page.add("Errors, per configuration:", "")
        for c in failed:
            page.add(f"- {c['model']}/{c['mode']} smp={c['smp']}:",
                     *(f"  - {e}" for e in c["errors"][:10]))
            if len(c["errors"]) > 10:
                page.add(f"  - ... and {len(c['errors']) - 10} more (results.json has them all)")
        page.add("")
    page.add("Every BENCH line, with its configuration, is in `results.json`.", "")


# ---------------------------------------------------------------------------------------------
# The page: every section of RESULTS.md, in order
# ---------------------------------------------------------------------------------------------

@dataclass
class Section:
    title: str                          # its "## " heading
    tables: list                        # Grids and renderers (render(page)), in order
    intro: Callable | None = None       # intro(page): the text under the heading
    benches: tuple = ()                 # shown if the run asked for one or has its figures
    show: Callable | None = None        # shown if show(page); neither: always shown
    per_load: Callable | None = None    # the tables once per load, loads(page); none: not shown


def params(page: Page, label: str, bench: str, key: str, order) -> str:
    """A line of a benchmark's parameters under its introduction, if it reported any."""
    values = page.run.distinct(bench, key, order=order)
    return f"\n{label}: {', '.join(values)}." if values else ""


def heavy_params(page: Page) -> str:
    wp = page.run.distinct("throughput", "W", "p", "ops", test="preempt_heavy")
    return "Parameters: " + "; ".join(f"W={w} p={p} ({o} operations)"
                                      for w, p, o in wp) + "." if wp else ""


CROSS_ICOUNT = (" Under icount a cross-CPU round trip is the path length on both CPUs, not a "
                "hardware latency.")

SECTIONS = [
    Section("How to read this", [how_to_read]),
    Section("The run", [the_run]),
    Section(
        "preempt_disable() + preempt_enable()",
        intro=lambda p: "`bench preempt` times a pair in every count model side by side in one "
        "image (each variant's code compiled on a stand-in count), and in the model the image was "
        f"built with (`built`, the real count). ns per pair, loop overhead subtracted ({p.u}).",
        tables=[preempt_variants,
                Grid("ns per pair in the built model (variant=built)", "preempt", "ns_per_pair",
                     {"variant": "built"})]),
    Section(
        "Interrupt round trip",
        intro=lambda p: "`int $0x81` to an empty handler and back: entry, dispatch, "
        "irq_enter/irq_exit and the exit path's preemption check (ns per interrupt, "
        f"{p.u}).",
        tables=[Grid("irq: ns per interrupt", "irq", "ns_per_irq")]),
    Section(
        "Wake-up latency", per_load=latency_loads,
        intro=lambda p: "`bench latency`, cyclictest's method: on every CPU a FIFO thread sleeps "
        "to absolute deadlines and records how late it woke. `load=hog` adds a CPU-bound thread "
        "per CPU whose only preemption points are might_resched() (voluntary) and a rare "
        "cond_resched() (none); `load=pingpong` threads that hand a message back and forth; "
        "`load=lock` a normal thread per CPU holding a spinlock_t for `section_us` (default "
        "1,000 µs) just before the FIFO thread's deadlines (E9: outside PREEMPT_RT the section "
        "holds preemption off, on rt the holder is preempted). Each "
        "cell is the worst CPU (the largest value over every CPU that reported), in ns "
        f"({p.u}).\nInterval and loops: " + "; ".join(
            f"interval {i} µs, {n} loops"
            for i, n in p.run.distinct("latency", "interval_us", "loops")) + ".",
        tables=[Grid(f"latency {what} (ns), load={{load}}, worst CPU", "latency", key, worst=True)
                for key, what in (("max", "max"), ("p99", "99th percentile"),
                                  ("avg", "average"))]),
    Section(
        "Throughput",
        intro=lambda p: "`preempt_heavy`: every CPU at once runs operations of W instructions of "
        "work inside p preempt_disable()/preempt_enable() pairs plus a per-CPU counter update "
        "(`bench throughput` options W=, p=, lock_every=); ns per operation on CPU 0, in "
        f"{p.u}. " + heavy_params(p),
        tables=[
            Grid("preempt_heavy: ns per operation (CPU 0)", "throughput", "ns_per_op",
                 {"test": "preempt_heavy"}, after=per_operation),
            Grid("ctxsw_same: ns per round trip", "throughput", "ns_per_roundtrip",
                 {"test": "ctxsw_same"},
                 note=lambda p: "`ctxsw_same`: two threads on one CPU passing the turn "
                 f"(completions): ns per round trip, in {p.u}."),
            Grid("ctxsw_cross: ns per round trip", "throughput", "ns_per_roundtrip",
                 {"test": "ctxsw_cross"}, min_smp=2,
                 note=lambda p: f"`ctxsw_cross`: the same between CPU 0 and CPU 1, in {p.u}."
                 + (CROSS_ICOUNT if p.icount else "")),
            Grid("resched_ipi: ns per round trip", "throughput", "ns_per_roundtrip",
                 {"test": "resched_ipi"}, min_smp=2,
                 note=lambda p: "`resched_ipi`: CPU 0 asks CPU 1 to reschedule (RESCHEDULE IPI) "
                 f"and back: ns per round trip, in {p.u}." + (CROSS_ICOUNT if p.icount else "")),
        ]),
    Section(
        "Null system call", benches=("syscall",),
        intro=lambda p: "`bench syscall`: `user/getpid_bench` calls getpid in a loop in ring 3 "
        "and times the loop with clock_gettime: the SYSCALL entry, the table, "
        f"exit_to_user_mode() and SYSRET, in ns per round trip ({p.u}). Target: at most "
        f"{SYSCALL_TARGET} instructions." + params(p, "Calls per figure", "syscall", "calls", int),
        tables=[Grid("syscall: ns per getpid round trip", "syscall", "ns_per_call",
                     target=TARGETS["syscall"])]),
    Section(
        "E7: copy_from_user, might_fault() on and off", benches=("uaccess",),
        intro=lambda p: "`bench uaccess`: copy_from_user() of 8, 64 and 4096 bytes from a user "
        "page, by a kernel thread with IRQs and preemption enabled, in every preemption mode the "
        "build can run (it switches the mode at run time) and with might_fault() on and off: the "
        "difference is might_fault()'s price, which Andi Kleen measured at about 2.5 µs a call "
        f"in 2013's voluntary kernels. ns per call ({p.u}); `Δ` is on − off for 8 / 64 / 4096 "
        "bytes." + params(p, "Calls per figure", "uaccess", "iters", int),
        tables=[uaccess_table]),
    Section(
        "User-space wake-up latency", benches=("userlat",),
        intro=lambda p: "`bench userlat`: `user/cyclictest` sleeps in clock_nanosleep to "
        "absolute deadlines on CPU 0 and records how late it woke (`load=hog`: beside `user/spin` "
        "on the same CPU), beside `bench latency`'s kernel thread in the same configuration and "
        f"load (its CPU 0 figure). ns ({p.u}); the ratio is the user thread's avg over the "
        f"kernel thread's. Target: at most {USERLAT_TARGET}×." + (
            " Under icount the vCPUs run one at a time, so a kernel figure with smp=2 includes "
            "the other vCPU's turn: the smp=1 tables compare like with like."
            if p.icount and max(p.run.smps) >= 2 else "")
        + params(p, "Loops", "userlat", "loops", str),
        tables=[userlat_tables]),
    Section(
        "E8: lazy preemption", benches=("hackbench", "wakeup_hog", "mode_cost"),
        intro=lambda p: "Linux's lazy preemption commit (2024) says `PREEMPT_LAZY` tries to get "
        "voluntary's throughput with full's latency. `bench hackbench`: groups of kernel threads "
        "passing 100-byte messages through channels (ops/s: messages per second; invol/op: "
        "involuntary switches, Linux's nivcsw, per message; in full a woken receiver preempts "
        "its sender after every message). `bench wakeup_hog`: a FIFO, then a normal sleeper's "
        f"wake-up latency while a normal hog runs on CPU 0 ({p.u}). The ratio beside ops/s is "
        "to none's, beside the FIFO latency to full's.",
        tables=[e8_tables, mode_cost_table]),
    Section(
        "E9: PREEMPT_RT and priority inversion", benches=("inversion",),
        show=lambda p: p.run.wanted("inversion") or lock_loaded(p.run),
        intro=lambda p: "PREEMPT_RT (merged in Linux 6.12, 2024; here `make PREEMPT=rt`, the "
        "`rt` column) turns spinlock_t into an rt_mutex: a sleeping lock whose holder can be "
        "preempted and inherits its waiters' priority. `bench latency load=lock`: a FIFO "
        "thread's wake-up beside a normal thread holding a spinlock_t (outside RT the section "
        "holds preemption off, so the wake-up waits for its end). `bench inversion`, Mars "
        "Pathfinder's bug (1997): low (a normal thread) holds an rt_mutex for `section_us`, high "
        "(FIFO 30) wants it, medium (FIFO 20) runs `medium_us` without it; with priority "
        "inheritance (PI, in every build's rt_mutex) low runs at high's priority, 30, until it "
        "lets go, without it medium runs first and high waits for both. ns "
        f"({p.u}); the ratio is to the section.",
        tables=[lock_latency_table, inversion_tables]),
    Section(
        "IPC: call+reply and notifications", benches=("ipc",),
        intro=lambda p: "`bench ipc`: `user/ping` calls `user/pong` (an echo server) in a loop, "
        "both pinned to one CPU (`same`: the fast path's case, a direct switch) or to two "
        "(`cross`: a wake-up on the other CPU, with the RESCHEDULE IPI and the fold), with 0 and "
        "64 bytes of payload; `user/sigpp` pairs signal and wait on two notifications. ns per "
        f"round trip or per signal-to-wake ({p.u}). Anchors in the same clock: a futex "
        f"ping-pong round trip in a Linux 6.1 guest takes {LINUX_FUTEX_RT:,} instructions. seL4 "
        "publishes its fastpath IPC in cycles on real CPUs (sel4.systems/performance.html, from "
        "sel4bench), which do not convert to an instruction count. Target: the same-CPU round "
        f"trip with no payload at most {IPC_TARGET} instructions and at most "
        f"{LINUX_FUTEX_SHARE:g} of the Linux round trip "
        f"({LINUX_FUTEX_RT * LINUX_FUTEX_SHARE:,.0f}).",
        tables=[ipc_tables]),
    Section(
        "Interrupt to user-level driver", benches=("udriver",),
        intro=lambda p: "`bench udriver`: an interrupt bound to a notification wakes a user "
        "thread waiting on it (`timer`: an hrtimer's interrupt signals it; `uart`: IRQ 4 from "
        "the 16550 to `user/serial_drv`, which QEMU raises while the driver itself still runs, "
        "so it measures the driver's own way into `notify_wait()`), idle and beside `user/spin` "
        f"on the same CPU. Mean and maximum ns ({p.u}).",
        tables=[udriver_tables]),
    Section("Plots", [plot_images], show=lambda p: bool(p.plots)),
    Section("Configurations", [configurations]),
]


def shown(page: Page, s: Section) -> bool:
    if s.show:
        return s.show(page)
    if s.per_load:
        return bool(s.per_load(page))
    return not s.benches or any(page.run.wanted(b) for b in s.benches)


def render(data: dict, plots: list[str] | None = None) -> str:
    page = Page(data, plots)
    page.add("# fold benchmark results", "")
    for s in (s for s in SECTIONS if shown(page, s)):
        page.add(f"## {s.title}", "")
        if s.intro:
            page.add(s.intro(page), "")
        for load in s.per_load(page) if s.per_load else [None]:
            if load is not None:
                page.add(f"### load={load}", "")
            for t in s.tables:
                if isinstance(t, Grid):
                    render_grid(page, t, **({"load": load} if load else {}))
                else:
                    t(page)
    if page.notes.texts:
        page.add(*page.notes.render(), "")
    return "\n".join(page.lines)
