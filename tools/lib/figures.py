"""Figures in the docs' prose, checked against the experiments report.

A measured figure in a sentence names where it comes from: it is the
text of a Markdown link to its entry of the committed report,
docs/EXPERIMENTS.md, whose title names the table cell:

    its price is [19](EXPERIMENTS.md#e7 "8 B | cost") instructions a copy,
    [38](EXPERIMENTS.md#e7 "8 B | cost ÷ 8 B | off") % of an 8-byte copy

A cell is `ROW | COLUMN`: the row whose first cell is ROW (bold and
backticks aside), or whose first two are `ROW` as `A, B`, and the column
headed COLUMN, in a table of that
entry's section; it must be exactly one cell. `A ÷ B`, two cells, is
their ratio, and a ratio followed by `%` in the sentence is given in
percent. The figure is the value rounded to the decimals the figure
shows (3,677; 0.38; 19); a cell's `+`, `x` and thousands separators are
read as the number. The rendered doc shows the figure as a link to the
entry.

Bare figures: in a paragraph that cites the report (a link to
EXPERIMENTS.md), a number followed by a unit of measure (instructions,
ns, us, ms, %, x) must be such a link, or one of the set-up constants
of ALLOWED; in any other, no run's output may stand (MEASURED_RE).
check() says which fail, with the doc's line and the report's; update()
rewrites each figure from the report, at the precision it had. Used by tests/check-docs.
"""

from __future__ import annotations

import os
import re

REPORT = "docs/EXPERIMENTS.md"
FIGURE_RE = re.compile(r'\[(?P<fig>[-+]?[\d,]*\d(?:\.\d+)?)(?P<suffix>x?)\]'
                       r'\(EXPERIMENTS\.md#(?P<entry>e\d+) "(?P<cell>[^"]+)"\)')
# A number with a unit of measure after it: a figure that needs a source.
BARE_RE = re.compile(r'(?<![\w.#\[-])(?P<num>\d[\d,]*(?:\.\d+)?)(?P<unit>x\b|×| ?%|'
                     r' (?:instructions?|ns|us|µs|ms)\b)')
# Elsewhere, backticks too: a figure with decimals and a unit, or a
# pid in a log line (`fault[6]: ...`, `[6] fault: ...`). Such is a run's
# output, which drifts: only a checked excerpt or a sourced figure may show it.
MEASURED_RE = re.compile(r'(?<![\w.#\[-])\d[\d,]*\.\d+(?:x\b|×| ?%|'
                         r' (?:instructions?|ns|us|µs|ms)\b)|\b\w+\[\d+\]:|\[\d+\] \w+:')
# Figures that are no measurement of fold's, reviewed: what a benchmark is
# told to do (E9's section and medium's run, in the notes under its
# tables), the bounds a verdict applies (E8's), and the claim a report
# entry tests (E7's source), a target (the user wake-up's) and a UART's
# FIFO time at 115200 baud.
ALLOWED = {"1 ms", "10 ms", "1.1x", "0.99x", "2.5 us", "1.5x", "1.4 ms"}


class FigureError(Exception):
    pass


def _number(text: str) -> float:
    t = text.strip().replace(",", "").replace("+", "").replace("×", "").rstrip("x%").strip()
    return float(t)


def _decimals(fig: str) -> int:
    return len(fig.split(".")[1]) if "." in fig else 0


def _strip(cell: str) -> str:
    return cell.strip().replace("**", "").replace("`", "").strip()


def tables(report: str) -> dict[str, list[tuple[int, list[str], list[tuple[int, list[str]]]]]]:
    """Each entry's tables: {"e3": [(header line, header cells, [(line, cells)])]}."""
    out: dict[str, list] = {}
    entry, table = None, None
    for n, line in enumerate(report.splitlines(), 1):
        m = re.match(r"^## (E\d+)\s*$", line)
        if m:
            entry, table = m.group(1).lower(), None
            out[entry] = []
            continue
        if entry is None or not line.startswith("|"):
            table = None
            continue
        cells = [c for c in line.strip().strip("|").split("|")]
        if table is None:
            table = (n, [_strip(c) for c in cells], [])
            out[entry].append(table)
        elif not re.fullmatch(r"[\s|:-]+", line):
            table[2].append((n, [c.strip() for c in cells]))
    return out


def cell(report_tables, entry: str, key: str) -> tuple[float, int, bool]:
    """The value KEY names in ENTRY: (number, report line, whether it is a
    ratio); FigureError if it names no cell or more than one."""
    parts = [p.strip() for p in key.split("÷")]
    if len(parts) == 2 and all("|" in p for p in parts):
        (a, la, _), (b, _, _) = cell(report_tables, entry, parts[0]), \
            cell(report_tables, entry, parts[1])
        if b == 0:
            raise FigureError(f"`{parts[1]}` is 0: no ratio")
        return a / b, la, True
    if key.count("|") != 1:
        raise FigureError(f'"{key}" is no cell: "ROW | COLUMN" or "ROW | COLUMN ÷ ROW | COLUMN"')
    row, col = (_strip(p) for p in key.split("|"))
    if entry not in report_tables:
        raise FigureError(f"{REPORT} has no entry {entry.upper()}")
    found = []
    for _, header, rows in report_tables[entry]:
        if col not in header:
            continue
        k = header.index(col)
        found += [(n, cells[k]) for n, cells in rows if k < len(cells) and row in
                  (_strip(cells[0]), ", ".join(_strip(c) for c in cells[:2]))]
    if len(found) != 1:
        raise FigureError(f"{REPORT}, {entry.upper()}: {len(found)} cells in row `{row}`, "
                          f"column `{col}` (it must be one)")
    n, text = found[0]
    try:
        return _number(text), n, text.strip().endswith(("x", "×"))
    except ValueError:
        raise FigureError(f"{REPORT}:{n}: `{text.strip()}` is no number") from None


def _value(value: float, ratio: bool, after: str) -> float:
    """What the figure must be: a ratio of cells in percent when a % follows
    (on its line or, wrapped, at the start of the next)."""
    return value * 100 if ratio and re.match(r"\s*%", after) else value


def _paragraphs(lines: list[str]):
    """(first line index, lines) of each paragraph or list item outside fenced blocks."""
    fence, cur, start = False, [], 0
    for i, line in enumerate(lines + [""]):
        if line.startswith("```"):
            fence = not fence
        item = re.match(r"^(- |\d+\. )", line)
        if fence or not line.strip() or line.startswith("```") or item:
            if cur:
                yield start, cur
            cur, start = ([line], i) if item and not fence else ([], i + 1)
            continue
        if not cur:
            start = i
        cur.append(line)


def check(root: str, doc: str, text: str) -> tuple[int, list[str]]:
    """How many sourced figures the doc has, and what is wrong."""
    errors, count = [], 0
    path = os.path.join(root, REPORT)
    report = tables(open(path).read()) if os.path.exists(path) else {}
    lines = text.splitlines()
    for start, para in _paragraphs(lines):
        cites = any("EXPERIMENTS.md" in l for l in para)
        for k, line in enumerate(para):
            n = start + k + 1
            for m in FIGURE_RE.finditer(line):
                count += 1
                try:
                    value, at, ratio = cell(report, m.group("entry"), m.group("cell"))
                except FigureError as x:
                    errors.append(f"{doc}:{n}: the figure {m.group('fig')}: {x}")
                    continue
                after = line[m.end():] + " " + (lines[n] if n < len(lines) else "")
                want = _value(value, ratio, after)
                d = _decimals(m.group("fig"))
                if round(_number(m.group("fig")), d) != round(want, d):
                    errors.append(f"{doc}:{n}: the figure {m.group('fig')} is not what "
                                  f"{REPORT}:{at} says, {want:,.{d}f} "
                                  f"({m.group('entry').upper()}, \"{m.group('cell')}\")")
            if not cites:
                for b in MEASURED_RE.finditer(FIGURE_RE.sub(" ", line)):
                    if b.group(0) not in ALLOWED:
                        errors.append(f"{doc}:{n}: `{b.group(0)}` is a run's output in prose: "
                                      f"show it in a checked excerpt, source it, or leave it out")
                continue
            plain = FIGURE_RE.sub(" ", re.sub(r"`[^`]*`", " ", line))
            for b in BARE_RE.finditer(plain):
                if b.group(0).strip() in ALLOWED:
                    continue
                errors.append(f"{doc}:{n}: a bare figure, `{b.group(0).strip()}`, in a "
                              f"paragraph that cites {REPORT}: link it to its cell "
                              f'([{b.group("num")}](EXPERIMENTS.md#eN "ROW | COLUMN"))')
    return count, errors


def update(root: str, doc: str, text: str) -> tuple[str, list[str]]:
    """The doc with each sourced figure rewritten from the report."""
    path = os.path.join(root, REPORT)
    report = tables(open(path).read()) if os.path.exists(path) else {}
    errors = []

    def fresh(m, i):
        try:
            value, _, ratio = cell(report, m.group("entry"), m.group("cell"))
        except FigureError as x:
            errors.append(f"{doc}:{i + 1}: the figure {m.group('fig')}: {x}")
            return m.group(0)
        want = _value(value, ratio, lines[i][m.end():] + " " +
                      (lines[i + 1] if i + 1 < len(lines) else ""))
        d = _decimals(m.group("fig"))
        fig = f"{want:,.{d}f}" if "," in m.group("fig") else f"{want:.{d}f}"
        return m.group(0).replace(f"[{m.group('fig')}", f"[{fig}", 1)

    lines = text.splitlines()
    out = [FIGURE_RE.sub(lambda m: fresh(m, i), line) for i, line in enumerate(lines)]
    return "\n".join(out) + ("\n" if text.endswith("\n") else ""), errors
