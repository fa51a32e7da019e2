"""A small parser of C for tools/lib/mutate.py: comments blanked, string
literals marked, brackets matched, and a function body's statements
(block, if, loop, return, jump, declaration, expression) with their
spans in the text, enough to mutate one at a time. Not a compiler's
parser: a region it cannot read is an error, never a guess."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

IDENT_RE = re.compile(r"[A-Za-z_]\w*")
DECL_RE = re.compile(r"^(?:const\s+|static\s+|volatile\s+)*(?:struct\s+)?[A-Za-z_]\w*"
                     r"(?:\s*\*+\s*|\s+)[A-Za-z_]\w*\s*(?:=|;|\[)")
JUMPS = ("return", "goto", "break", "continue")


class ParseError(Exception):
    pass


# ---------------------------------------------------------------------------
# The tokenizer: comments blanked, strings kept and marked
# ---------------------------------------------------------------------------

def blank(text: str) -> tuple[str, list[tuple[int, int]]]:
    """text with its comments replaced by spaces (same offsets), and the
    spans of its string literals."""
    out, strings, i, n = list(text), [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in text[i:j]]
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            strings.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    return "".join(out), strings


def matching(code: str, i: int) -> int:
    """The index after the bracket that closes the one at code[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    j = i
    while j < len(code):
        c = code[j]
        if c in "\"'":
            k = j + 1
            while k < len(code) and code[k] != c:
                k += 2 if code[k] == "\\" else 1
            j = k + 1
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise ParseError(f"unbalanced {c!r}")
            if not stack:
                return j + 1
        j += 1
    raise ParseError("a bracket never closes")


def top_level(code: str, start: int, end: int, seps: tuple[str, ...]) -> list[tuple[int, str]]:
    """(offset, separator) of each of seps at bracket depth 0 in
    code[start:end]."""
    found, depth, j = [], 0, start
    while j < end:
        c = code[j]
        if c in "\"'":
            k = j + 1
            while k < end and code[k] != c:
                k += 2 if code[k] == "\\" else 1
            j = k + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            s = next((s for s in seps if code.startswith(s, j)), None)
            if s:
                found.append((j, s))
                j += len(s)
                continue
        j += 1
    return found


# ---------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------

@dataclass
class Stmt:
    kind: str                   # block, if, loop, return, jump, decl, expr
    start: int
    end: int                    # after its ; or }
    cond: tuple[int, int] | None = None     # inside the parentheses
    expr: tuple[int, int] | None = None     # a return's value, an expr's text
    body: list["Stmt"] = field(default_factory=list)   # block: its statements
    then: "Stmt | None" = None
    orelse: "Stmt | None" = None

    def leaves(self) -> bool:
        """A jump, or a block that ends in one."""
        if self.kind in ("return", "jump"):
            return True
        return self.kind == "block" and bool(self.body) and self.body[-1].leaves()

    def is_check(self) -> bool:
        return self.kind == "if" and self.orelse is None and self.then.leaves()


def skip_space(code: str, i: int, end: int) -> int:
    while i < end and code[i].isspace():
        i += 1
    return i


def word_at(code: str, i: int) -> str:
    m = IDENT_RE.match(code, i)
    return m.group(0) if m else ""


def parse_stmts(code: str, i: int, end: int) -> list[Stmt]:
    out = []
    while True:
        i = skip_space(code, i, end)
        if i >= end:
            return out
        s = parse_stmt(code, i, end)
        out.append(s)
        i = s.end


def parse_stmt(code: str, i: int, end: int) -> Stmt:
    w = word_at(code, i)
    if code[i] == "{":
        close = matching(code, i)
        return Stmt("block", i, close, body=parse_stmts(code, i + 1, close - 1))
    if code[i] == ";":
        return Stmt("expr", i, i + 1, expr=(i, i))
    if w in ("if", "while", "for", "switch"):
        p = skip_space(code, i + len(w), end)
        if p >= end or code[p] != "(":
            raise ParseError(f"{w} without (")
        close = matching(code, p)
        then = parse_stmt(code, skip_space(code, close, end), end)
        s = Stmt("if" if w == "if" else "loop", i, then.end, cond=(p + 1, close - 1),
                 then=then)
        nxt = skip_space(code, then.end, end)
        if w == "if" and word_at(code, nxt) == "else":
            s.orelse = parse_stmt(code, skip_space(code, nxt + 4, end), end)
            s.end = s.orelse.end
        return s
    semi = top_level(code, i, end, (";",))
    if not semi:
        raise ParseError("a statement without its ;")
    stop = semi[0][0]
    if w == "return":
        return Stmt("return", i, stop + 1, expr=(skip_space(code, i + 6, stop), stop))
    if w in JUMPS:
        return Stmt("jump", i, stop + 1)
    kind = "decl" if DECL_RE.match(code[i:stop + 1]) and w not in ("asm", "__asm__") else "expr"
    return Stmt(kind, i, stop + 1, expr=(i, stop))


def walk(stmts: list[Stmt]):
    """Every statement, with the list it is in (None for an if's body)."""
    for s in stmts:
        yield s, stmts
        for child in (s.then, s.orelse):
            if child is not None:
                yield child, None
                if child.kind == "block":
                    yield from walk(child.body)
                else:
                    yield from walk_inner(child)
        if s.kind == "block":
            yield from walk(s.body)


def walk_inner(s: Stmt):
    for child in (s.then, s.orelse):
        if child is not None:
            yield child, None
            yield from walk_inner(child)
    if s.kind == "block":
        yield from walk(s.body)

