"""RESULTS.md's IPC sections: the call+reply round trip and the
notification's signal-to-wake from `bench ipc`, and the interrupt-to-
user-driver latency from `bench udriver`, per configuration, with the
anchors beside them and the IPC fast path's targets judged under icount:

    the same-CPU call+reply round trip with no payload (the fast path):
    at most IPC_TARGET instructions, and at most LINUX_FUTEX_SHARE of
    LINUX_FUTEX_RT, a futex ping-pong round trip in a Linux 6.1 guest
    measured in the same clock.

seL4 publishes its fastpath's cost in cycles of real CPUs
(https://sel4.systems/performance.html, from sel4bench); cycles are not
instructions, so the page cites it and does not divide by it.
"""

from __future__ import annotations

import benchlib
import report
import report_user

IPC_TARGET = 400                # instructions, same CPU, 0 bytes, call+reply
LINUX_FUTEX_RT = 8519           # instructions: futex ping-pong round trip, Linux guest, icount
LINUX_FUTEX_SHARE = 0.25        # the fast path's target: at most a quarter of it

CALLS = (("same", "0"), ("same", "64"), ("cross", "0"), ("cross", "64"))
NOTIFY = ("same", "cross")
UDRIVER = (("timer", "none"), ("timer", "hog"), ("uart", "none"))


def call_value(run: report.Run, model, mode, smp, cpus, size):
    return run.value(model, mode, smp, "ipc", "ns_per_call", test="call",
                     placement=cpus, bytes=size)


def ipc_section(run: report.Run, notes: report.Notes, add) -> None:
    data = run.data
    u = report.unit(data)
    icount = data["clock"] == "icount"
    add("## IPC: call+reply and notifications")
    add("")
    add("`bench ipc`: `user/ping` calls `user/pong` (an echo server) in a "
        "loop, both pinned to one CPU (`same`: the fast path's case, a "
        "direct switch) or to two (`cross`: a wake-up on the other CPU, "
        "with the RESCHEDULE IPI and the fold), with 0 and 64 bytes of "
        "payload; `user/sigpp` pairs signal and wait on two notifications. "
        f"ns per round trip or per signal-to-wake ({u}). Anchors in the same "
        f"clock: a futex ping-pong round trip in a Linux 6.1 guest takes "
        f"{LINUX_FUTEX_RT:,} instructions. seL4 publishes its fastpath IPC "
        "in cycles on real CPUs (sel4.systems/performance.html, from "
        "sel4bench), which do not convert to an instruction count. Target: "
        f"the same-CPU round trip with no payload at most "
        f"{IPC_TARGET} instructions and at most "
        f"{LINUX_FUTEX_SHARE:g} of the Linux round trip "
        f"({LINUX_FUTEX_RT * LINUX_FUTEX_SHARE:,.0f}).")
    add("")
    judged, judged_share = [], []
    for smp in run.smps:
        cols = [(c, b) for c, b in CALLS if c == "same" or smp >= 2]
        ncols = [c for c in NOTIFY if c == "same" or smp >= 2]
        add(report.heading(data, "IPC: ns per call+reply / per signal", smp))
        add("")
        head = ["model", "mode"] + [f"call {c} {b} B" for c, b in cols] + \
            [f"notify {c}" for c in ncols] + ["vs Linux futex", f"≤ {LINUX_FUTEX_SHARE:g}×",
                                               f"≤ {IPC_TARGET}"]
        add("| " + " | ".join(head) + " |")
        add("|" + "---|" * len(head))
        for model, mode in report_user.pairs(run):
            if (model, mode, smp) not in run.configs:
                continue
            mark = report_user.flagged(run, notes, model, mode, smp)
            cells = [f"**{model}**", mode + mark]
            for c, b in cols:
                cells.append(report.fmt(call_value(run, model, mode, smp, c, b)))
            for c in ncols:
                cells.append(report.fmt(run.value(model, mode, smp, "ipc",
                                                  "ns_per_signal", test="notify", placement=c)))
            fast = call_value(run, model, mode, smp, "same", "0")
            if fast is None:
                cells[2] += notes.ref(run.why_missing(model, mode, smp))
                cells += [report.DASH] * 3
            else:
                share = fast / LINUX_FUTEX_RT
                name = f"{model}/{mode} smp={smp}"
                for ok, into in ((share <= LINUX_FUTEX_SHARE, judged_share),
                                 (fast <= IPC_TARGET, judged)):
                    into.append((name, fast, ok))
                cells.append(f"{share:.2f}×")
                cells += [("met" if ok else "missed") if icount else "not judged"
                          for ok in (share <= LINUX_FUTEX_SHARE, fast <= IPC_TARGET)]
            add("| " + " | ".join(cells) + " |")
        add("")
    if icount:
        add(report_user.verdict(
            judged_share, f"same-CPU call+reply ≤ {LINUX_FUTEX_SHARE:g}× Linux's "
            f"{LINUX_FUTEX_RT:,}, that is ≤ {LINUX_FUTEX_RT * LINUX_FUTEX_SHARE:,.0f}",
            lambda v: f"{v:,.2f}"))
        add("")
        add(report_user.verdict(
            judged, f"same-CPU call+reply ≤ {IPC_TARGET} instructions",
            lambda v: f"{v:,.2f}"))
    else:
        add(report_user.not_judged(data))
    add("")


def udriver_section(run: report.Run, notes: report.Notes, add) -> None:
    data = run.data
    u = report.unit(data)
    add("## Interrupt to user-level driver")
    add("")
    add("`bench udriver`: an interrupt bound to a notification wakes a user "
        "thread waiting on it (`timer`: an hrtimer's interrupt signals it; "
        "`uart`: IRQ 4 from the 16550 to `user/serial_drv`, which QEMU "
        "raises while the driver itself still runs, so it measures the "
        "driver's own way into `notify_wait()`), idle and beside `user/spin` "
        f"on the same CPU. Mean and maximum ns ({u}).")
    add("")
    for smp in run.smps:
        add(report.heading(data, "interrupt to user driver: mean / max ns", smp))
        add("")
        head = ["model", "mode"] + [f"{s} {l}" for s, l in UDRIVER]
        add("| " + " | ".join(head) + " |")
        add("|" + "---|" * len(head))
        for model, mode in report_user.pairs(run):
            if (model, mode, smp) not in run.configs:
                continue
            cells = [f"**{model}**", mode + report_user.flagged(run, notes, model, mode, smp)]
            for src, load in UDRIVER:
                # bench udriver measures every mode in each boot; the
                # boot's own mode is the figure of its row.
                res = run.results.get((model, mode, smp), [])
                rows = benchlib.find(res, "udriver", src=src, load=load, mode=mode)
                r = rows[0] if rows else None
                mean, mx = (r.get("mean_ns"), r.get("max_ns")) if r else (None, None)
                cells.append(report.DASH + notes.ref(run.why_missing(model, mode, smp))
                             if mean is None else f"{report.fmt(mean)} / {report.fmt(mx)}")
            add("| " + " | ".join(cells) + " |")
        add("")


def sections(run: report.Run, notes: report.Notes, add) -> None:
    if report_user.wanted(run, "ipc"):
        ipc_section(run, notes, add)
    if report_user.wanted(run, "udriver"):
        udriver_section(run, notes, add)
