"""Self-test of tools/bench/run-vs-icount, on the canned logs of
tests/tools/bench/vs-icount/: make run's default report on this 2-core
host, quiet, with one TCG thread (wall-single.log) and one per vCPU
(wall-multi.log), and the same report under icount (icount.log).

Run it with:  tools/bench/run-vs-icount --self-test
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vs-icount")


def log(name: str) -> str:
    return os.path.join(HERE, name)


def doctored(name: str, edits: dict[str, str]) -> str:
    """A copy of a canned log with key=value replaced on the lines that
    carry every word of a selector (the edits' keys: 'WORDS|key')."""
    with open(log(name)) as f:
        lines = f.read().splitlines()
    for sel, value in edits.items():
        words, key = sel.split("|")
        hit = False
        for i, line in enumerate(lines):
            if all(w in line.split() for w in words.split()):
                lines[i] = re.sub(rf"\b{key}=\S+", f"{key}={value}", line)
                hit = True
        assert hit, sel
    fd, path = tempfile.mkstemp(suffix=".log")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def run(tool, wall: str, icount: str, mode: str, cores: int = 2) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = tool.compare(wall, icount, mode, cores)
    return rc, out.getvalue()


def run_doctored(tool, edits: dict[str, str]) -> tuple[int, str]:
    """The quiet one-thread wall log with edits, against icount."""
    bad = doctored("wall-single.log", edits)
    try:
        return run(tool, bad, log("icount.log"), "single")
    finally:
        os.unlink(bad)


def main(tool) -> int:
    passed = failed = 0

    def check(what: str, cond: bool, text: str = "") -> None:
        nonlocal passed, failed
        if cond:
            passed += 1
            print(f"ok {what}")
        else:
            failed += 1
            print(f"FAIL {what}")
            print("\n".join("    " + l for l in text.splitlines()[-24:]))

    rc, out = run(tool, log("wall-single.log"), log("icount.log"), "single")
    check("one TCG thread, quiet host: every figure inside its band",
          rc == 0 and "OUTSIDE" not in out and "18 passed, 0 failed" in out, out)
    check("COUNT=off's empty pair is shown, not judged",
          re.search(r"preempt off .* -\s+path.* -$", out, re.M) is not None, out)

    rc, out = run(tool, log("wall-multi.log"), log("icount.log"), "multi")
    check("one thread per vCPU on every core: cross and wake-up not judged",
          rc == 0 and out.count("not judged (multi)") == 8, out)

    rc, out = run(tool, log("wall-multi.log"), log("icount.log"), "single")
    check("the multi-thread hog judged as one thread: the hog and the cross "
          "paths fall outside",
          rc == 1 and re.search(r"hog/idle .*OUTSIDE", out) is not None
          and re.search(r"ctxsw_cross .*OUTSIDE", out) is not None, out)

    rc, out = run(tool, log("wall-multi.log"), log("icount.log"), "multi", cores=4)
    check("fewer vCPUs than host cores: judged even with a thread each",
          rc == 1 and "not judged" not in out, out)

    rc, out = run_doctored(tool, {"variant=ti|ns_per_pair": "3.10"})
    check("ti faster than folded on the wall, 3.7x apart under icount: order outside",
          rc == 1 and re.search(r"folded < ti .*OUTSIDE", out) is not None, out)

    rc, out = run_doctored(tool, {"irq|ns_per_irq": "1500.00"})
    check("an interrupt round trip 15x its instructions: outside the path band",
          rc == 1 and re.search(r"irq round trip .*15\.61x .*OUTSIDE", out) is not None, out)

    rc, out = run_doctored(tool, {"load=none cpu=1|avg": "1200000"})
    check("a wake-up later than the period: outside",
          rc == 1 and re.search(r"latency cpu 1 load=none avg .*OUTSIDE", out) is not None, out)

    empty = doctored("icount.log", {"variant=folded|ns_per_pair": "2.99"})
    with open(empty, "w") as f:
        f.write("no report\n")
    rc, out = run(tool, log("wall-single.log"), empty, "single")
    os.unlink(empty)
    check("no figure in common: a usage error, not a pass", rc == 2, out)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tool.print_bands()
    check("--bands prints each class once",
          all(out.getvalue().count(c) >= 1 for c in ("path", "cross", "wake-up", "order")),
          out.getvalue())

    print(tool.summary_line(passed, failed))
    return 1 if failed else 0
