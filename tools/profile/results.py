"""build/profile/RESULTS.md: each path's stage table before and after.

A profile (tools/profile/execlog.render's text, as in build/profile/
<path>.txt) is read back here, not recomputed: its total and its stage
table. tools/profile/history/ keeps one committed profile per change that
moved a path's figures, named

    NN-<commit>.<path>.txt      NN: the order of the changes (00 first)

and starting with a line "commit <hash> <what changed>", then the profile
as `make profile` printed it at that commit. RESULTS.md sets them side by
side with this run's table (labelled with `git rev-parse --short HEAD`,
"-dirty" when the tree has changes), one column per commit, and the
difference per stage: from the change before, and from the first.

A stage one profile has and another lacks shows as "-" there, and its
difference counts it as 0: a stage that vanishes (or appears) is seen.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field

TOTAL_RE = re.compile(r"^path total: ([0-9,.]+) instructions per (.+?) \(")
STAGE_HEAD_RE = re.compile(r"^stage\s+per (.+?)\s+share$")
STAGE_ROW_RE = re.compile(r"^  (\S+(?: \S+)*?)\s+([0-9,.]+)\s+[0-9.]+%$")
COMMIT_RE = re.compile(r"^commit ([0-9a-f]{7,40})\b ?(.*)$")
HISTORY_RE = re.compile(r"^(\d+)-([0-9a-f]{7,40})\.([a-z]+)\.txt$")


class ResultsError(Exception):
    pass


@dataclass
class Summary:
    """What RESULTS.md needs of one profile."""
    label: str                      # the commit (short hash), or this run's
    what: str                       # the change it made, or ""
    title: str                      # the profile's first line
    unit: str
    total: float
    stages: dict[str, float] = field(default_factory=dict)


def _num(s: str) -> float:
    return float(s.replace(",", ""))


def parse(text: str, label: str = "", what: str = "") -> Summary:
    """The total and the stage table of a profile's text; a leading
    "commit <hash> <what>" line gives the label. Anything else missing is
    an error that says what was expected."""
    lines = text.splitlines()
    if lines and COMMIT_RE.match(lines[0]):
        m = COMMIT_RE.match(lines[0])
        label = label or m.group(1)[:7]
        what = what or m.group(2)
        lines = lines[1:]
    while lines and not lines[0].strip():
        lines = lines[1:]
    if not lines or not lines[0].startswith("profile "):
        raise ResultsError("no 'profile <path>: ...' title line")
    title = lines[0]
    total = unit = None
    stages: dict[str, float] = {}
    in_table = False
    for line in lines[1:]:
        m = TOTAL_RE.match(line)
        if m and total is None:
            total, unit = _num(m.group(1)), m.group(2)
            continue
        if STAGE_HEAD_RE.match(line):
            in_table = True
            continue
        if in_table:
            if not line.strip():
                break
            m = STAGE_ROW_RE.match(line)
            if not m:
                raise ResultsError(f"unreadable stage row {line!r}")
            if m.group(1) in stages:
                raise ResultsError(f"stage {m.group(1)!r} twice")
            stages[m.group(1)] = _num(m.group(2))
    if total is None:
        raise ResultsError("no 'path total: N instructions per ...' line")
    if not stages:
        raise ResultsError("no stage table")
    return Summary(label or "?", what, title, unit, total, stages)


def path_of(summary: Summary) -> str:
    return summary.title.split()[1].rstrip(":")


def config_of(summary: Summary) -> str:
    """The title after the path: the benchmark, its arguments, the build."""
    return summary.title.split(":", 1)[1].strip()


def history(directory: str, path: str) -> list[Summary]:
    """The committed profiles of one path, in their order."""
    found = []
    if not os.path.isdir(directory):
        return []
    for name in os.listdir(directory):
        m = HISTORY_RE.match(name)
        if not m:
            if name.endswith(".txt"):
                raise ResultsError(f"{directory}/{name}: expected NN-<commit>.<path>.txt")
            continue
        if m.group(3) != path:
            continue
        with open(os.path.join(directory, name)) as f:
            try:
                s = parse(f.read())
            except ResultsError as e:
                raise ResultsError(f"{directory}/{name}: {e}") from None
        if not m.group(2).startswith(s.label) and not s.label.startswith(m.group(2)):
            raise ResultsError(f"{directory}/{name}: its commit line says {s.label}")
        found.append((int(m.group(1)), s))
    found.sort(key=lambda t: t[0])
    return [s for _, s in found]


def head_label(root: str) -> str:
    """`git rev-parse --short HEAD`, "-dirty" when the tree has changes;
    "unknown" outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("-dirty" if dirty else "")


def _fmt(n: float) -> str:
    return f"{n:,.2f}" if n != int(n) else f"{int(n):,}"


def _diff(n: float) -> str:
    if n == 0:
        return "0"
    return ("+" if n > 0 else "-") + _fmt(round(abs(n), 2))


def _cell(s: Summary, stage: str) -> str:
    return _fmt(s.stages[stage]) if stage in s.stages else "-"


def table(columns: list[Summary]) -> list[str]:
    """One path's markdown table: a row per stage (ordered by the last
    column, largest first; stages only earlier columns have after them),
    then the total; a column per profile, then the difference from the
    column before the last and from the first."""
    if not columns:
        raise ResultsError("nothing to tabulate")
    last, prev, first = columns[-1], columns[-2] if len(columns) > 1 else None, columns[0]
    order = sorted(last.stages, key=lambda s: (-last.stages[s], s))
    for c in reversed(columns[:-1]):
        order += sorted((s for s in c.stages if s not in order),
                        key=lambda s: (-c.stages[s], s))
    head = ["stage"] + [c.label for c in columns]
    if prev is not None:
        head.append(f"from {prev.label}")
    if len(columns) > 2:
        head.append(f"from {first.label}")
    out = ["| " + " | ".join(head) + " |",
           "|---" + "|---:" * (len(head) - 1) + "|"]
    rows = [(s, [_cell(c, s) for c in columns],
             [c.stages.get(s, 0.0) for c in columns]) for s in order]
    rows.append(("**total**", [f"**{_fmt(c.total)}**" for c in columns],
                 [c.total for c in columns]))
    for name, cells, vals in rows:
        line = [name] + cells
        if prev is not None:
            line.append(_diff(round(vals[-1] - vals[-2], 2)))
        if len(columns) > 2:
            line.append(_diff(round(vals[-1] - vals[0], 2)))
        out.append("| " + " | ".join(line) + " |")
    return out


def render(sections: list[tuple[str, list[Summary]]], head: str) -> str:
    """RESULTS.md: for each path, its history and this run."""
    out = ["# make profile: each path's stages, per commit", "",
           f"This run: {head}. Earlier columns: tools/profile/history/, one profile "
           "per change that moved the figures (instructions per unit, icount, "
           "exact). The last columns: the change from the column before, and "
           "from the first.", ""]
    for path, columns in sections:
        now = columns[-1]
        out += [f"## {path}: instructions per {now.unit}", "", f"This run: `{now.title}`", ""]
        changes = [c for c in columns[:-1] if c.what]
        for c in changes:
            out.append(f"- {c.label}: {c.what}")
        if changes:
            out.append("")
        for c in columns[:-1]:
            if config_of(c) != config_of(now):
                out += [f"Not comparable: {c.label} profiled `{config_of(c)}`, "
                        f"this run `{config_of(now)}`.", ""]
            if c.unit != now.unit:
                raise ResultsError(f"{path}: {c.label} counts per {c.unit}, "
                                   f"this run per {now.unit}")
        out += table(columns) + [""]
    return "\n".join(out).rstrip("\n") + "\n"
