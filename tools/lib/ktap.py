"""A strict KTAP version 1 parser, for the in-kernel test suites' output.

    report = ktap.parse(serial.read_log(path))
    report.found, report.errors, report.failures, report.leaves ...

The kernel's side of the contract: KTAP version 1 on the serial port,
nested suites indented by 4 spaces (KUnit style); kernel log lines start
with "[" and are skipped wherever they appear; everything before the first
KTAP line is boot noise. Every structural problem (a missing plan or
version line, numbers out of order, a wrong count, bad indentation, a log
that is cut off) becomes an error naming its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .serial import is_log_line


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


INDENT = 4  # KUnit-style: each nesting level is indented by four spaces
VERSION_RE = re.compile(r"^(K?TAP) version (\d+)$")
PLAN_RE = re.compile(r"^1\.\.(\d+)(?:\s+#.*)?$")
RESULT_RE = re.compile(r"^(ok|not ok) (\d+)(?:\s+(.*))?$")
SUBTEST_RE = re.compile(r"^#\s*Subtest:\s*(.*)$")


def classify(text: str):
    """Kind of a KTAP line (without its indentation), and the regex match."""
    for kind, regex in (("version", VERSION_RE), ("plan", PLAN_RE),
                        ("result", RESULT_RE), ("subtest", SUBTEST_RE)):
        m = regex.match(text)
        if m:
            return kind, m
    if text.startswith("#"):
        return "diagnostic", None
    if text.startswith("Bail out!"):
        return "bailout", None
    return "other", None


def split_result_text(rest: str) -> tuple[str, str, str]:
    """'name # SKIP why' -> ('name', 'SKIP', 'why'); no directive -> ''."""
    name, _, comment = rest.partition("#")
    name = name.strip()
    if name.startswith("- "):           # TAP's optional "ok 1 - name"
        name = name[2:].strip()
    word, _, reason = comment.strip().partition(" ")
    if word.upper() in ("SKIP", "TODO"):
        return name, word.upper(), reason.strip()
    return name, "", ""


@dataclass(eq=False)
class Suite:
    """One nesting level of KTAP: the top-level document or a subtest."""

    indent: int
    line: int                           # where this level began
    parent: Suite | None = None
    name: str = ""
    has_version: bool = False
    plan: int | None = None
    count: int = 0                      # result lines seen at this level
    last_number: int = 0
    first_failure: int | None = None    # line of the first not ok, nested too
    finished_child: Suite | None = None  # nested suite awaiting its result line
    said_no_version: bool = False       # complain once per suite, not per line
    said_no_plan: bool = False

    @property
    def label(self) -> str:
        if self.parent is None:
            return "the top level"
        return f"suite {self.name}" if self.name else \
            f"the suite starting at line {self.line}"


@dataclass
class TestResult:
    suite: Suite
    name: str
    number: int
    status: str         # pass, fail, skip, todo
    reason: str         # the SKIP/TODO text
    line: int
    leaf: bool          # False for a suite's own result line
    child_failed: bool = False  # a suite whose subtests include a not ok

    @property
    def path(self) -> str:
        parts = [self.name or f"test {self.number}"]
        s = self.suite
        while s.parent is not None:
            parts.append(s.name or f"line{s.line}")
            s = s.parent
        return ".".join(reversed(parts))


@dataclass
class KtapReport:
    found: bool
    errors: list[tuple[int, str]]       # (line number, message)
    warnings: list[tuple[int, str]]
    stray: list[tuple[int, str]]
    tests: list[TestResult]

    @property
    def leaves(self) -> list[TestResult]:
        return [t for t in self.tests if t.leaf]

    @property
    def failures(self) -> list[TestResult]:
        # Every not ok counts, leaf or suite, whatever its parent claims.
        return [t for t in self.tests if t.status == "fail"]

    @property
    def culprits(self) -> list[TestResult]:
        """The not oks worth showing: a suite's not ok that only passes on
        its children's failures adds nothing."""
        return [t for t in self.failures if not t.child_failed]

    def count(self, status: str) -> int:
        return sum(1 for t in self.leaves if t.status == status)


class KtapParser:
    """A strict KTAP version 1 parser, fed the cleaned serial log.

    It keeps a stack of Suite levels; the indentation of each KTAP line says
    which level it belongs to. Everything before the first KTAP line is boot
    noise; kernel log lines ("[...") are skipped wherever they appear.
    """

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.stack: list[Suite] = []
        self.errors: list[tuple[int, str]] = []
        self.warnings: list[tuple[int, str]] = []
        self.stray: list[tuple[int, str]] = []
        self.tests: list[TestResult] = []

    def parse(self) -> KtapReport:
        for number, line in enumerate(self.lines, 1):
            self.feed(number, line)
        self.finish(len(self.lines))
        return KtapReport(bool(self.stack), self.errors, self.warnings,
                          self.stray, self.tests)

    def error(self, line: int, message: str) -> None:
        self.errors.append((line, message))

    # -- one line ----------------------------------------------------------

    def feed(self, no: int, line: str) -> None:
        if not line.strip() or is_log_line(line):
            return
        text = line.lstrip(" \t")
        indent = len(line) - len(text)
        kind, m = classify(text)
        if self.stack and "\t" in line[:indent] and kind not in (
                "other", "diagnostic"):
            self.error(no, "indentation with a tab: KTAP nests by 4 spaces")
            return
        if not self.stack:
            self.before_start(no, line, indent, kind, m)
            return
        if kind == "other":
            self.stray.append((no, line))       # tolerated, but reported
            return
        if kind == "bailout":
            self.error(no, f"test run bailed out: {text}")
            return
        if kind == "diagnostic":
            return
        cur = self.stack[-1]
        if kind == "subtest" and indent not in (cur.indent,
                                                cur.indent + INDENT):
            return          # "# Subtest:" anywhere else is just a comment
        self.place(no, indent, kind, m)

    def before_start(self, no, line, indent, kind, m) -> None:
        """Find where KTAP begins in the boot noise."""
        if kind == "version" and indent == 0:
            self.stack.append(Suite(0, no))
            self.on_version(no, self.stack[-1], m, line)
        elif kind == "other" and line.endswith("KTAP version 1"):
            # The header glued to boot noise that ended without a newline.
            self.stack.append(Suite(0, no, has_version=True))
        elif kind in ("version", "plan", "result"):
            top = Suite(0, no, said_no_version=True)
            self.stack.append(top)
            self.error(no, "KTAP output begins without the top-level "
                           f"'KTAP version 1' line: {line.strip()!r}")
            self.place(no, indent, kind, m)

    def place(self, no: int, indent: int, kind: str, m) -> None:
        """Find the level a structural line belongs to, then handle it."""
        cur = self.stack[-1]
        if indent == cur.indent + INDENT:
            self.open_suite(no, indent)             # a nested suite begins
        elif indent < cur.indent and any(s.indent == indent
                                         for s in self.stack):
            while self.stack[-1].indent > indent:   # nested suites end
                self.close_suite(no)
        elif indent != cur.indent:
            allowed = sorted({s.indent for s in self.stack}
                             | {cur.indent + INDENT})
            self.error(no, f"indentation of {indent} spaces does not match "
                           "the nesting (expected "
                           f"{' or '.join(map(str, allowed))})")
            return
        suite = self.stack[-1]
        line = self.lines[no - 1]
        if kind == "version":
            self.on_version(no, suite, m, line)
        elif kind == "subtest":
            self.on_subtest(no, suite, m)
        elif kind == "plan":
            self.on_plan(no, suite, m)
        else:
            self.on_result(no, suite, m)

    # -- suites ------------------------------------------------------------

    def open_suite(self, no: int, indent: int) -> Suite:
        parent = self.stack[-1]
        if parent.finished_child is not None:
            orphan = parent.finished_child
            self.error(no, f"{orphan.label} (line {orphan.line}) has no "
                           f"result line in {parent.label}")
            parent.finished_child = None
        suite = Suite(indent, no, parent)
        self.stack.append(suite)
        return suite

    def close_suite(self, no: int) -> None:
        suite = self.stack.pop()
        parent = self.stack[-1]
        if suite.plan is None:
            if not suite.said_no_plan:
                self.error(suite.line, f"missing plan: {suite.label} has "
                                       "no '1..N' line")
        elif suite.count != suite.plan:
            self.error(no, f"{suite.label} planned "
                           f"{plural(suite.plan, 'test')} but reported "
                           f"{suite.count}")
        if suite.first_failure and parent.first_failure is None:
            parent.first_failure = suite.first_failure
        parent.finished_child = suite

    def starts_new_sibling(self, no: int, suite: Suite) -> bool:
        """A header line at a level that already has content means the
        previous nested suite ended without its result line; start anew."""
        if suite.parent is None:
            self.error(no, "unexpected second 'KTAP version 1' at the top "
                           "level")
            return False
        self.close_suite(no)
        self.open_suite(no, suite.indent)
        return True

    def on_version(self, no: int, suite: Suite, m, line: str) -> None:
        if (m.group(1), m.group(2)) != ("KTAP", "1"):
            self.error(no, f"expected 'KTAP version 1', got {line.strip()!r}")
        fresh = suite.plan is None and suite.count == 0
        if not fresh or suite.has_version:
            if not self.starts_new_sibling(no, suite):
                return
            suite = self.stack[-1]
        suite.has_version = True

    def on_subtest(self, no: int, suite: Suite, m) -> None:
        if suite.parent is None:
            return                  # a top-level "# Subtest:" names nothing
        if suite.name or suite.plan is not None or suite.count:
            self.starts_new_sibling(no, suite)
            suite = self.stack[-1]
        suite.name = m.group(1).strip()

    def check_header(self, no: int, suite: Suite) -> None:
        if not suite.has_version and not suite.said_no_version:
            suite.said_no_version = True
            self.error(no, f"{suite.label} has no 'KTAP version 1' line")

    def on_plan(self, no: int, suite: Suite, m) -> None:
        self.check_header(no, suite)
        if suite.plan is not None:
            self.error(no, f"second plan in {suite.label}")
            return
        suite.plan = int(m.group(1))

    def on_result(self, no: int, suite: Suite, m) -> None:
        self.check_header(no, suite)
        ok = m.group(1) == "ok"
        number = int(m.group(2))
        name, directive, reason = split_result_text(m.group(3) or "")
        line = self.lines[no - 1].strip()
        if suite.plan is None and not suite.said_no_plan:
            suite.said_no_plan = True
            self.error(no, f"missing plan: {line!r} comes before any '1..N' "
                           f"in {suite.label}")
        expected = suite.last_number + 1
        if number != expected:
            self.error(no, f"test number {number} out of order in "
                           f"{suite.label} (expected {expected})")
        suite.last_number = number
        suite.count += 1

        if directive == "SKIP":
            status = "skip"
        elif directive == "TODO":
            status = "todo"         # an expected failure: not a failure
        else:
            status = "pass" if ok else "fail"

        child, suite.finished_child = suite.finished_child, None
        if child is not None:
            if not child.name:
                child.name = name
            elif name and name != child.name:
                self.warnings.append((no, f"result {name!r} closes "
                                          f"'# Subtest: {child.name}'"))
            if status == "pass" and child.first_failure:
                # KUnit propagates failures upward; a parent that says ok
                # over a failed child means the kernel's bookkeeping is off.
                self.error(no, f"{line!r} says ok, but {child.label} has a "
                               f"not ok at line {child.first_failure}")
        if status == "fail" and suite.first_failure is None:
            suite.first_failure = no
        # A suite with no results of its own (1..0, skipped whole) counts
        # as one test, so that a skipped suite shows up in the totals.
        self.tests.append(TestResult(
            suite, name, number, status, reason, no,
            leaf=child is None or child.count == 0,
            child_failed=child is not None and bool(child.first_failure)))

    # -- end of log --------------------------------------------------------

    def finish(self, last: int) -> None:
        """The log ended: say where, if the KTAP was not complete there."""
        if not self.stack:
            self.error(0, "no KTAP output: the log has no "
                          "'KTAP version 1' line")
            return
        inner = self.stack[-1]
        if inner.finished_child is not None:
            what = (f"after {inner.finished_child.label} finished, before "
                    f"its result line in {inner.label}")
        elif inner.plan is None and inner.count == 0:
            what = f"in {inner.label} before its plan"
        elif inner.plan is not None and inner.last_number < inner.plan:
            what = f"in {inner.label} " + (
                f"after test {inner.last_number} of {inner.plan}"
                if inner.count else "before its first test")
        elif len(self.stack) > 1:
            what = (f"after {inner.label} finished, before its result line "
                    f"in {inner.parent.label}")
        else:
            if inner.plan is not None and inner.count != inner.plan:
                self.error(last, f"{inner.label} planned "
                                 f"{plural(inner.plan, 'test')} but "
                                 f"reported {inner.count}")
            return
        self.error(last, f"cut off {what} (the log ends here)")


def parse(lines: list[str]) -> KtapReport:
    return KtapParser(lines).parse()
