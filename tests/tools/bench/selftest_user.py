"""Self-tests of the user-space benchmarks (bench uaccess, syscall and
userlat): the plan's loads, the swept mode of uaccess, the kernel's
complaints, and RESULTS.md's sections with their targets. Run by
selftest.main (tools/bench/run-bench --self-test) with selftest's Cases,
whose samples and helpers they use.
"""

from __future__ import annotations

import re

from selftest import SAMPLE_PLAN, TEST_KERNEL, Failed, expect, mentions, \
    synth_log
from tools.lib import qemu, serial


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
            (all6, ["sideways"], "latency: none, hog, pingpong; userlat: "
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
             "mode=full (COUNT=off has no such mode)")
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


CASES = [(f.__name__[5:], f) for f in (test_user_plan, test_user_judge,
                                       test_user_report,
                                       test_user_report_one_boot)]
