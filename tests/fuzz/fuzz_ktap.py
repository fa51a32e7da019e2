#!/usr/bin/env python3
"""A mutation fuzzer for the host harness's log reading, KTAP parser and
judging (tools/lib/serial.py, tools/lib/ktap.py, tests/run's judge()),
stdlib only (no atheris here).

    python3 tests/fuzz/fuzz_ktap.py --runs=20000 --seed=1   (make test)
    python3 tests/fuzz/fuzz_ktap.py --time=600              (make fuzz)
    python3 tests/fuzz/fuzz_ktap.py FILE                    (one input again)

Each input is a real serial log (tests/harness-logs/*.log, and with --time
also build/test/*.log, the last make test's) changed by one to eight
random mutations, by bytes (flip, insert, delete, splice in an escape
sequence or a control byte) or by lines (delete, duplicate, swap, indent
or outdent by 4 or a tab, renumber, cut the log, glue two lines, put in a
KTAP line or a line of another log). It goes through read_log()'s decoding
(serial.decode_log) as QEMU's file would, then ktap.parse() and judge() with a random row and QEMU
outcome. The contract: the parser raises nothing (ktap.py documents no
exception: every problem in a log is an error in the report), every error
names a line of the log, and judge() always returns a Verdict with a
summary, which is not ok when the row expects a pass and the KTAP has
errors. A broken contract prints the traceback, keeps the input as
build/fuzz/crash-ktap-HASH and exits 1.

The run is reproducible: --seed fixes every choice (mutations, rows,
outcomes); the seeds are read in sorted order. The last line is
"stat::number_of_executed_units: N", as libFuzzer prints it.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib.machinery
import importlib.util
import os
import random
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, ROOT)

from tools.lib import ktap, serial  # noqa: E402
from tools.lib.qemu import Boot  # noqa: E402


def load_run():
    """tests/run as a module (it is a script, no .py)."""
    path = os.path.join(ROOT, "tests", "run")
    loader = importlib.machinery.SourceFileLoader("fold_tests_run", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = mod          # dataclasses look it up
    loader.exec_module(mod)
    return mod


RUN = load_run()

KTAP_LINES = [b"KTAP version 1", b"TAP version 14", b"KTAP version 2", b"1..0",
              b"1..3", b"1..99999999999999999999", b"ok 1 a", b"not ok 1 b",
              b"ok 2 - c # SKIP why", b"not ok 3 d # TODO later", b"# Subtest: s",
              b"#Subtest:", b"Bail out! boom", b"    KTAP version 1", b"    1..1",
              b"    ok 1 x", b"\tok 1 tab", b"# diagnostic", b"[    1.0] 0: log",
              b"PANIC: fuzz", b"Call Trace:", b" ffffffff80104a2c panic+0x5c",
              b"ok 0", b"not ok 18446744073709551616 huge", b"ok 1 #", b"ok"]
NOISE = [b"\x1b[2J", b"\x1b[0m", b"\x1b(B", b"\r", b"\x00", b"\x7f", b"\xff\xfe",
         b"\xe2\x82", b"\t", b"    ", b"#", b"\n", b"ok ", b"1..", b"KTAP version 1"]


def mutate(rng: random.Random, data: bytes, others: list[bytes]) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(14)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [rng.choice(KTAP_LINES)]
        elif op == 0:                                   # delete a line
            del lines[i]
        elif op == 1:                                   # duplicate it
            lines.insert(i, lines[i])
        elif op == 2:                                   # swap two
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:                                   # indent
            lines[i] = rng.choice([b"    ", b"\t", b" ", b"        "]) + lines[i]
        elif op == 4:                                   # outdent
            lines[i] = lines[i][rng.choice([1, 2, 4, 8]):]
        elif op == 5:                                   # a KTAP line
            lines.insert(i, rng.choice(KTAP_LINES))
        elif op == 6:                                   # renumber
            words = lines[i].split(b" ")
            k = rng.randrange(len(words))
            words[k] = str(rng.choice([0, 1, 2, 7, 2**31, 2**64, rng.randrange(100)])).encode()
            lines[i] = b" ".join(words)
        elif op == 7:                                   # cut the log here
            del lines[i:]
        elif op == 8:                                   # glue to the next
            if i + 1 < len(lines):
                lines[i:i + 2] = [lines[i] + lines[i + 1]]
        elif op == 9:                                   # a line of another log
            other = rng.choice(others).split(b"\n")
            lines.insert(i, rng.choice(other))
        else:                                           # bytes
            b = bytearray(lines[i])
            k = rng.randrange(len(b) + 1)
            if op == 10 and b:
                b[min(k, len(b) - 1)] ^= 1 << rng.randrange(8)
            elif op == 11:
                b[k:k] = rng.choice(NOISE)
            elif op == 12:
                del b[k:k + rng.randint(1, 8)]
            else:
                b[k:k] = bytes([rng.randrange(256)])
            lines[i] = bytes(b)
    return b"\n".join(lines)


class ParsedOnce:
    """Stands in for tools/lib/ktap in tests/run while judge() runs, so
    that the log parsed (and checked) here is not parsed a second time."""

    def __init__(self, report):
        self.report = report

    def parse(self, lines):
        return self.report


def check(data: bytes, rng: random.Random, log: str) -> None:
    """One input through the harness's reading and judging."""
    lines = serial.decode_log(data)
    report = ktap.parse(lines)
    assert isinstance(report.found, bool)
    for no, msg in report.errors:
        assert 0 <= no <= len(lines), f"error at line {no} of {len(lines)}: {msg}"
        assert isinstance(msg, str) and msg
    for t in report.tests:
        assert 1 <= t.line <= len(lines) and t.status in ("pass", "fail", "skip", "todo")
        assert isinstance(t.path, str)
    assert len(report.leaves) <= len(report.tests)
    assert all(t.status == "fail" for t in report.culprits)
    for status in ("pass", "fail", "skip", "todo"):
        report.count(status)

    row = RUN.Row(name="fuzz", expect=rng.choice(RUN.EXPECTS), ktap=rng.random() < 0.9,
                  grep=rng.choice([[], ["ok 1"], ["PANIC:"]]),
                  nogrep=rng.choice([[], ["not ok"]]))
    timed_out = rng.random() < 0.1
    boot = Boot(exit_code=None if timed_out else rng.choice([0, 1, 3, 5, 7, 137]),
                timed_out=timed_out, seconds=1.0,
                qemu_output=rng.choice(["", "qemu: terminating on signal 15 from pid 1"]))
    RUN.ktap_mod = ParsedOnce(report)
    try:
        verdict = RUN.judge(row, lines, boot)
    finally:
        RUN.ktap_mod = ktap
    assert isinstance(verdict, RUN.Verdict) and isinstance(verdict.ok, bool)
    assert isinstance(verdict.summary, str) and verdict.summary
    if row.expect == "pass" and report.errors and (row.ktap or report.found):
        assert not verdict.ok, "a pass row with KTAP errors was judged ok"
    RUN.format_result(RUN.RowResult(row, verdict, 1.0, log), verbose=True)


def seeds(corpus: str, build_logs: bool) -> list[bytes]:
    paths = sorted(glob.glob(os.path.join(corpus, "*.log")))
    if build_logs:
        paths += sorted(glob.glob(os.path.join(ROOT, "build", "test", "*.log")))
    out = []
    for p in paths:
        with open(p, "rb") as f:
            out.append(f.read()[:256 * 1024])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=0, help="stop after N inputs")
    ap.add_argument("--time", type=float, default=0, help="stop after S seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", default=os.path.join(ROOT, "tests", "harness-logs"))
    ap.add_argument("--crash-dir", default=os.path.join(ROOT, "build", "fuzz"))
    ap.add_argument("inputs", nargs="*", help="run these files once each, unmutated")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    corpus = seeds(args.corpus, build_logs=args.time > 0)
    if not corpus and not args.inputs:
        print(f"fuzz_ktap: no *.log in {args.corpus}", file=sys.stderr)
        return 2
    n, start = 0, time.monotonic()
    todo = None
    if args.inputs:
        todo = []
        for path in args.inputs:
            with open(path, "rb") as f:
                todo.append(f.read())
    while True:
        if todo is not None:
            if n == len(todo):
                break
            data = todo[n]
        else:
            if args.runs and n >= args.runs:
                break
            if args.time and n % 256 == 0 and time.monotonic() - start >= args.time:
                break
            if not args.runs and not args.time and n >= 10000:
                break
            data = mutate(rng, rng.choice(corpus), corpus) if n >= len(corpus) else corpus[n]
        try:
            check(data, rng, "fuzz.log")
        except Exception:                   # noqa: BLE001 - any is a finding
            os.makedirs(args.crash_dir, exist_ok=True)
            crash = os.path.join(args.crash_dir,
                                 "crash-ktap-" + hashlib.sha1(data).hexdigest())
            with open(crash, "wb") as f:
                f.write(data)
            traceback.print_exc()
            print(f"fuzz_ktap: input {n} broke the contract; kept as {crash}")
            print(f"stat::number_of_executed_units: {n + 1}")
            return 1
        n += 1
    secs = time.monotonic() - start
    print(f"fuzz_ktap: {n} inputs in {secs:.1f} s ({n / max(secs, 1e-9):.0f}/s), "
          f"seed {args.seed}, {len(corpus)} seed logs")
    print(f"stat::number_of_executed_units: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
