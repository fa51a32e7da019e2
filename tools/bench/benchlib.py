"""Reading the kernel's BENCH lines, for tools/bench/run-bench.

The kernel's side of the contract: for every result, one line on the serial
port that starts with "BENCH ", then the benchmark's name, then
space-separated key=value pairs with no spaces inside a value. Times are in
nanoseconds (under icount: virtual ns = guest instructions); decimals use
'.', other numbers are integers; lists are comma-separated.

    BENCH preempt model=folded mode=full smp=1 clock=icount variant=folded iters=1000000 ns_per_pair=3.00
    BENCH irq ... iters=100000 ns_per_irq=123.45
    BENCH latency ... load=hog cpu=0 interval_us=1000 loops=2000 min=812 avg=900 p99=1500 max=1800
    BENCH latency_hist ... load=hog cpu=0 bucket_us=1 overflow=0 counts=0,0,5,1990,5
    BENCH throughput ... test=preempt_heavy cpu=0 W=100 p=1 ops=1000000 ns_per_op=103.00 ops_per_sec=9708737
    BENCH throughput ... test=ctxsw_same cpus=0,0 roundtrips=10000 ns_per_roundtrip=2345.00
    BENCH throughput ... test=ctxsw_cross cpus=0,1 roundtrips=10000 ns_per_roundtrip=...   (smp >= 2)
    BENCH throughput ... test=resched_ipi cpus=0,1 roundtrips=10000 ns_per_roundtrip=...   (smp >= 2)
    BENCH uaccess ... might_fault=on bytes=8 iters=20000 ns_per_copy=68.02   (mode= is the mode measured)
    BENCH syscall ... calls=100000 ns_per_call=124.06
    BENCH userlat ... load=hog loops=1000 min_ns=845 avg_ns=845 max_ns=846
    BENCH hackbench ... where=kernel groups=2 fds=4 loops=100 depth=16 ops=3200 ns=2516624 ops_per_sec=1271544.74 invol_per_op=0.0000 vol_per_op=0.1213
    BENCH wakeup_hog ... class=fifo cpu=0 interval_us=1000 loops=200 min=781 avg=781 max=782 tick_ns=1000000
    BENCH mode_cost ... what=irq_roundtrip via=patched iters=20000 ns=108.05   (mode= is the mode measured: none)
    BENCH ipc ... test=call placement=same bytes=0 calls=10000 ns_per_call=1386.01 messages=20004 fastpath=20003 folds_per_msg=0.00
    BENCH ipc ... test=notify placement=cross rounds=10000 ns_per_signal=1378.79 folds_per_signal=0.99   (cross: smp >= 2)
    BENCH ipc ... test=pairs pairs=2 calls=10000 round_trips=20000 ns=16625496 ns_per_round_trip=831.27 messages=40008 contended=0 contended_per_msg=0.0000 top_class=none top_contended=0
    BENCH udriver ... src=timer load=hog prio=0 samples=200 mean_ns=893.20 max_ns=907   (mode= is the mode measured)
    BENCH inversion ... pi=1 section_us=1000 medium_us=10000 high_wait_ns=979761 low_prio=30   (and pi=0)

A PREEMPT_RT kernel (make PREEMPT=rt) says mode=rt, and mode=rt-lazy for
what a benchmark that sweeps the modes measured in lazy.

Unknown benchmarks and unknown keys are kept as data. A line that breaks
the grammar, lacks a key its benchmark needs, carries a non-number where a
number belongs, or names another model/mode/smp/clock than the run it came
from is an error; so is a benchmark the run asked for that never reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MODELS = ("folded", "percpu", "ti", "off")
MODES = ("none", "voluntary", "full", "lazy", "rt")
BASELINE = ("off", "none")
VARIANTS = ("folded", "percpu", "ti", "off", "built")
LATENCY_LOADS = ("none", "hog", "pingpong", "lock", "local")
USERLAT_LOADS = ("none", "hog")
# The benchmarks run once per load (load=), and the loads each knows.
LOADS = {"latency": LATENCY_LOADS, "userlat": USERLAT_LOADS}
UACCESS_BYTES = ("8", "64", "4096")
MIGHT_FAULT = ("on", "off")
# Context keys a benchmark sweeps itself: `bench uaccess` switches the
# preemption mode at run time and reports every mode the build can run,
# so its mode= names the mode measured (one of the model's valid modes),
# not the configuration's, and tells its results apart.
SWEPT = {"uaccess": ("mode",), "mode_cost": ("mode",), "udriver": ("mode",)}
# E8 (bench/bench_hackbench.c, bench_wakeup_hog.c, bench_mode_cost.c)
WAKEUP_CLASSES = ("fifo", "normal")
MODE_COST_WHAT = ("irq_roundtrip", "enable_pending")
MODE_COST_VIA = ("patched", "variable")
THROUGHPUT_TESTS = ("preempt_heavy", "ctxsw_same", "ctxsw_cross", "resched_ipi")
CROSS_TESTS = ("ctxsw_cross", "resched_ipi")      # need two CPUs


# PREEMPT_RT runs full and lazy only, and its BENCH lines name them so.
RT_MODES = ("rt", "rt-lazy")


def valid_config(model: str, mode: str) -> bool:
    """COUNT=off has no preempt count, so the build refuses PREEMPT=full
    and PREEMPT=lazy (both preempt through the count), and PREEMPT=rt (on
    full). The build takes PREEMPT=rt with folded, percpu and ti; the
    matrix builds it with COUNT=folded only, the choice that keeps `make
    bench` short: one more build, not three (E9 compares rt with full and
    lazy, not count models with each other)."""
    if mode == "rt":
        return model == "folded"
    return not (model == "off" and mode in ("full", "lazy"))


def run_modes(model: str, mode: str) -> tuple:
    """The modes a build of model/mode can switch to at run time, as its
    BENCH lines name them: what `bench uaccess` and `bench udriver` sweep."""
    if mode == "rt":
        return RT_MODES
    return tuple(md for md in MODES if md != "rt" and valid_config(model, md))


# The keys every BENCH line carries, and what each benchmark adds.
COMMON_KEYS = ("model", "mode", "smp", "clock")
REQUIRED = {
    "preempt": ("variant", "iters", "ns_per_pair"),
    "irq": ("iters", "ns_per_irq"),
    "latency": ("load", "cpu", "interval_us", "loops", "min", "avg", "p99",
                "max"),
    "latency_hist": ("load", "cpu", "bucket_us", "overflow", "counts"),
    "throughput": ("test",),
    "uaccess": ("might_fault", "bytes", "iters", "ns_per_copy"),
    "syscall": ("calls", "ns_per_call"),
    "userlat": ("load", "loops", "min_ns", "avg_ns", "max_ns"),
    "hackbench": ("where", "ops", "ns", "ops_per_sec", "invol_per_op"),
    "wakeup_hog": ("class", "min", "avg", "max", "tick_ns"),
    "mode_cost": ("what", "via", "ns"),
    "ipc": ("test",),
    "udriver": ("src", "load", "samples", "mean_ns", "max_ns"),
    "inversion": ("pi", "section_us", "medium_us", "high_wait_ns", "low_prio"),
}
# IPC and the user-level driver (bench/bench_ipc.c, bench_udriver.c)
IPC_PLACEMENTS = ("same", "cross")                # cross: smp >= 2
IPC_BYTES = ("0", "64")
UDRIVER_CASES = tuple((s, l) for l in ("none", "hog") for s in ("uart", "timer"))
THROUGHPUT_REQUIRED = {
    "preempt_heavy": ("cpu", "W", "p", "ops", "ns_per_op"),
    "ctxsw_same": ("roundtrips", "ns_per_roundtrip"),     # and cpu or cpus
    "ctxsw_cross": ("cpus", "roundtrips", "ns_per_roundtrip"),
    "resched_ipi": ("cpus", "roundtrips", "ns_per_roundtrip"),
}
# bench ipc's keys per test= (a pairs line has no placement: one pair
# per CPU).
IPC_REQUIRED = {
    "call": ("placement", "bytes", "ns_per_call"),
    "notify": ("placement", "ns_per_signal"),
    "pairs": ("pairs", "round_trips", "ns_per_round_trip", "contended_per_msg"),
}
# Keys whose value must be a number (integer or decimal) or a list of them.
NUMERIC = {"smp", "cpu", "iters", "ns_per_pair", "ns_per_irq", "interval_us",
           "loops", "min", "avg", "p99", "max", "bucket_us", "overflow",
           "W", "p", "ops", "ns_per_op", "ops_per_sec", "roundtrips",
           "ns_per_roundtrip", "bytes", "ns_per_copy", "calls", "ns_per_call",
           "min_ns", "avg_ns", "max_ns", "groups", "fds", "depth", "ns",
           "invol_per_op", "vol_per_op", "tick_ns", "messages", "fastpath", "handoff",
           "folds_per_msg", "rounds", "ns_per_signal", "folds_per_signal",
           "prio", "samples", "mean_ns", "pi", "section_us", "medium_us",
           "high_wait_ns", "low_prio", "pairs", "round_trips", "ns_per_round_trip",
           "contended", "contended_per_msg", "top_contended"}
INT_LISTS = {"counts", "cpus"}
# The keys that tell two results of one benchmark apart.
IDENT_KEYS = ("variant", "load", "test", "cpu", "cpus", "might_fault", "bytes",
              "where", "class", "what", "via", "placement", "src", "pi", "pairs")

INT_RE = re.compile(r"^-?[0-9]+$")
DEC_RE = re.compile(r"^-?[0-9]+\.[0-9]+$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
INT_LIST_RE = re.compile(r"^([0-9]+(,[0-9]+)*)?$")
# "BENCH " at the start of a line, or after a printk prefix "[  1.23] 0: ".
BENCH_RE = re.compile(r"^(?:\[[ 0-9.]*\]\s*(?:[0-9]+:\s*)?)?BENCH(?:\s+(.*))?$")


def number(text: str):
    """'12' -> 12, '3.50' -> 3.5, anything else -> None."""
    if INT_RE.match(text):
        return int(text)
    if DEC_RE.match(text):
        return float(text)
    return None


def typed(key: str, text: str):
    """The JSON value of one field: numbers as numbers, lists as lists."""
    if key in INT_LISTS and INT_LIST_RE.match(text):
        return [int(x) for x in text.split(",") if x]
    n = number(text)
    return text if n is None else n


@dataclass
class Result:
    bench: str
    fields: dict            # key -> raw text
    line: int               # 1-based line number in the log
    raw: str                # the line as printed, from "BENCH"

    def get(self, key: str, default=None):
        v = self.fields.get(key)
        return default if v is None else typed(key, v)

    @property
    def ident(self) -> tuple:
        keys = SWEPT.get(self.bench, ()) + IDENT_KEYS
        return (self.bench,) + tuple((k, self.fields[k]) for k in keys
                                     if k in self.fields)

    def describe(self) -> str:
        return " ".join([self.bench] + [f"{k}={v}" for k, v in self.ident[1:]])

    def to_json(self) -> dict:
        return {"bench": self.bench, "line": self.line, "raw": self.raw,
                "fields": {k: typed(k, v) for k, v in self.fields.items()}}

    @classmethod
    def from_json(cls, d: dict) -> Result:
        # The raw line is the record; the typed fields are for other readers.
        res, errors = parse_line(d["raw"], d["line"])
        if res is None:
            raise ValueError("; ".join(errors))
        return res


@dataclass
class Parsed:
    results: list[Result] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def parse_line(text: str, number_: int) -> tuple[Result | None, list[str]]:
    """One BENCH line (from "BENCH"): the result, or None and the errors."""
    m = BENCH_RE.match(text)
    assert m, text
    words = (m.group(1) or "").split()
    where = f"line {number_}"
    if not words:
        return None, [f"{where}: BENCH line without a benchmark name: {text!r}"]
    bench, pairs = words[0], words[1:]
    errors = []
    if not NAME_RE.match(bench):
        errors.append(f"{where}: '{bench}' is not a benchmark name: {text!r}")
    fields: dict[str, str] = {}
    for word in pairs:
        key, eq, value = word.partition("=")
        # An empty list is a list: counts= when every sample overflowed.
        if not eq or not KEY_RE.match(key) or (not value
                                               and key not in INT_LISTS):
            errors.append(f"{where}: '{word}' is not key=value: {text!r}")
            continue
        if key in fields:
            errors.append(f"{where}: key '{key}' given twice: {text!r}")
            continue
        fields[key] = value
    for key, value in fields.items():
        if key in NUMERIC and number(value) is None:
            errors.append(f"{where}: {key}={value} is not a number: {text!r}")
        if key in INT_LISTS and not INT_LIST_RE.match(value):
            errors.append(f"{where}: {key}={value} is not a comma-separated "
                          f"list of integers: {text!r}")
    need = list(COMMON_KEYS) + list(REQUIRED.get(bench, ()))
    if bench == "throughput" and fields.get("test") in THROUGHPUT_REQUIRED:
        need += THROUGHPUT_REQUIRED[fields["test"]]
    if bench == "ipc":
        need += IPC_REQUIRED.get(fields.get("test"), ("placement",))
    missing = [k for k in need if k not in fields]
    if (bench == "throughput" and fields.get("test") == "ctxsw_same"
            and "cpu" not in fields and "cpus" not in fields):
        missing.append("cpu (or cpus)")
    if missing:
        errors.append(f"{where}: {bench} line lacks {', '.join(missing)}: "
                      f"{text!r}")
    if errors:
        return None, errors
    return Result(bench, fields, number_, text[text.index("BENCH"):]), []


def parse_lines(lines: list[str]) -> Parsed:
    """Every BENCH line of a cleaned serial log."""
    out = Parsed()
    seen: dict[tuple, int] = {}
    for no, line in enumerate(lines, 1):
        if not BENCH_RE.match(line):
            if "BENCH " in line:
                out.errors.append(f"line {no}: BENCH not at the start of the "
                                  f"line (interleaved output?): {line!r}")
            continue
        res, errors = parse_line(line, no)
        out.errors += errors
        if res is None:
            continue
        if res.bench not in REQUIRED:
            out.warnings.append(f"line {no}: unknown benchmark '{res.bench}' "
                                "(kept as data)")
        if res.ident in seen:
            out.warnings.append(f"line {no}: {res.describe()} reported again "
                                f"(first at line {seen[res.ident]}); "
                                "the tables use the first")
        else:
            seen[res.ident] = no
        out.results.append(res)
    return out


# ---------------------------------------------------------------------------
# What a run asked for, and whether the log has it
# ---------------------------------------------------------------------------

@dataclass
class Expect:
    """One result a run must report: a benchmark and identifying fields."""

    bench: str
    ident: dict

    def describe(self) -> str:
        return " ".join([self.bench] + [f"{k}={v}" for k, v in
                                        self.ident.items()])

    def matches(self, r: Result) -> bool:
        return r.bench == self.bench and all(
            r.fields.get(k) == v for k, v in self.ident.items())


def parse_plan(commands: list[str]) -> list[tuple[str, dict]]:
    """'bench latency load=hog loops=500' -> ('latency', {'load': 'hog', ...})
    for each autorun command that runs a benchmark."""
    plan = []
    for cmd in commands:
        words = cmd.split()
        if len(words) >= 2 and words[0] == "bench":
            args = dict(w.partition("=")[::2] for w in words[2:] if "=" in w)
            plan.append((words[1], args))
    return plan


def expected(plan: list[tuple[str, dict]], smp: int, model: str = "folded",
             mode: str = "full") -> list[Expect]:
    """The results a run with this plan must print. The kernel's shell:
    `bench preempt` reports every variant and the irq round trip; `bench
    latency` one line per CPU, and with histogram=N (N > 0) a latency_hist
    line per CPU; `bench throughput` preempt_heavy per CPU, ctxsw_same, and
    with two CPUs or more ctxsw_cross and resched_ipi; `bench uaccess`
    every size, might_fault on and off, in every mode the build can run
    (run_modes); `bench inversion` pi=1 and pi=0; `bench mode_cost`
    nothing on PREEMPT_RT (it measures in none, which RT refuses; see
    RT_REFUSALS); `bench userlat` one line for its load; anything else
    one line."""
    out: list[Expect] = []
    cpus = [str(c) for c in range(smp)]
    for name, args in plan:
        if name == "preempt":
            out += [Expect("preempt", {"variant": v}) for v in VARIANTS]
            out.append(Expect("irq", {}))
        elif name == "latency":
            load = args.get("load", "none")
            out += [Expect("latency", {"load": load, "cpu": c}) for c in cpus]
            if args.get("histogram", "0") not in ("", "0"):
                out += [Expect("latency_hist", {"load": load, "cpu": c})
                        for c in cpus]
        elif name == "throughput":
            out += [Expect("throughput", {"test": "preempt_heavy", "cpu": c})
                    for c in cpus]
            out.append(Expect("throughput", {"test": "ctxsw_same"}))
            if smp >= 2:
                out += [Expect("throughput", {"test": t}) for t in CROSS_TESTS]
        elif name == "uaccess":
            out += [Expect("uaccess", {"mode": md, "might_fault": mf,
                                       "bytes": b})
                    for md in run_modes(model, mode)
                    for mf in MIGHT_FAULT for b in UACCESS_BYTES]
        elif name == "hackbench":
            out.append(Expect("hackbench", {"where": "kernel"}))
        elif name == "wakeup_hog":
            out += [Expect("wakeup_hog", {"class": c}) for c in WAKEUP_CLASSES]
        elif name == "mode_cost":
            if mode != "rt":        # PREEMPT_RT refuses none mode (RT_REFUSALS)
                out += [Expect("mode_cost", {"mode": "none", "what": w, "via": v})
                        for w in MODE_COST_WHAT for v in MODE_COST_VIA]
        elif name == "ipc":
            places = [p for p in IPC_PLACEMENTS if p == "same" or smp >= 2]
            out += [Expect("ipc", {"test": "call", "placement": p, "bytes": b})
                    for p in places for b in IPC_BYTES]
            out += [Expect("ipc", {"test": "notify", "placement": p}) for p in places]
        elif name == "udriver":
            out += [Expect("udriver", {"mode": md, "src": s, "load": l})
                    for md in run_modes(model, mode)
                    for s, l in UDRIVER_CASES]
        elif name == "inversion":
            out += [Expect("inversion", {"pi": pi}) for pi in ("1", "0")]
        elif name in LOADS:
            out.append(Expect(name, {"load": args.get("load",
                                                      LOADS[name][0])}))
        else:
            out.append(Expect(name, {}))
    return out


def check_loads(loads: list[str], benches: list[str]) -> None:
    """ValueError unless every load is one that some benchmark of LOADS
    knows (with none of them run: any of them)."""
    per_load = [b for b in benches if b in LOADS] or list(LOADS)
    known = list(dict.fromkeys(l for b in per_load for l in LOADS[b]))
    for load in loads:
        if load not in known:
            raise ValueError(f"load '{load}': expected {', '.join(known)} ("
                             + "; ".join(f"{b}: {', '.join(LOADS[b])}"
                                         for b in per_load) + ")")


def load_words(bench: str, loads: list[str]) -> list[list[str]]:
    """The load= words for one benchmark's commands: [[]] (run once) for a
    benchmark without loads, one [load=L] per load it knows otherwise
    (none: it is not run, the loads asked for are another's)."""
    if bench not in LOADS:
        return [[]]
    return [[f"load={l}"] for l in loads if l in LOADS[bench]]


# What the kernel prints when a command of the plan went wrong: the
# benchmark then reports nothing, and autorun goes on to the next command.
COMPLAINT_RE = re.compile(
    r"^(?:shell: (?:unknown command|line too long|too many words)"
    r"|bench(?: \w+)?: (?:which one|unknown option|no value for"
    r"|\S+=\S*: expected|out of memory|cannot start|no figures? in"
    r"|\S+ failed \(status))")


# What PREEMPT_RT refuses by design, not a failure of the run: `bench
# mode_cost` measures in none mode, and RT runs full or lazy only.
RT_REFUSALS = re.compile(r"^bench mode_cost: cannot start: the switch to "
                         r"none was refused")


def complaints(lines: list[str], mode: str = "") -> list[str]:
    return [f"line {no}: the kernel said: {line.strip()}"
            for no, line in enumerate(lines, 1)
            if COMPLAINT_RE.match(line.strip()) and not (
                mode == "rt" and RT_REFUSALS.match(line.strip()))]


def check(parsed: Parsed, lines: list[str], plan: list[tuple[str, dict]], *,
          model: str, mode: str, smp: int, clock: str) -> list[str]:
    """Errors beyond the grammar: results that name another configuration,
    the kernel's complaints about a command, and results the plan asked for
    that are not there."""
    errors = []
    want = {"model": model, "mode": mode, "smp": str(smp), "clock": clock}
    for r in parsed.results:
        swept = SWEPT.get(r.bench, ())
        wrong = [f"{k}={r.fields[k]} (expected {v})" for k, v in want.items()
                 if k not in swept and r.fields.get(k) != v]
        if "mode" in swept and r.fields["mode"] not in run_modes(model, mode):
            wrong.append(f"mode={r.fields['mode']} (a {model}/{mode} build "
                         f"runs {', '.join(run_modes(model, mode))})")
        if wrong:
            errors.append(f"line {r.line}: {r.describe()}: "
                          + ", ".join(wrong))
    errors += complaints(lines, mode)
    for e in expected(plan, smp, model, mode):
        if not any(e.matches(r) for r in parsed.results):
            errors.append(f"missing benchmark: no BENCH {e.describe()}")
    return errors


# ---------------------------------------------------------------------------
# Looking figures up
# ---------------------------------------------------------------------------

def find(results: list[Result], bench: str, **ident) -> list[Result]:
    """Every result of bench whose fields equal ident (as text); the first
    of any repeated result only."""
    out, seen = [], set()
    for r in results:
        if r.bench != bench or r.ident in seen:
            continue
        if all(r.fields.get(k) == str(v) for k, v in ident.items()):
            seen.add(r.ident)
            out.append(r)
    return out


def figure(results: list[Result], bench: str, key: str, *, worst: bool = False,
           **ident):
    """One number: cpu 0's (or the only one's), or with worst=True the
    largest over every CPU that reported."""
    rows = [r for r in find(results, bench, **ident)
            if isinstance(r.get(key), (int, float))]
    if not rows:
        return None
    if worst:
        return max(r.get(key) for r in rows)
    for r in rows:
        if r.fields.get("cpu") in (None, "0"):
            return r.get(key)
    return rows[0].get(key)
