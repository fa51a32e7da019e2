"""RESULTS.md's user-space sections: the null system call, E7's
copy_from_user table and a user thread's wake-up latency beside the
kernel thread's, with their targets judged under icount:

    syscall   getpid's round trip from ring 3: at most SYSCALL_TARGET
              instructions
    userlat   a user thread's timer wake-up (avg): at most USERLAT_TARGET
              times `bench latency`'s avg, same model/mode/smp/load

A section appears when the run asked for its benchmark or some
configuration reported it. Under a wall clock the figures are shown and
the targets are not judged (they are instruction counts).
"""

from __future__ import annotations

import benchlib
import report

SYSCALL_TARGET = 150            # instructions per getpid round trip
USERLAT_TARGET = 1.5            # user avg / kernel avg, same configuration


def wanted(run: report.Run, bench: str) -> bool:
    plan = benchlib.parse_plan(run.data.get("autorun", "").split(";"))
    return any(name == bench for name, _ in plan) or any(
        r.bench == bench for res in run.results.values() for r in res)


def pairs(run: report.Run) -> list[tuple[str, str]]:
    """The (model, mode) rows of a per-configuration table, buildable only."""
    return [(m, md) for m in run.models for md in run.modes
            if benchlib.valid_config(m, md)]


def flagged(run: report.Run, notes: report.Notes, model: str, mode: str,
            smp: int) -> str:
    """A footnote for a figure from a configuration that did not pass."""
    c = run.configs.get((model, mode, smp))
    if c is None or c["status"] == "ok":
        return ""
    return notes.ref(f"{model}/{mode} smp={smp}: {c['why']}; the figure is "
                     "from its log all the same.")


def verdict(judged: list[tuple[str, float, bool]], what: str, fmt) -> str:
    """One sentence: 'target met' when every judged figure is within it,
    else 'target missed' naming those that are not."""
    if not judged:
        return f"Target ({what}): not judged, no figure to judge."
    missed = [(name, v) for name, v, ok in judged if not ok]
    if not missed:
        worst = max(judged, key=lambda j: j[1])
        return (f"Target ({what}): **target met** in every configuration "
                f"judged ({len(judged)}; the largest: {fmt(worst[1])}, "
                f"{worst[0]}).")
    return (f"Target ({what}): **target missed** in {len(missed)} of "
            f"{len(judged)} configurations: "
            + ", ".join(f"{n} ({fmt(v)})" for n, v in missed) + ".")


def not_judged(data: dict) -> str:
    return (f"Target: not judged. The targets are instruction counts, "
            f"judged under icount; this run's clock is "
            f"{report.clock_label(data)}.")


# ---------------------------------------------------------------------------

def syscall_section(run: report.Run, notes: report.Notes, add) -> None:
    data = run.data
    u = report.unit(data)
    icount = data["clock"] == "icount"
    add("## Null system call")
    add("")
    add("`bench syscall`: `user/getpid_bench` calls getpid in a loop in ring 3 "
        "and times the loop with clock_gettime: the SYSCALL entry, the table, "
        "exit_to_user_mode() and SYSRET, in ns per round trip "
        f"({u}). Target: at most {SYSCALL_TARGET} instructions.")
    calls = sorted({r.fields["calls"] for res in run.results.values()
                    for r in res if r.bench == "syscall"}, key=int)
    if calls:
        add(f"Calls per figure: {', '.join(calls)}.")
    add("")
    for smp in run.smps:
        add(report.heading(data, "syscall: ns per getpid round trip", smp))
        add("")

        def get(m, md, s=smp):
            return run.value(m, md, s, "syscall", "ns_per_call")
        for line in report.grid(run, notes, smp, get):
            add(line)
        add("")
        if icount:
            judged = [(f"{m}/{md}", v, v <= SYSCALL_TARGET)
                      for m, md in pairs(run)
                      if (v := get(m, md)) is not None]
            add(f"smp={smp}: " + verdict(
                judged, f"≤ {SYSCALL_TARGET} instructions per call",
                lambda v: f"{v:,.2f}"))
        else:
            add(not_judged(data))
        add("")


def uaccess_value(run: report.Run, model: str, mode: str, smp: int,
                  mf: str, size: str):
    """A copy_from_user figure measured in mode: from the boot of
    model/mode if it has it, else from another boot of the model (bench
    uaccess switches the mode at run time); (value, the boot's mode)."""
    boots = [mode] + [md for md in run.modes if md != mode]
    for boot in boots:
        v = benchlib.figure(run.results.get((model, boot, smp), []),
                            "uaccess", "ns_per_copy", mode=mode,
                            might_fault=mf, bytes=size)
        if v is not None:
            return v, boot
    return None, None


def uaccess_section(run: report.Run, notes: report.Notes, add) -> None:
    data = run.data
    u = report.unit(data)
    sizes = benchlib.UACCESS_BYTES
    add("## E7: copy_from_user, might_fault() on and off")
    add("")
    add("`bench uaccess`: copy_from_user() of 8, 64 and 4096 bytes from a "
        "user page, by a kernel thread with IRQs and preemption enabled, in "
        "every preemption mode the build can run (it switches the mode at "
        "run time) and with might_fault() on and off: the difference is "
        "might_fault()'s price, which Andi Kleen measured at about 2.5 µs a "
        f"call in 2013's voluntary kernels. ns per call ({u}); `Δ` is on − "
        "off for 8 / 64 / 4096 bytes.")
    iters = sorted({r.fields["iters"] for res in run.results.values()
                    for r in res if r.bench == "uaccess"}, key=int)
    if iters:
        add(f"Calls per figure: {', '.join(iters)}.")
    add("")
    for smp in run.smps:
        add(report.heading(data, "copy_from_user: ns per call", smp))
        add("")
        cols = [f"{b} B {mf}" for b in sizes for mf in benchlib.MIGHT_FAULT]
        add("| model | mode | " + " | ".join(cols) + " | Δ might_fault |")
        add("|---|---|" + "---|" * (len(cols) + 1))
        for model in run.models:
            if not any((model, md, smp) in run.configs for md in run.modes):
                continue
            for mode in benchlib.MODES:
                if not benchlib.valid_config(model, mode):
                    continue
                got = {(mf, b): uaccess_value(run, model, mode, smp, mf, b)
                       for mf in benchlib.MIGHT_FAULT for b in sizes}
                if mode not in run.modes and all(
                        v is None for v, _ in got.values()):
                    continue
                cells, boots = [], set()
                for b in sizes:
                    for mf in benchlib.MIGHT_FAULT:
                        v, boot = got[(mf, b)]
                        cells.append(report.fmt(v) if v is not None else
                                     report.DASH + notes.ref(
                                         f"{model} smp={smp}: no boot reported "
                                         f"copy_from_user in mode {mode}, "
                                         f"might_fault={mf}, {b} bytes."))
                        if boot:
                            boots.add(boot)
                deltas = [got[("on", b)][0] - got[("off", b)][0]
                          if None not in (got[("on", b)][0], got[("off", b)][0])
                          else None for b in sizes]
                delta = (" / ".join(f"{d:+.2f}" for d in deltas)
                         if None not in deltas else report.DASH)
                label = f"{mode}"
                for boot in sorted(boots):
                    if boot != mode:
                        label += notes.ref(f"{model} smp={smp}: mode {mode} as "
                                           f"measured in the {model}/{boot} "
                                           "boot (no figure from a boot of "
                                           f"{model}/{mode}).")
                    label += flagged(run, notes, model, boot, smp)
                add(f"| **{model}** | {label} | " + " | ".join(cells)
                    + f" | {delta} |")
        add("")


def userlat_section(run: report.Run, notes: report.Notes, add) -> None:
    data = run.data
    u = report.unit(data)
    icount = data["clock"] == "icount"
    found = {r.fields["load"] for res in run.results.values() for r in res
             if r.bench == "userlat"}
    planned = {a.get("load", benchlib.USERLAT_LOADS[0]) for n, a in
               benchlib.parse_plan(data.get("autorun", "").split(";"))
               if n == "userlat"}
    order = benchlib.USERLAT_LOADS
    loads = sorted(found | planned,
                   key=lambda l: (order.index(l) if l in order else len(order), l))
    prio = any("prio" in r.fields for res in run.results.values() for r in res
               if r.bench == "userlat")
    add("## User-space wake-up latency")
    add("")
    add("`bench userlat`: `user/cyclictest` sleeps in clock_nanosleep to "
        "absolute deadlines on CPU 0 and records how late it woke "
        "(`load=hog`: beside `user/spin` on the same CPU), beside `bench "
        "latency`'s kernel thread in the same configuration and load (its "
        f"CPU 0 figure). ns ({u}); the ratio is the user thread's avg over "
        f"the kernel thread's. Target: at most {USERLAT_TARGET}×."
        + (" Under icount the vCPUs run one at a time, so a kernel figure "
           "with smp=2 includes the other vCPU's turn: the smp=1 tables "
           "compare like with like." if icount and max(run.smps) >= 2
           else ""))
    params = sorted({r.fields.get("loops", "") for res in run.results.values()
                     for r in res if r.bench == "userlat"}, key=str)
    if params:
        add(f"Loops: {', '.join(params)}.")
    add("")
    head = ["model", "mode"] + (["prio"] if prio else []) + [
        "min", "avg", "max", "kernel avg", "user / kernel", "target"]
    for load in loads:
        for smp in run.smps:
            add(report.heading(data, f"user wake-up latency (ns), load={load}",
                               smp))
            add("")
            add("| " + " | ".join(head) + " |")
            add("|" + "---|" * len(head))
            judged = []
            for model, mode in pairs(run):
                res = run.results.get((model, mode, smp))
                rows = benchlib.find(res or [], "userlat", load=load)
                r = rows[0] if rows else None
                mark = flagged(run, notes, model, mode, smp)
                cells = [f"**{model}**", mode + mark]
                if prio:
                    cells.append(r.fields.get("prio", "") if r else "")
                for k in ("min_ns", "avg_ns", "max_ns"):
                    v = r.get(k) if r else None
                    cells.append(report.fmt(v) if v is not None else
                                 report.DASH + notes.ref(
                                     run.why_missing(model, mode, smp)))
                kavg = run.value(model, mode, smp, "latency", "avg", load=load)
                cells.append(report.fmt(kavg) if kavg is not None else
                             report.DASH + notes.ref(
                                 f"{model}/{mode} smp={smp}: no `bench latency "
                                 f"load={load}` figure to compare with."))
                avg = r.get("avg_ns") if r else None
                if avg is None or not kavg:
                    cells += [report.DASH, report.DASH]
                else:
                    q = avg / kavg
                    ok = q <= USERLAT_TARGET
                    cells.append(f"{q:,.2f}×")
                    cells.append(("met" if ok else "missed") if icount
                                 else "not judged")
                    judged.append((f"{model}/{mode}", q, ok))
                add("| " + " | ".join(cells) + " |")
            add("")
            add(f"smp={smp}, load={load}: " + (verdict(
                judged, f"user avg ≤ {USERLAT_TARGET}× kernel avg",
                lambda q: f"{q:,.2f}×") if icount else not_judged(data)))
            add("")


def sections(run: report.Run, notes: report.Notes, add) -> None:
    """Every user-space section the run has, in order."""
    for bench, section in (("syscall", syscall_section),
                           ("uaccess", uaccess_section),
                           ("userlat", userlat_section)):
        if wanted(run, bench):
            section(run, notes, add)
