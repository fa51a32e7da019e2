"""RESULTS.md's E8 section: lazy preemption against the other
modes. Linux's lazy preemption commit (Peter Zijlstra, "sched: Add Lazy
preemption model", 2024) says PREEMPT_LAZY tries to get the throughput of
voluntary with the latency of full; E8 asks whether fold's figures bear
that out, per count model and CPU count, from:

    hackbench   ops_per_sec and invol_per_op (kernel threads passing
                messages; involuntary switches per message: nivcsw)
    wakeup_hog  wake-up latency of a FIFO and of a normal sleeper while a
                normal hog runs on its CPU
    mode_cost   none mode with a request pending: the IRQ round trip and a
                preempt_enable(), patched sites against a variable test

The claim's three tests, judged under icount
only (they are instruction counts; a wall clock is shown, not judged):

    throughput  lazy's ops_per_sec >= THROUGHPUT_MIN x none's
    switches    lazy's invol_per_op < full's
    latency     lazy's FIFO max <= FIFO_MAX x full's

and a fourth, reported beside them: a normal sleeper in lazy waits at most
one tick longer than in full (max <= tick_ns + full's max).
"""

from __future__ import annotations

import benchlib
import report
import report_user

THROUGHPUT_MIN = 0.99
FIFO_MAX = 1.1
E8_MODES = ("none", "voluntary", "full", "lazy")


def value(run, model, mode, smp, bench, key, **ident):
    return run.value(model, mode, smp, bench, key, **ident)


def mode_cost(run, model, smp, what, via):
    """bench mode_cost's figure (mode=none, the mode measured) from the
    first configuration of this model and CPU count that has it."""
    for mode in run.modes:
        rows = benchlib.find(run.results.get((model, mode, smp), []),
                             "mode_cost", mode="none", what=what, via=via)
        if rows and isinstance(rows[0].get("ns"), (int, float)):
            return rows[0].get("ns")
    return None


def judge_one(run, model, smp):
    """[(test, ok or None, text)] for one model and CPU count."""
    def v(mode, bench, key, **ident):
        return value(run, model, mode, smp, bench, key, **ident)
    out = []
    lz, nn = v("lazy", "hackbench", "ops_per_sec"), v("none", "hackbench", "ops_per_sec")
    if lz is None or not nn:
        out.append(("throughput", None, "no hackbench figure for lazy and none"))
    else:
        r = lz / nn
        out.append(("throughput", r >= THROUGHPUT_MIN,
                    f"lazy {lz:,.0f} ops/s = {r:.3f}x none's {nn:,.0f} "
                    f"(at least {THROUGHPUT_MIN}x)"))
    li, fi = v("lazy", "hackbench", "invol_per_op"), v("full", "hackbench", "invol_per_op")
    if li is None or fi is None:
        out.append(("switches", None, "no invol_per_op figure for lazy and full"))
    else:
        out.append(("switches", li < fi,
                    f"lazy {li:.4f} involuntary switches per message, full {fi:.4f} "
                    "(fewer than full)"))
    lf = v("lazy", "wakeup_hog", "max", **{"class": "fifo"})
    ff = v("full", "wakeup_hog", "max", **{"class": "fifo"})
    if lf is None or not ff:
        out.append(("latency", None, "no FIFO wakeup_hog figure for lazy and full"))
    else:
        out.append(("latency", lf <= FIFO_MAX * ff,
                    f"FIFO max lazy {lf:,} ns = {lf / ff:.3f}x full's {ff:,} "
                    f"(at most {FIFO_MAX}x)"))
    ln = v("lazy", "wakeup_hog", "max", **{"class": "normal"})
    fn = v("full", "wakeup_hog", "max", **{"class": "normal"})
    tick = v("lazy", "wakeup_hog", "tick_ns", **{"class": "normal"})
    if ln is None or fn is None or not tick:
        out.append(("tick", None, "no normal wakeup_hog figure for lazy and full"))
    else:
        out.append(("tick", ln <= tick + fn,
                    f"normal max lazy {ln:,} ns, full {fn:,} ns: "
                    f"{ln - fn:,} ns more, the tick is {tick:,} ns"))
    return out


def claim(judged: dict) -> str:
    """The sentence RESULTS.md and README quote: computed, not typed."""
    tests = [t for res in judged.values() for t in res if t[0] != "tick"]
    if not tests:
        return "E8's claim: **not judged**, no figures to judge."
    if any(ok is None for _, ok, _ in tests):
        return ("E8's claim: **not judged** everywhere: a figure is missing "
                "(the lines above say which).")
    bad = [f"{'/'.join(map(str, k))} {name}" for k, res in judged.items()
           for name, ok, _ in res if name != "tick" and not ok]
    if not bad:
        return ("E8's claim: **borne out** in every configuration judged "
                f"({len(judged)}): lazy's throughput is at least "
                f"{THROUGHPUT_MIN}x none's with fewer involuntary switches per "
                f"message than full, and its FIFO wake-up latency at most "
                f"{FIFO_MAX}x full's.")
    return "E8's claim: **not borne out**: " + ", ".join(bad) + " missed."


def sections(run: report.Run, notes: report.Notes, add) -> None:
    if not any(report_user.wanted(run, b) for b in
               ("hackbench", "wakeup_hog", "mode_cost")):
        return
    data = run.data
    icount = data["clock"] == "icount"
    u = report.unit(data)
    add("## E8: lazy preemption")
    add("")
    add("Linux's lazy preemption commit (2024) says `PREEMPT_LAZY` tries to "
        "get voluntary's throughput with full's latency. `bench hackbench`: "
        "groups of kernel threads passing 100-byte messages through "
        "channels (ops/s: messages per second; invol/op: involuntary "
        "switches, Linux's nivcsw, per message; in full a woken receiver "
        "preempts its sender after every message). `bench wakeup_hog`: "
        "a FIFO, then a normal sleeper's wake-up latency while a normal "
        f"hog runs on CPU 0 ({u}). The ratio beside ops/s is to none's, "
        "beside the FIFO latency to full's.")
    add("")
    models = [m for m in run.models if benchlib.valid_config(m, "lazy")]
    modes = [m for m in E8_MODES if m in run.modes]
    judged = {}
    for smp in run.smps:
        for model in models:
            add(report.heading(data, f"E8, COUNT={model}", smp))
            add("")
            add("| mode | hackbench ops/s | invol/op | FIFO max | FIFO avg "
                "| normal max | normal avg |")
            add("|---|---|---|---|---|---|---|")
            base = value(run, model, "none", smp, "hackbench", "ops_per_sec")
            ffull = value(run, model, "full", smp, "wakeup_hog", "max",
                          **{"class": "fifo"})
            for mode in modes:
                def g(bench, key, **ident):
                    return value(run, model, mode, smp, bench, key, **ident)
                ops = g("hackbench", "ops_per_sec")
                inv = g("hackbench", "invol_per_op")
                fmax = g("wakeup_hog", "max", **{"class": "fifo"})
                cells = [f"**{mode}**" + report_user.flagged(run, notes, model, mode, smp),
                         report.fmt(ops) + (report.ratio(ops, base) if mode != "none" else ""),
                         report.DASH if inv is None else f"{inv:.4f}",
                         report.fmt(fmax) + (report.ratio(fmax, ffull) if mode != "full" else ""),
                         report.fmt(g("wakeup_hog", "avg", **{"class": "fifo"})),
                         report.fmt(g("wakeup_hog", "max", **{"class": "normal"})),
                         report.fmt(g("wakeup_hog", "avg", **{"class": "normal"}))]
                if ops is None and fmax is None:
                    cells[1] += notes.ref(run.why_missing(model, mode, smp))
                add("| " + " | ".join(cells) + " |")
            add("")
            if not icount:
                add("Not judged: the figures are wall-clock times (the "
                    "targets are instruction counts, under icount).")
                add("")
                continue
            res = judged[(model, smp)] = judge_one(run, model, smp)
            for name, ok, text in res:
                mark = ("not judged" if ok is None else
                        "met" if ok else "**missed**")
                add(f"- {name}: {mark}: {text}")
            add("")
    if icount:
        add(claim(judged))
        add("")
    add("### The mode machinery's own cost")
    add("")
    add("`bench mode_cost`, in none mode with a reschedule request pending: "
        "an interrupt round trip from kernel code (its exit asks the mode) "
        "and a preempt_disable()/preempt_enable() pair (the enable calls "
        "preempt_schedule_thunk). `patched`: the patch sites as fold runs "
        "them (5-byte NOPs); `variable`: the sites rewritten to jump to a "
        f"load and test of preempt_mode, the code they replaced ({u}).")
    add("")
    for smp in run.smps:
        add(report.heading(data, "mode_cost, none mode", smp))
        add("")
        add("| model | IRQ round trip, patched | variable | saved | "
            "preempt_enable(), patched | variable | saved |")
        add("|---|---|---|---|---|---|---|")
        for model in run.models:
            cells = [f"**{model}**"]
            for what in benchlib.MODE_COST_WHAT:
                got = {via: mode_cost(run, model, smp, what, via)
                       for via in benchlib.MODE_COST_VIA}
                p, var = got["patched"], got["variable"]
                cells += [report.fmt(p), report.fmt(var),
                          report.DASH if p is None or var is None else f"{var - p:+.2f}"]
            add("| " + " | ".join(cells) + " |")
        add("")
