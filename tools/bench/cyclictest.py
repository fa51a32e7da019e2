"""cyclictest's output: its formats, a strict parser, and the extraction of
fold's cyclictest reports from a serial log.

The formats are cyclictest's own printf strings, transcribed from rt-tests
2.4 (Debian 12's rt-tests 2.4-1, "cyclictest V 2.40"),
src/cyclictest/cyclictest.c: print_stat() (the T: line, -N or not),
print_hist() (the histogram block) and set_latency_target() (the
"/dev/cpu_dma_latency" comment). fold's kernel has its own copy
(lib/cyclictest_fmt.h); this one is kept apart on purpose, so that a slip
in either shows.

A line is parsed by turning its printf format into a regular expression
mechanically (printf_regex), and then, the values read, printed again with
the same format (Python's % operator is C's printf for these conversions):
the line is accepted only if that gives back the very same bytes, so the
widths, the zero padding and the separators are checked, not only the
numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# rt-tests 2.4, src/cyclictest/cyclictest.c, print_stat(): use_nsecs picks
# the second.
STAT_US = ("T:%2d (%5d) P:%2d I:%ld C:%7lu "
           "Min:%7ld Act:%5ld Avg:%5ld Max:%8ld")
STAT_NS = ("T:%2d (%5d) P:%2d I:%ld C:%7lu "
           "Min:%7ld Act:%8ld Avg:%8ld Max:%8ld")
# print_hist(): the row is "%06d " then per thread "%06lu", with "\t"
# between threads (and a "\t%06llu" sum column with -H, which fold does
# not print).
HIST_HEAD = "# Histogram"
HIST_BUCKET = "%06d "
HIST_COUNT = "%06lu"
HIST_SEP = "\t"
TOTAL = "# Total:"
TOTAL_COL = " %09llu"
FOOTERS = ("# Min Latencies:", "# Avg Latencies:", "# Max Latencies:",
           "# Histogram Overflows:")
FOOTER_COL = " %05lu"
OUTLIERS_HEAD = "# Histogram Overflow at cycle number:"
THREAD = "# Thread %d:"
OUTLIER = " %05lu"
OTHERS = " # %05lu others"
# set_latency_target() (rt-utils.c's in 2.x), printed first by a real run.
DMA_LATENCY = "# /dev/cpu_dma_latency set to %dus"

_CONV = re.compile(r"%(0?)(\d*)(?:hh|h|ll|l)?([diu])")


def printf_regex(fmt: str) -> str:
    """The regex of a printf format of integer conversions: literal text
    escaped, each %[0][width][length](d|i|u) one capturing group."""
    out, pos = [], 0
    for m in _CONV.finditer(fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        zero, conv = m.group(1), m.group(3)
        sign = "-?" if conv in "di" else ""
        out.append(f"({sign}[0-9]+)" if zero else f"( *{sign}[0-9]+)")
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return "".join(out)


def py_format(fmt: str) -> str:
    """C's format as Python's % takes it: no length modifiers, %u as %d."""
    return _CONV.sub(lambda m: f"%{m.group(1)}{m.group(2)}d", fmt)


def scan(fmt: str, text: str) -> list[int] | None:
    """The values of text printed with fmt, or None if text is not exactly
    what fmt prints for some values."""
    m = re.fullmatch(printf_regex(fmt), text)
    if not m:
        return None
    values = [int(g) for g in m.groups()]
    if py_format(fmt) % tuple(values) != text:
        return None
    return values


def scan_repeat(head: str, col: str, text: str, n: int | None = None,
                tail: str = "") -> list[int] | None:
    """head, then col any number of times (n if given), then tail."""
    if not text.startswith(head):
        return None
    rest, values = text[len(head):], []
    one = re.compile(printf_regex(col))
    while True:
        m = one.match(rest)
        if not m:
            break
        v = scan(col, m.group(0))
        if v is None:
            return None
        values += v
        rest = rest[m.end():]
    if rest != tail or (n is not None and len(values) != n):
        return None
    return values


@dataclass
class Thread:
    index: int
    tid: int | None = None
    prio: int | None = None
    interval: int | None = None
    cycles: int | None = None
    min: int | None = None
    act: int | None = None
    avg: int | None = None
    max: int | None = None
    counts: list[int] = field(default_factory=list)
    total: int | None = None
    footer: dict = field(default_factory=dict)
    outliers: list[int] = field(default_factory=list)
    others: int = 0


@dataclass
class Report:
    threads: list[Thread]
    nsecs: bool | None           # None: no T: lines, or either format
    buckets: int                 # histogram rows (0: no histogram)


class FormatError(Exception):
    def __init__(self, line: int, text: str, why: str):
        super().__init__(f"line {line}: {why}: {text!r}" if line else why)


def parse(text: str) -> Report:
    """Parse one cyclictest run's output strictly (T: lines, then the
    histogram block, as print_stat() and print_hist() print them), and
    check that the figures mean what cyclictest's mean. Raises FormatError
    at the first line that is not cyclictest's."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0

    def err(why: str, at: int | None = None) -> FormatError:
        k = i if at is None else at
        return FormatError(k + 1, lines[k] if k < len(lines) else "<end>", why)

    if i < len(lines) and scan(DMA_LATENCY, lines[i]) is not None:
        i += 1
    threads: list[Thread] = []
    units = {"us", "ns"}
    while i < len(lines) and lines[i].startswith("T:"):
        us, ns = scan(STAT_US, lines[i]), scan(STAT_NS, lines[i])
        if us is None and ns is None:
            raise err("not print_stat()'s T: line")
        units &= ({"us"} if us else set()) | ({"ns"} if ns else set())
        if not units:
            raise err("T: lines in both microseconds and nanoseconds (-N)")
        v = us or ns
        if v[0] != len(threads):
            raise err(f"thread index {v[0]}, expected {len(threads)}")
        threads.append(Thread(*v))
        i += 1
    nsecs = None if len(units) != 1 else units == {"ns"}
    buckets = 0
    if i < len(lines) and lines[i] == HIST_HEAD:
        i += 1
        buckets, n = _parse_hist(lines, i, threads, err)
        i = n
    if i != len(lines):
        raise err("not cyclictest's output")
    if not threads:
        raise err("no T: line and no histogram", at=max(0, len(lines) - 1))
    for t in threads:
        _check_thread(t, buckets)
    return Report(threads, nsecs, buckets)


def _parse_hist(lines, i, threads, err):
    def fail(why: str) -> FormatError:
        return err(why, at=i)

    known = len(threads) or None
    row = 0
    while i < len(lines) and not lines[i].startswith("#"):
        head = scan(HIST_BUCKET, lines[i][:7]) if len(lines[i]) >= 7 else None
        if head is None:
            raise fail("not a histogram row (\"%06d \")")
        cells = lines[i][7:].split(HIST_SEP)
        counts = [scan(HIST_COUNT, c) for c in cells]
        if any(c is None for c in counts):
            raise fail("not \"%06lu\" counts separated by tabs")
        if known is None:
            known = len(counts)
            threads.extend(Thread(k) for k in range(known))
        if len(counts) != known:
            raise fail(f"{len(counts)} columns, expected {known}")
        if head[0] != row:
            raise fail(f"bucket {head[0]}, expected {row} (print_hist() "
                      "prints every bucket)")
        for t, c in zip(threads, counts):
            t.counts.append(c[0])
        row += 1
        i += 1
    if known is None:
        raise fail("a histogram with no rows")
    total = scan_repeat(TOTAL, TOTAL_COL, lines[i] if i < len(lines) else "",
                        known)
    if total is None:
        raise fail(f"not print_hist()'s \"{TOTAL}\" line for {known} threads")
    for t, v in zip(threads, total):
        t.total = v
    i += 1
    for name in FOOTERS:
        vals = scan_repeat(name, FOOTER_COL, lines[i] if i < len(lines) else "",
                           known)
        if vals is None:
            raise fail(f"not print_hist()'s \"{name}\" line for {known} threads")
        for t, v in zip(threads, vals):
            t.footer[name] = v
        i += 1
    if i >= len(lines) or lines[i] != OUTLIERS_HEAD:
        raise fail(f"expected \"{OUTLIERS_HEAD}\"")
    i += 1
    for t in threads:
        text = lines[i] if i < len(lines) else ""
        m = re.fullmatch(printf_regex(THREAD) + "(.*)", text)
        if not m or int(m.group(1)) != t.index:
            raise fail(f"expected \"# Thread {t.index}:\"")
        rest = m.group(2)
        tail = ""
        o = re.search(printf_regex(OTHERS) + "$", rest)
        if o:
            tail = o.group(0)
            if scan(OTHERS, tail) is None:
                raise fail("not \" # %05lu others\"")
            t.others = int(o.group(1))
        vals = scan_repeat(f"# Thread {t.index}:", OUTLIER, text, tail=tail)
        if vals is None:
            raise fail("not \" %05lu\" cycle numbers")
        t.outliers = vals
        i += 1
    if i >= len(lines) or lines[i] != "":
        raise fail("print_hist() ends with an empty line")
    return row, i + 1


def _check_thread(t: Thread, buckets: int) -> None:
    """What the figures mean (cyclictest's timerthread() and print_hist()):
    the T: line and the footers agree, the totals add up, the histogram
    holds min and max where they fit, overflows are the rest."""
    name = f"thread {t.index}"
    f = t.footer
    lo = f.get("# Min Latencies:", t.min)
    av = f.get("# Avg Latencies:", t.avg)
    hi = f.get("# Max Latencies:", t.max)
    if t.cycles is not None and buckets:
        for key, mine in (("# Min Latencies:", t.min), ("# Avg Latencies:", t.avg),
                          ("# Max Latencies:", t.max)):
            if f[key] != mine:
                raise ValueError(f"{name}: T: line says {mine}, \"{key}\" {f[key]}")
    if not (lo <= av <= hi):
        raise ValueError(f"{name}: not Min <= Avg <= Max ({lo}, {av}, {hi})")
    if t.cycles is not None and t.act is not None and not (lo <= t.act <= hi):
        raise ValueError(f"{name}: Act {t.act} outside Min..Max")
    if not buckets:
        return
    over = f["# Histogram Overflows:"]
    if sum(t.counts) != t.total:
        raise ValueError(f"{name}: \"# Total:\" {t.total}, the rows add up "
                         f"to {sum(t.counts)}")
    if t.cycles is not None and t.total + over != t.cycles:
        raise ValueError(f"{name}: Total {t.total} + overflows {over} != "
                         f"C {t.cycles}")
    filled = [b for b, c in enumerate(t.counts) if c]
    if lo < buckets and (not filled or filled[0] != lo):
        raise ValueError(f"{name}: Min {lo}, but bucket {lo} is not the "
                         "first filled one")
    if hi < buckets and (over or filled[-1] != hi):
        raise ValueError(f"{name}: Max {hi}, but bucket {hi} is not the "
                         "last filled one (or there are overflows)")
    if hi >= buckets and not over:
        raise ValueError(f"{name}: Max {hi} beyond the {buckets} buckets, "
                         "yet no overflow")
    if len(t.outliers) > buckets or len(t.outliers) + t.others != over:
        raise ValueError(f"{name}: {len(t.outliers)} cycle numbers + "
                         f"{t.others} others != {over} overflows")
    if t.others and len(t.outliers) != buckets:
        raise ValueError(f"{name}: \"others\" before {buckets} cycle numbers")
    if t.outliers != sorted(set(t.outliers)) or (
            t.cycles is not None and t.outliers and t.outliers[-1] >= t.cycles):
        raise ValueError(f"{name}: cycle numbers not increasing below C")


def check(text: str) -> Report:
    """parse() with the meaning errors as FormatError too."""
    try:
        return parse(text)
    except ValueError as e:
        raise FormatError(0, "", str(e)) from None


# ---------------------------------------------------------------------------
# fold's serial log -> one cyclictest report per `bench latency` run
# ---------------------------------------------------------------------------

# bench/bench_latency.c's header line, then its report: the T:
# lines and the histogram block, then "bench latency:" and BENCH lines.
_HEADER = re.compile(r"^bench latency: \d+ CPUs?, .* load (\S+) \(")


def _cyclictest_shaped(line: str) -> bool:
    return (line.startswith("T:") or line.startswith("#") or line == ""
            or bool(re.match(r"[0-9]{6,} ", line)))


def extract(lines: list[str]) -> list[tuple[str, str]]:
    """(load, text) for each `bench latency` run in a serial log: the
    lines from after its header, past its own human lines (the hog line),
    up to its first line of another shape ("bench latency: cpu N: p99",
    the BENCH lines). Selected by shape only: whether they are exactly
    cyclictest's is parse()'s question."""
    out = []
    lines = [l.rstrip("\r\n") for l in lines]
    i = 0
    while i < len(lines):
        m = _HEADER.match(lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and lines[i].startswith("  "):
            i += 1                       # "  hog: might_resched() ..."
        block = []
        while i < len(lines) and _cyclictest_shaped(lines[i]):
            block.append(lines[i])
            i += 1
        out.append((m.group(1), "".join(l + "\n" for l in block)))
    return out


def write_files(lines: list[str], directory: str, stem: str) -> list[tuple[str, str | None]]:
    """Write each `bench latency` run of a serial log to
    <directory>/<stem>-<load>.txt, exactly its cyclictest lines; returns
    (path, None) for each, or (path, what is wrong) for one that is not
    cyclictest's output."""
    import os
    os.makedirs(directory, exist_ok=True)
    out = []
    for load, text in extract(lines):
        path = os.path.join(directory, f"{stem}-{load}.txt")
        with open(path, "w") as f:
            f.write(text)
        try:
            check(text)
            out.append((path, None))
        except FormatError as e:
            out.append((path, str(e)))
    return out
