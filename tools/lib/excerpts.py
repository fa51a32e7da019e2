"""Code excerpts in the docs, checked against the source.

A doc quotes code as a fenced block whose language is `c` (for .c and .h
files) or `nasm` (.asm and .inc), with a caption on the line just above
it that names the code and says where it starts:

    `kernel/preempt.h:132`, `preempt_fold_need_resched()`:
    ```c
    static __always_inline bool preempt_fold_need_resched(void)
    {
    ...
    	set_preempt_need_resched();
    ```

The name is resolved in the file afresh on every check; the line number
is not an input but a claim, checked: it must be the line where the
excerpt's first line is today. What a caption may name:

    `NAME()`        C: the function whose definition starts on a line at
                    column 0 holding `NAME(` (the first `{` or `;` after
                    it decides definition or prototype), to the next `}`
                    at column 0; or the function-like macro `#define
                    NAME(`, to its last continued line
    `struct NAME`   C: `struct NAME {` at column 0, to `};`
    `NAME`          NASM: the label `NAME:` at column 0, to the next label
                    that is not local (not `.x`), less the blank lines,
                    comments at column 0 and directives that end it
    `%macro NAME`   NASM: to its `%endmacro`
    `EXCERPT(TAG)`  any file: the lines between the comments holding
                    EXCERPT(TAG) BEGIN and EXCERPT(TAG) END

A name found nowhere, or more than once, is an error, never a guess.
The body is the code as it is in the file: lines of the named region,
byte for byte (tabs too). It may start anywhere in the region, and a
line `...` (indented as you like) stands for an elided run of one or
more lines; a `...` first or last says the region goes on before or
after. The first run of lines must occur once only in the region.

check() returns what differs, with the doc's line and the source's;
update() rewrites captions and bodies from the source (the runs are
aligned to where their lines went), for `make docs-update`. Used by
tests/check-docs (the docs check) and tools/lab/mklab (a lab's tree
shows its own stubs in its book).
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field

LANGS = {"c": (".c", ".h"), "nasm": (".asm", ".inc")}
CAPTION_RE = re.compile(r"^`(?P<file>[\w./+-]+):(?P<line>\d+)`, `(?P<name>[^`]+)`:$")
# A line that looks like a caption but is not quite one (checked, so that
# a typo cannot make an excerpt silently unchecked).
CAPTION_LIKE_RE = re.compile(r"^`[\w./+-]+\.(c|h|asm|inc):\d")
FENCE_RE = re.compile(r"^```(?P<info>.*)$")
ELISION = "..."


class ResolveError(Exception):
    pass


@dataclass
class Excerpt:
    doc: str            # the doc's path, for messages
    caption: int        # the caption's index in the doc's lines (0-based)
    file: str
    line: int           # the caption's claim
    name: str
    lang: str
    body: list[str] = field(default_factory=list)   # the lines between the fences
    close: int = 0      # the closing fence's index

    def where(self) -> str:
        return f"{self.doc}:{self.caption + 1}"


# ---------------------------------------------------------------------------
# Resolving a name: [(line number, text)] of the region
# ---------------------------------------------------------------------------

def _c_function(lines: list[str], name: str) -> list[tuple[int, int]]:
    call = re.compile(r"(?<![\w.>])" + re.escape(name) + r"\s*\(")
    macro = re.compile(r"^#\s*define\s+" + re.escape(name) + r"\(")
    found = []
    for i, line in enumerate(lines):
        if macro.match(line):
            j = i
            while lines[j].rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
            found.append((i, j))
            continue
        if not line or line[0] in " \t#/*}" or not call.search(line):
            continue
        # Definition or prototype: whichever of { and ; comes first.
        j, kind = i, None
        while j < len(lines) and kind is None:
            m = re.search(r"[{;]", lines[j] if j > i else line[call.search(line).end():])
            kind = m.group(0) if m else None
            j += kind is None
        if kind != "{":
            continue
        if j == i and line.rstrip().endswith("}"):
            found.append((i, i))         # static inline f(void) { return x; }
            continue
        k = next((k for k in range(j, len(lines)) if lines[k].startswith("}")), None)
        if k is None:
            raise ResolveError(f"{name}() opens at line {i + 1} and never closes at column 0")
        found.append((i, k))
    return found


def _blocks(lines: list[str], start: re.Pattern, closes, what: str) -> list[tuple[int, int]]:
    """Every block whose first line matches start, to the first line
    (from there) for which closes() holds."""
    found = []
    for i, line in enumerate(lines):
        if start.match(line):
            k = next((k for k in range(i, len(lines)) if closes(lines[k])), None)
            if k is None:
                raise ResolveError(f"{what} opens at line {i + 1} and never closes")
            found.append((i, k))
    return found


def _c_struct(lines: list[str], name: str) -> list[tuple[int, int]]:
    return _blocks(lines, re.compile(r"^(typedef\s+)?struct\s+" + re.escape(name) + r"\s*\{"),
                   lambda l: l.startswith("}"), f"struct {name}")


NASM_LABEL_RE = re.compile(r"^([A-Za-z_?@$][\w$#@~.?]*):")
NASM_TAIL_RE = re.compile(r"^(\s*$|;|global\b|extern\b|section\b|bits\b|default\b|%include\b)")


def _nasm_label(lines: list[str], name: str) -> list[tuple[int, int]]:
    found = []
    for i, line in enumerate(lines):
        m = NASM_LABEL_RE.match(line)
        if not m or m.group(1) != name:
            continue
        k = next((k for k in range(i + 1, len(lines))
                  if NASM_LABEL_RE.match(lines[k]) or lines[k].startswith("%macro")), len(lines))
        k -= 1
        while k > i and NASM_TAIL_RE.match(lines[k]):
            k -= 1
        found.append((i, k))
    return found


def _nasm_macro(lines: list[str], name: str) -> list[tuple[int, int]]:
    return _blocks(lines, re.compile(r"^%macro\s+" + re.escape(name) + r"\b"),
                   lambda l: l.startswith("%endmacro"), f"%macro {name}")


def _marked(lines: list[str], tag: str) -> list[tuple[int, int]]:
    begins = [i for i, l in enumerate(lines) if f"EXCERPT({tag}) BEGIN" in l]
    ends = [i for i, l in enumerate(lines) if f"EXCERPT({tag}) END" in l]
    if len(begins) != len(ends) or any(e <= b for b, e in zip(begins, ends)):
        raise ResolveError(f"EXCERPT({tag}): {len(begins)} BEGIN and {len(ends)} END "
                           "markers that do not pair")
    return [(b + 1, e - 1) for b, e in zip(begins, ends)]


def resolve(root: str, file: str, name: str) -> list[tuple[int, str]]:
    """The region NAME names in FILE: [(line number, text)]; ResolveError
    when the file or the name is missing, or the name is ambiguous."""
    path = os.path.join(root, file)
    if not os.path.isfile(path):
        raise ResolveError(f"{file}: no such file")
    with open(path) as f:
        lines = f.read().splitlines()
    nasm = file.endswith(LANGS["nasm"])
    m = re.fullmatch(r"EXCERPT\((\w+)\)", name)
    if m:
        found, what = _marked(lines, m.group(1)), name
    elif nasm and name.startswith("%macro "):
        found, what = _nasm_macro(lines, name.split()[1]), name
    elif nasm and re.fullmatch(r"[\w.$?@]+", name):
        found, what = _nasm_label(lines, name), f"the label {name}"
    elif not nasm and re.fullmatch(r"\w+\(\)", name):
        found, what = _c_function(lines, name[:-2]), name
    elif not nasm and re.fullmatch(r"struct \w+", name):
        found, what = _c_struct(lines, name.split()[1]), name
    else:
        raise ResolveError(f"`{name}` is no name an excerpt of {file} can have: "
                           + ("`label`, `%macro NAME`" if nasm else "`function()`, `struct NAME`")
                           + " or `EXCERPT(TAG)`")
    if not found:
        raise ResolveError(f"{file} has no {what}")
    if len(found) > 1:
        raise ResolveError(f"{file} has {len(found)} of {what} (lines "
                           + ", ".join(str(a + 1) for a, _ in found)
                           + "): mark the one to show with EXCERPT(TAG) BEGIN/END")
    a, b = found[0]
    if b < a:
        raise ResolveError(f"{file}: {what} is empty")
    return [(k + 1, lines[k]) for k in range(a, b + 1)]


# ---------------------------------------------------------------------------
# Reading a doc's excerpts
# ---------------------------------------------------------------------------

def parse(doc: str, text: str) -> tuple[list[Excerpt], list[str]]:
    """The excerpts of a doc, and its malformed ones as messages."""
    lines = text.splitlines()
    out, errors = [], []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            if CAPTION_LIKE_RE.match(lines[i]) and not CAPTION_RE.match(lines[i]):
                errors.append(f"{doc}:{i + 1}: looks like an excerpt's caption but is not "
                              "one: `FILE:LINE`, `NAME`: (then the fenced block)")
            elif CAPTION_RE.match(lines[i]) and not (
                    i + 1 < len(lines) and FENCE_RE.match(lines[i + 1])):
                errors.append(f"{doc}:{i + 1}: an excerpt's caption with no fenced block "
                              "under it")
            i += 1
            continue
        close = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("```")),
                     None)
        if close is None:
            errors.append(f"{doc}:{i + 1}: a fenced block that never closes")
            break
        lang = m.group("info").strip()
        if lang in LANGS:
            c = CAPTION_RE.match(lines[i - 1]) if i else None
            if not c:
                errors.append(f"{doc}:{i + 1}: a ```{lang} block with no caption above it: "
                              "name its source (`FILE:LINE`, `NAME`:), so that it is checked")
            else:
                e = Excerpt(doc, i - 1, c.group("file"), int(c.group("line")),
                            c.group("name"), lang, lines[i + 1:close], close)
                if not e.file.endswith(LANGS[lang]):
                    errors.append(f"{e.where()}: a ```{lang} block quoting {e.file}: "
                                  f"the language is "
                                  f"{'nasm' if e.file.endswith(LANGS['nasm']) else 'c'}")
                else:
                    out.append(e)
        i = close + 1
    return out, errors


def segments(body: list[str]) -> tuple[list[list[tuple[int, str]]], bool, bool, str | None]:
    """The runs of lines between the `...` lines, as [(index in body, text)],
    whether a `...` leads and trails, and what is wrong with the body."""
    runs, cur = [], []
    for k, line in enumerate(body):
        if line.strip() == ELISION:
            if not cur and runs:
                return [], False, False, "two `...` lines with no line between them"
            if cur:
                runs.append(cur)
            cur = []
        else:
            cur.append((k, line))
    if cur:
        runs.append(cur)
    if not runs:
        return [], False, False, "no line of code"
    lead = body[0].strip() == ELISION
    trail = body[-1].strip() == ELISION
    return runs, lead, trail, None


def _count_equal(run, region, p):
    return sum(1 for k, (_, t) in enumerate(run)
               if p + k < len(region) and region[p + k][1] == t)


def _place(run, region, lo):
    """Where RUN occurs in REGION at or after index lo: every index."""
    texts = [t for _, t in run]
    n = len(texts)
    return [p for p in range(lo, len(region) - n + 1)
            if all(region[p + k][1] == texts[k] for k in range(n))]


def match(e: Excerpt, region: list[tuple[int, str]]) -> tuple[list[int] | None, str | None]:
    """The region index where each run starts, or a message saying where
    the doc and the source first differ."""
    runs, lead, trail, bad = segments(e.body)
    if bad:
        return None, f"{e.where()}: {bad}"
    starts, lo = [], 0
    for n, run in enumerate(runs):
        found = _place(run, region, lo)
        if n == 0 and len(found) > 1:
            return None, (f"{e.where()}: the excerpt's first lines occur {len(found)} times in "
                          f"{e.file}'s `{e.name}` (lines "
                          + ", ".join(str(region[p][0]) for p in found)
                          + "): show more of it, or name a smaller region")
        if not found:
            return None, _differs(e, run, region, lo)
        starts.append(found[0])
        lo = found[0] + len(run) + 1    # an elided run is one line or more
    first, last = starts[0], starts[-1] + len(runs[-1]) - 1
    if lead and first == 0:
        return None, (f"{e.where()}: the excerpt opens with `...`, but nothing of "
                      f"`{e.name}` comes before its first line ({e.file}:{region[0][0]})")
    if trail and last == len(region) - 1:
        return None, (f"{e.where()}: the excerpt ends with `...`, but `{e.name}` ends at its "
                      f"last line ({e.file}:{region[-1][0]})")
    return starts, None


def _differs(e: Excerpt, run, region, lo) -> str:
    """Where RUN and the region part most alike first differ."""
    doc_line = lambda k: e.caption + 3 + k          # noqa: E731 (caption, fence, body)
    span = f"{e.file}'s `{e.name}` (lines {region[0][0]}-{region[-1][0]})"
    best = max(range(lo, max(lo, len(region) - 1) + 1),
               key=lambda p: (_count_equal(run, region, p), -p), default=None)
    if best is None or _count_equal(run, region, best) == 0:
        k, text = run[0]
        near = difflib.get_close_matches(text, [t for _, t in region[lo:]], n=1, cutoff=0.5)
        hint = ""
        if near:
            n = next(n for n, t in region[lo:] if t == near[0])
            hint = f"\n    source: {e.file}:{n}: {near[0]}"
        return (f"{e.doc}:{doc_line(k)}: not in {span}:\n    doc:    {e.doc}:{doc_line(k)}: "
                f"{text}{hint}")
    for k, (idx, text) in enumerate(run):
        p = best + k
        if p >= len(region):
            return (f"{e.doc}:{doc_line(idx)}: differs from {span}, which ends at "
                    f"{e.file}:{region[-1][0]}:\n    doc:    {e.doc}:{doc_line(idx)}: {text}")
        if region[p][1] != text:
            return (f"{e.doc}:{doc_line(idx)}: differs from {e.file}:{region[p][0]}, in {span}:\n"
                    f"    doc:    {e.doc}:{doc_line(idx)}: {text}\n"
                    f"    source: {e.file}:{region[p][0]}: {region[p][1]}")
    return f"{e.where()}: the runs of the excerpt are not in {span} in this order"


def check(root: str, doc: str, text: str) -> tuple[int, list[str]]:
    """How many excerpts the doc has, and what is wrong with them."""
    excerpts, errors = parse(doc, text)
    for e in excerpts:
        try:
            region = resolve(root, e.file, e.name)
        except ResolveError as x:
            errors.append(f"{e.where()}: {x}")
            continue
        starts, why = match(e, region)
        if why:
            errors.append(why)
            continue
        today = region[starts[0]][0]
        if today != e.line:
            errors.append(f"{e.where()}: the caption says {e.file}:{e.line}, but the excerpt "
                          f"starts at {e.file}:{today} today (make docs-update rewrites it)")
    return len(excerpts), errors


# A function named beside its file in prose: `FILE`, `NAME()` or `NAME()`
# in `FILE`. NAME must be defined there (resolved as a caption's would be),
# so that a function that moved, or a wrapper named for what it wraps,
# cannot leave the prose pointing at the wrong file.
NAMED_RE = re.compile(r"`(?P<f>[\w./+-]+\.[ch])`,\s+`(?P<n>\w+)\(\)`"
                      r"|`(?P<n2>\w+)\(\)`\s+in\s+`(?P<f2>[\w./+-]+\.[ch])`")


def named(root: str, doc: str, text: str) -> tuple[int, list[str]]:
    """How many functions the doc names beside a file, and which that
    file does not define."""
    found = list(NAMED_RE.finditer(text))
    errors = []
    for m in found:
        file, name = m.group("f") or m.group("f2"), (m.group("n") or m.group("n2")) + "()"
        try:
            resolve(root, file, name)
        except ResolveError as x:
            errors.append(f"{doc}:{text.count(chr(10), 0, m.start()) + 1}: `{name}` "
                          f"named in `{file}`: {x}")
    return len(found), errors


# ---------------------------------------------------------------------------
# Rewriting them from the source
# ---------------------------------------------------------------------------

def _realign(run, region, lo) -> tuple[int, int] | None:
    """The span [a, b) of REGION (from lo) that RUN became: around its
    longest common stretch, stretched to what the run's ends map to."""
    texts = [t for _, t in run]
    rest = [t for _, t in region[lo:]]
    sm = difflib.SequenceMatcher(None, texts, rest, autojunk=False)
    a_s, a_r, size = sm.find_longest_match(0, len(texts), 0, len(rest))
    if size == 0:
        return None
    w0 = max(0, a_r - a_s - len(texts))
    w1 = min(len(rest), a_r + (len(texts) - a_s) + len(texts))
    sm = difflib.SequenceMatcher(None, texts, rest[w0:w1], autojunk=False)
    blocks = [b for b in sm.get_matching_blocks() if b.size]
    first, last = blocks[0], blocks[-1]
    a = max(0, w0 + first.b - first.a)
    b = min(len(rest), w0 + last.b + last.size + (len(texts) - last.a - last.size))
    return lo + a, lo + b


def update(root: str, doc: str, text: str) -> tuple[str, list[str]]:
    """The doc with every excerpt rewritten from the source, and the
    excerpts it could not rewrite."""
    excerpts, errors = parse(doc, text)
    lines = text.splitlines()
    for e in reversed(excerpts):     # from the end: indices stay valid
        try:
            region = resolve(root, e.file, e.name)
        except ResolveError as x:
            errors.append(f"{e.where()}: {x}")
            continue
        starts, why = match(e, region)
        runs, lead, trail, bad = segments(e.body)
        if bad:
            errors.append(f"{e.where()}: {bad}")
            continue
        body = list(e.body)
        if starts is None:
            spans, lo = [], 0
            for run in runs:
                s = _realign(run, region, lo)
                if s is None:
                    break
                spans.append(s)
                lo = s[1] + 1
            if len(spans) != len(runs):
                errors.append(why + "\n    (docs-update: no line of a run of it is left: "
                              "rewrite it by hand)")
                continue
            # Rebuild the body: each run replaced by its span, the `...` kept.
            body, k = [], 0
            for run, (a, b) in zip(runs, spans):
                while k < run[0][0]:
                    body.append(e.body[k])
                    k += 1
                body += [t for _, t in region[a:b]]
                k = run[-1][0] + 1
            body += e.body[k:]
            first = spans[0][0]
        else:
            first = starts[0]
        caption = f"`{e.file}:{region[first][0]}`, `{e.name}`:"
        lines[e.caption] = caption
        lines[e.caption + 2:e.close] = body
    return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), errors
