"""Mutants of the reference's LAB regions (tools/lab/mutants, make
lab-mutants): the operators, over a small tokenizer of C (and of the asm
strings in it), never a list of edits by hand.

A region (tools/lib/lab.py's Hole) is parsed into statements: a block, an
if (its condition, its body, an else), a loop, a return, a jump (goto,
break, continue), a declaration, an expression statement. Each operator
walks them:

  delete        a statement (an if's unbraced body becomes `{ }`)
  drop-inc      a counter increment (x++, x += 1, *_inc(...))
  negate        an if's or a loop's condition, or one operand of its
                && / || chain
  drop-operand  one operand of a top-level && / || chain
  swap-andor    one top-level && for || or || for &&
  plain-atomic  an __atomic_* read-modify-write as a plain load, op, store
  lock          add a lock prefix to a lockable instruction of an asm
                string, or remove one
  flag-swap     a constant (#define NAME, _TIF_*, X86_EFLAGS_*, ...) for
                a neighbour of its family: the define just before or
                after it in the same header, or one whose name extends it
  flip-return   return true <-> false; in a bool function return !(x)
  move          a statement swapped with an adjacent check (an if whose
                body leaves: return, goto, break, continue)

A mutant's id is its operator, its file and a hash of the lines it
changes, before and after (Mutant.key): it stays the same when
unrelated lines move, so tests/labs/equivalent-mutants can name it.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from dataclasses import dataclass

from tools.lib import lab as labmod
from tools.lib.cparse import (IDENT_RE, ParseError, blank, matching, parse_stmts,
                              skip_space, top_level, walk)

CONST_RE = re.compile(r"^_*[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
DEFINE_RE = re.compile(r"^#define[ \t]+(_*[A-Z][A-Z0-9_]*)[ \t]+\S")
INC_RE = re.compile(r"^(?:\+\+\s*[\w.>-]+|[\w.>-]+\s*\+\+|[\w.>-]+\s*\+=\s*1|"
                    r"\w*_inc\s*\(.*\))$", re.S)
ATOMIC_RE = re.compile(r"\b__atomic_(fetch_(or|and|xor|add|sub)|(or|and|xor|add|sub)_fetch)\s*\(")
ATOMIC_OPS = {"or": "|", "and": "&", "xor": "^", "add": "+", "sub": "-"}
LOCKABLE = r"(?:add|or|and|xor|sub|inc|dec|bts|btr|btc|xadd|cmpxchg|neg|not)[bwlq]?"
LOCK_RE = re.compile(r"\block\s+")
LOCKABLE_RE = re.compile(r"(?<![\w%$.])(" + LOCKABLE + r")(\s+[^\"]*[(:])")


# ---------------------------------------------------------------------------
# Mutants
# ---------------------------------------------------------------------------

@dataclass
class Mutant:
    op: str
    path: str
    start: int                  # the replaced span of the file's text
    end: int
    new: str
    lab: str = ""
    id: str = ""
    before: str = ""            # the whole lines it changes
    after: str = ""

    def apply(self, text: str) -> str:
        return text[:self.start] + self.new + text[self.end:]

    def key(self) -> str:
        h = hashlib.sha1((self.before.strip() + "\0" + self.after.strip()).encode())
        return f"{self.op}:{self.path}:{h.hexdigest()[:8]}"

    def diff(self, text: str) -> str:
        """The mutant as a unified diff (lines it blanks shown removed)."""
        end = self.end
        if not self.new.strip() and text[end:end + 1] == "\n":
            end += 1
        a = text.splitlines(keepends=True)
        b = (text[:self.start] + (self.new if self.new.strip() else "") +
             text[end:]).splitlines(keepends=True)
        return "".join(difflib.unified_diff(a, b, f"a/{self.path}", f"b/{self.path}", n=1))


def line_span(text: str, start: int, end: int) -> tuple[int, int]:
    s = text.rfind("\n", 0, start) + 1
    e = text.find("\n", end)
    return s, len(text) if e < 0 else e


def defines(root: str, files: list[str]) -> dict[str, list[str]]:
    """Each header's object-like constants, in order: path -> names."""
    out = {}
    for p in files:
        if not p.endswith(".h"):
            continue
        with open(os.path.join(root, p), errors="replace") as f:
            names = [m.group(1) for m in map(DEFINE_RE.match, f) if m]
        if names:
            out[p] = names
    return out


def neighbours(name: str, defs: dict[str, list[str]]) -> list[str]:
    family = re.match(r"_*[A-Z0-9]+_", name).group(0)
    for names in defs.values():
        if name not in names:
            continue
        fam = [n for n in names if n.startswith(family) and n != name]
        k = [n for n in names if n.startswith(family)].index(name)
        ordered = [n for n in names if n.startswith(family)]
        near = ordered[max(k - 1, 0):k] + ordered[k + 1:k + 2]
        near += [n for n in fam if n.startswith(name + "_") or name.startswith(n + "_")]
        return list(dict.fromkeys(near))
    return []


def returns_bool(lines: list[str], func: str) -> bool:
    for line in lines:
        m = labmod.FUNC_RE.match(line)
        if m and m.group(1) == func:
            return re.search(r"\bbool\b", line[:m.start(1)]) is not None
    return False


def negated(expr: str) -> str:
    e = expr.strip()
    if e.startswith("!") and not e.startswith("!="):
        inner = e[1:].strip()
        try:
            whole = inner.startswith("(") and matching(inner, 0) == len(inner)
        except ParseError:
            whole = False
        if whole:
            return inner[1:-1].strip()
        if re.fullmatch(r"[\w.>-]+(\s*\(.*\))?", inner, re.S):
            try:
                p = inner.find("(")
                if p < 0 or matching(inner, p) == len(inner):
                    return inner
            except ParseError:
                pass
    return f"!({e})"


def chain_edits(code: str, a: int, b: int) -> list[tuple[str, int, int, str]]:
    """drop-operand, swap-andor and negate-one-operand edits of the
    top-level && / || chain in code[a:b]."""
    seps = top_level(code, a, b, ("&&", "||"))
    if not seps:
        return []
    edits = []
    bounds = [a] + [p + 2 for p, _ in seps]
    ends = [p for p, _ in seps] + [b]
    for k, (lo, hi) in enumerate(zip(bounds, ends)):
        # drop operand k with the operator on one side of it
        if k == 0:
            edits.append(("drop-operand", lo, skip_space(code, seps[0][0] + 2, b), ""))
        else:
            edits.append(("drop-operand", ends[k - 1], hi, ""))
        text = code[lo:hi]
        lead = len(text) - len(text.lstrip())
        trail = len(text) - len(text.rstrip())
        edits.append(("negate", lo + lead, hi - trail, negated(text)))
    operands = [code[lo:hi].strip() for lo, hi in zip(bounds, ends)]
    for k, (p, s) in enumerate(seps):
        ops = [x for _, x in seps]
        ops[k] = "||" if s == "&&" else "&&"
        edits.append(("swap-andor", a + len(code[a:b]) - len(code[a:b].lstrip()),
                      b - (len(code[a:b]) - len(code[a:b].rstrip())), regroup(operands, ops)))
    return edits


def regroup(operands: list[str], ops: list[str]) -> str:
    """operands joined by ops, each run of && in parentheses when an ||
    is beside it: what C's precedence reads, written so that
    -Wparentheses has nothing to say."""
    runs, cur = [], [operands[0]]
    for o, x in zip(ops, operands[1:]):
        if o == "&&":
            cur.append(x)
        else:
            runs.append(cur)
            cur = [x]
    runs.append(cur)
    if len(runs) == 1:
        return " && ".join(cur)
    return " || ".join(f"({' && '.join(r)})" if len(r) > 1 else r[0] for r in runs)


def region_mutants(text: str, hole: labmod.Hole, defs: dict[str, list[str]]) -> list[Mutant]:
    lines = text.splitlines(keepends=True)
    start = sum(len(l) for l in lines[:hole.body])
    end = sum(len(l) for l in lines[:hole.end])
    code, strings = blank(text)
    try:
        stmts = parse_stmts(code, start, end)
    except ParseError as e:
        raise labmod.LabError(f"{hole.path}:{hole.body + 1}: the LAB({hole.lab}) region does "
                              f"not parse as statements: {e}") from None
    is_bool = returns_bool(text.splitlines(), hole.func)
    edits: list[tuple[str, int, int, str]] = []
    for s, siblings in walk(stmts):
        body_of_if = siblings is None
        if s.kind in ("expr", "if", "loop", "return", "jump") and s.start != s.end - 1:
            op = "drop-inc" if s.kind == "expr" and \
                INC_RE.match(code[s.expr[0]:s.expr[1]].strip()) else "delete"
            if body_of_if:
                edits.append((op, s.start, s.end, "{ }"))
            else:
                a, b = line_span(text, s.start, s.end)
                rest = code[a:s.start] + code[s.end:b]
                if rest.strip():
                    edits.append((op, s.start, s.end, ""))
                else:   # blank lines: the lines after keep their numbers (__LINE__)
                    edits.append((op, a, b, "\n" * text.count("\n", a, b)))
        if s.cond and s.kind in ("if", "loop"):
            a, b = s.cond
            edits.append(("negate", a, b, negated(code[a:b])))
            edits += chain_edits(code, a, b)
        if s.kind == "return" and s.expr and s.expr[0] < s.expr[1]:
            a, b = s.expr
            value = code[a:b].strip()
            flipped = {"true": "false", "false": "true"}.get(value)
            if flipped is None and is_bool:
                flipped = negated(value)
            if flipped is not None:
                edits.append(("flip-return", a, b, flipped))
            edits += chain_edits(code, a, b)
        if siblings is not None and s.kind in ("expr", "if"):
            k = next(n for n, x in enumerate(siblings) if x is s)
            if k + 1 < len(siblings):
                t = siblings[k + 1]
                pair = (s.is_check() and t.kind == "expr") or (t.is_check() and s.kind == "expr")
                if pair:
                    a = line_span(text, s.start, s.end)[0]
                    b = line_span(text, t.start, t.end)[1]
                    mid_a = line_span(text, s.start, s.end)[1]
                    mid_b = line_span(text, t.start, t.end)[0]
                    edits.append(("move", a, b, text[mid_b:b] + text[mid_a:mid_b] + text[a:mid_a]))
    # constants: a neighbour of their family
    for m in IDENT_RE.finditer(code, start, end):
        name = m.group(0)
        if CONST_RE.match(name) and not any(a <= m.start() < b for a, b in strings):
            for other in neighbours(name, defs):
                edits.append(("flag-swap", m.start(), m.end(), other))
    # atomics: plain load, op, store
    for m in ATOMIC_RE.finditer(code, start, end):
        p = m.end() - 1
        close = matching(code, p)
        args = [x for x in split_args(code, p + 1, close - 1)]
        if len(args) != 3:
            continue
        ptr, val = args[0].strip(), args[1].strip()
        fetch_first = m.group(2) is not None
        opname = m.group(2) or m.group(3)
        sym = ATOMIC_OPS[opname]
        new = (f"({{ __typeof__(*({ptr})) __mut_old = *({ptr}); "
               f"*({ptr}) = __mut_old {sym} ({val}); "
               f"{'__mut_old' if fetch_first else '*(' + ptr + ')'}; }})")
        edits.append(("plain-atomic", m.start(), close, new))
    # asm strings: a lock prefix added or removed
    for a, b in strings:
        if not (start <= a < end):
            continue
        lit = text[a:b]
        for m in LOCK_RE.finditer(lit):
            edits.append(("lock", a + m.start(), a + m.end(), ""))
        for m in LOCKABLE_RE.finditer(lit):
            if not lit[:m.start()].rstrip().endswith("lock"):
                edits.append(("lock", a + m.start(), a + m.start(), "lock "))
    out, seen = [], {}
    for op, a, b, new in edits:
        mt = Mutant(op, hole.path, a, b, new, hole.lab)
        la, lb = line_span(text, a, max(a, b - 1) if b > a else a)
        mt.before = text[la:lb]
        mutated = mt.apply(text)
        mt.after = mutated[la:lb + len(new) - (b - a)]
        if mutated == text or mutated in seen:
            continue
        seen[mutated] = mt
        out.append(mt)
    return out


def split_args(code: str, a: int, b: int) -> list[str]:
    cuts = [p for p, _ in top_level(code, a, b, (",",))]
    bounds = [a] + [p + 1 for p in cuts]
    return [code[lo:hi] for lo, hi in zip(bounds, cuts + [b])]


def lab_mutants(root: str, lab: str) -> tuple[list[Mutant], dict[str, str]]:
    """Every mutant of lab's regions in root, with unique ids, and each
    mutated file's original text (path -> text)."""
    files = labmod.source_files(root)
    defs = defines(root, files)
    texts, out = {}, []
    for p in files:
        with open(os.path.join(root, p), errors="replace") as f:
            text = f.read()
        holes = [h for h in labmod.find_holes(text, p) if h.lab == lab]
        if not holes:
            continue
        texts[p] = text
        for h in holes:
            out += region_mutants(text, h, defs)
    ids: dict[str, int] = {}
    for m in out:
        k = m.key()
        ids[k] = ids.get(k, 0) + 1
        m.id = k if ids[k] == 1 else f"{k}-{ids[k]}"
    return out, texts
