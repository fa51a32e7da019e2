"""Self-tests of E8's section of RESULTS.md (tools/bench/report_e8.py):
the table from every mode's figures, and the claim's verdict computed from
them: borne out when lazy meets all three tests, not borne out (naming
the test) when one figure is doctored past its bound, not judged under a
wall clock. Run by selftest.main with selftest's Cases.
"""

from __future__ import annotations

import re

from selftest import expect, mentions
from selftest_user import row, section


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


CASES = [("e8_report", test_e8_report)]
