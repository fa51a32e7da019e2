"""fold's host-side library: what the host tools share.

tests/run (the QEMU test harness), tests/gdb/run-gdb-test,
tools/bench/run-bench, tools/gdb/launch.py (make gdb) and make run all
start QEMU, stop processes and read the build through this package:

    qemu.py     the one QEMU command line, and what QEMU's exit status means;
                tools/qemu-run is its command line (make run, make gdb)
    kvm.py      a KVM that cannot run all of fold (PVM), QEMU's KVM errors
    rr.py       QEMU's record/replay of a run (make replay)
    proc.py     starting and stopping processes: timeouts, process groups,
                the terminal's foreground job
    build.py    make: object directories, make's environment, and the
                kernel's limits and option names (build/fold_offsets.py)
    serial.py   reading a serial log: cleaned lines, a panic and its trace
    ktap.py     the strict KTAP parser
    excerpts.py the docs' code excerpts: resolving a name in a source file,
                checking and rewriting an excerpt (tests/check-docs)

Its own checks are tests/tools/lib_selftest.py (run by tests/run
--self-test), with a fake QEMU and a fake make (tests/tools/fakes.py).

Python 3.11, standard library only. Programs put the repository root on
sys.path and set sys.dont_write_bytecode before importing it, so that
tools/ and tests/ stay free of __pycache__.
"""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def summary_line(passed: int, failed: int) -> str:
    """The closing line of every fold test program."""
    return f"{passed} passed, {failed} failed"
