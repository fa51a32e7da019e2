"""The experiments E1-E9 (E10: e10.py): each claim of the 2013 discussion (and of the
2024/2025 patches), and how the figures of `make experiments`' runs judge
it. Every figure comes from the runs' results (benchlib Results, the E5
analysis); an entry without its figures is "missing", with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import benchlib  # tools/bench, on sys.path (run-experiments puts it there)

LWN = "LWN, \"Optimizing preemption\", 2013-08-14 (https://lwn.net/Articles/563185/)"
RFC = ("Peter Zijlstra, RFC patch \"sched: Move preempt_count into per-cpu\" / "
       "\"fold need_resched\", LKML, 2013-08-12")
LAZY = "Peter Zijlstra, \"sched: Add Lazy preemption model\", Linux commit, 2024"
RESTRICT = "Peter Zijlstra, \"sched: Further restrict the preemption modes\", LKML, 2025"

BENCH_CMD = "tools/bench/run-bench --models \"folded percpu ti off\" --modes \"{modes}\" --smp 1 --loads hog"


@dataclass
class Entry:
    id: str
    title: str
    claim: str
    source: str
    command: str
    figure: str = ""            # Markdown: the table, plot, excerpt
    verdict: str = ""           # "borne out", "not borne out", "partly", "inconclusive"
    why: str = ""
    missing: str = ""           # the reason, when there are no figures
    required: bool = True       # a missing figure makes the run fail
    plots: list = field(default_factory=list)

    def miss(self, reason: str) -> "Entry":
        self.missing = reason
        return self


def ratio(a, b) -> str:
    return f"{a / b:.2f}x" if b else "n/a"


def table(head: list, rows: list) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def num(v) -> str:
    return f"{v:,.2f}" if isinstance(v, float) else f"{v:,}"


# ---- E1, E2: the pair and the preempt-heavy loop ---------------------------

def pair_figures(results):
    pair = {v: benchlib.figure(results, "preempt", "ns_per_pair", variant=v,
                               model="folded", mode="full", smp=1)
            for v in ("folded", "percpu", "ti", "off")}
    heavy = {m: benchlib.figure(results, "throughput", "ns_per_op", test="preempt_heavy",
                                model=m, mode="full" if m != "off" else "voluntary", smp=1)
             for m in ("folded", "percpu", "ti", "off")}
    return pair, heavy


def e1(results, modes) -> Entry:
    e = Entry("E1", "the count in thread_info vs per CPU",
              "\"Move preempt_count into per-cpu\": the count at %gs:offset instead of "
              "in thread_info, found from the stack pointer", RFC,
              BENCH_CMD.format(modes=modes) + "  (bench preempt, bench throughput)")
    pair, heavy = pair_figures(results)
    if None in (pair["ti"], pair["percpu"], heavy["ti"], heavy["percpu"]):
        return e.miss("no `BENCH preempt` / `BENCH throughput test=preempt_heavy` figures "
                      "for ti and percpu in the bench run (see its log)")
    e.figure = table(["", "ti (thread_info)", "percpu", "percpu / ti"], [
        ["preempt_disable+enable pair, ns (= instructions)", num(pair["ti"]), num(pair["percpu"]),
         ratio(pair["percpu"], pair["ti"])],
        ["preempt_heavy, ns per op (full)", num(heavy["ti"]), num(heavy["percpu"]),
         ratio(heavy["percpu"], heavy["ti"])]])
    wins = (pair["percpu"] < pair["ti"]) + (heavy["percpu"] < heavy["ti"])
    e.verdict = ("not borne out", "partly", "borne out")[wins]
    e.why = (f"the per-CPU count saves {pair['ti'] - pair['percpu']:.0f} instructions a pair "
             "(no `mov %rsp; and $mask` to find thread_info before each access) and "
             f"{heavy['ti'] - heavy['percpu']:.1f} ns per preempt-heavy op")
    return e


def e2(results, modes) -> Entry:
    e = Entry("E2", "the folded bit vs a separate flag test",
              "fold need_resched into bit 31 of the count, inverted, so that preempt_enable() "
              "is `decl; je` and tests no thread flag", RFC,
              BENCH_CMD.format(modes=modes) + "  (bench preempt, bench throughput)")
    pair, heavy = pair_figures(results)
    if None in (pair["folded"], pair["percpu"], heavy["folded"], heavy["percpu"]):
        return e.miss("no `BENCH preempt` / preempt_heavy figures for folded and percpu")
    e.figure = table(["", "percpu (flag tested)", "folded", "off (no count)"], [
        ["pair, ns", num(pair["percpu"]), num(pair["folded"]), num(pair["off"])],
        ["preempt_heavy, ns per op (full; off: voluntary)", num(heavy["percpu"]),
         num(heavy["folded"]), num(heavy["off"])]])
    wins = (pair["folded"] < pair["percpu"]) + (heavy["folded"] < heavy["percpu"])
    e.verdict = ("not borne out", "partly", "borne out")[wins]
    e.why = (f"folding removes the flag load and test: {pair['percpu'] - pair['folded']:.0f} "
             f"instructions a pair and {heavy['percpu'] - heavy['folded']:.1f} ns per "
             f"preempt-heavy op, leaving {pair['folded'] - pair['off']:.0f} instructions a pair "
             "(incl, decl, je) over COUNT=off")
    return e


# ---- E3: the race ----------------------------------------------------------

def e3(race: dict, command: str) -> Entry:
    e = Entry("E3", "remote atomic clears lose reschedules",
              "letting other CPUs clear the bit with a locked op races the owner's unlocked "
              "`incl`/`decl`: requests get lost; hence the fold in the RESCHEDULE IPI, "
              "on the owner", LWN + "; " + RFC, command)
    rows, verdicts = [], {}
    for model in ("racy", "folded"):
        r = race.get(model)
        if isinstance(r, str) or r is None:
            return e.miss(f"COUNT={model}: {r or 'no BENCH race line'}")
        rows.append([model, num(r.get("rounds")), num(r.get("raced")), num(r.get("lost")),
                     r.fields.get("result", "")])
        verdicts[model] = r
    e.figure = table(["COUNT", "requests", "raced", "lost", "result"], rows) + \
        "\n\n(plain TCG, wall clock, -smp 2: under -icount QEMU never interleaves two vCPUs " \
        "inside one instruction, so nothing can be lost there)"
    racy, folded = verdicts["racy"], verdicts["folded"]
    if "inconclusive" in (racy.fields.get("result"), folded.fields.get("result")):
        e.verdict = "inconclusive"
        e.why = "fewer than half the requests raced the count updates (host too loaded): " \
                "rerun on a quieter host"
    elif racy.get("lost", 0) > 0 and folded.get("lost", 1) == 0:
        e.verdict = "borne out"
        e.why = f"racy lost {racy.get('lost')} of {racy.get('raced')} raced requests; the IPI fold lost none"
    elif folded.get("lost", 0) > 0:
        e.verdict, e.why = "not borne out", "the folded model lost requests: a bug"
    else:
        e.verdict = "not borne out"
        e.why = "the racy model lost nothing in this run (the race window was never hit)"
    return e


# ---- E4: PREEMPT and throughput ---------------------------------------------

def e4(results, modes) -> Entry:
    e = Entry("E4", "\"PREEMPT munches throughput\"",
              "full preemption costs throughput, which is why distributions ship "
              "voluntary or none", LWN,
              BENCH_CMD.format(modes=modes) + "  (bench throughput test=preempt_heavy)")
    rows, worst = [], 0.0
    for m in ("folded", "percpu", "ti"):
        fig = {md: benchlib.figure(results, "throughput", "ns_per_op", test="preempt_heavy",
                                   model=m, mode=md, smp=1) for md in ("none", "voluntary", "full")}
        if None in fig.values():
            return e.miss(f"no preempt_heavy figure for COUNT={m} in every mode")
        cost = fig["full"] / fig["none"] - 1
        worst = max(worst, cost)
        rows.append([m, num(fig["none"]), num(fig["voluntary"]), num(fig["full"]), f"{cost * 100:+.1f} %"])
    e.figure = table(["COUNT", "none", "voluntary", "full", "full vs none"], rows) + \
        "\n\nns per operation (W=100 instructions of work in a preempt pair, a spinlock " \
        "every few ops), -smp 1, icount.\n\n![preempt-heavy throughput](experiments/throughput-smp1.png)"
    e.plots.append("throughput-smp1.png")
    if worst <= 0.02:
        e.verdict = "not borne out"
        e.why = (f"in fold the mode costs at most {worst * 100:.1f} % of preempt-heavy throughput: "
                 "the count is kept in every mode (what costs is the count model, E1/E2), and "
                 "the mode is patched code, not a test")
    else:
        e.verdict = "borne out" if worst > 0.10 else "partly"
        e.why = f"full costs up to {worst * 100:.1f} % against none"
    return e


# ---- E6: latency --------------------------------------------------------------

def e6(results, modes) -> Entry:
    e = Entry("E6", "latency of voluntary points vs full",
              "voluntary preemption points bound latency only by their spacing; full "
              "preemption preempts at the interrupt", LWN,
              BENCH_CMD.format(modes=modes) + "  (bench latency load=hog)")
    rows, ok = [], True
    for m in ("folded", "percpu", "ti"):
        fig = {md: benchlib.figure(results, "latency", "max", worst=True, load="hog",
                                   model=m, mode=md, smp=1) for md in ("none", "voluntary", "full")}
        if None in fig.values():
            return e.miss(f"no `BENCH latency load=hog` for COUNT={m} in every mode")
        ok = ok and fig["full"] < fig["voluntary"] <= fig["none"]
        rows.append([m, num(fig["none"]), num(fig["voluntary"]), num(fig["full"]),
                     ratio(fig["voluntary"], fig["full"])])
    e.figure = table(["COUNT", "none", "voluntary", "full", "voluntary / full"], rows) + \
        "\n\nworst wake-up latency (ns, icount) of a FIFO thread beside a kernel hog, -smp 1." \
        "\n\n![latency histogram, hog, voluntary](experiments/latency-smp1-hog-voluntary.png)"
    e.plots.append("latency-smp1-hog-voluntary.png")
    e.verdict = "borne out" if ok else "not borne out"
    e.why = ("full's worst case is the interrupt path, voluntary's the spacing of the hog's "
             "might_resched() points, none's the hog's run" if ok else
             "full is not below voluntary in every model")
    return e


# ---- E7: might_fault ----------------------------------------------------------

def e7(results, modes) -> Entry:
    e = Entry("E7", "might_fault() in copy_from_user",
              "Andi Kleen measured about 2.5 us per call in might_fault() on voluntary "
              "kernels; Linus proposed dropping the check", LWN,
              BENCH_CMD.format(modes=modes) + "  (bench uaccess)")
    rows, costs, offs = [], [], []
    for b in benchlib.UACCESS_BYTES:
        fig = {mf: benchlib.figure(results, "uaccess", "ns_per_copy", model="folded",
                                   mode="voluntary", might_fault=mf, bytes=b, smp=1)
               for mf in ("on", "off")}
        if None in fig.values():
            return e.miss("no `BENCH uaccess` figures for folded/voluntary")
        costs.append(fig["on"] - fig["off"])
        offs.append(fig["off"])
        rows.append([f"{b} B", num(fig["on"]), num(fig["off"]), f"{fig['on'] - fig['off']:+.2f}"])
    e.figure = table(["copy", "might_fault on", "off", "cost"], rows) + \
        "\n\nns per copy_from_user (= instructions), COUNT=folded, mode voluntary, -smp 1."
    c = max(costs)
    if c >= 2500:
        e.verdict, e.why = "borne out", f"might_fault() costs {c:.0f} ns a copy"
        return e
    e.verdict = "partly"
    e.why = (f"the check costs {c:.0f} instructions a copy, {costs[0] / offs[0] * 100:.0f} % "
             f"of an 8-byte copy and {costs[-1] / offs[-1] * 100:.1f} % of a page: worth "
             "dropping from the hot path, as Linus said, but nowhere near 2.5 us "
             "(Andi's figure was the debug machinery behind might_sleep(), which fold's "
             "check lacks)")
    return e
