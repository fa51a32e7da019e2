"""mktracedat --self-test: the dump reader and the trace.dat writer on a
dump made here, then on doctored copies of it, each of which must be
refused with the right reason; and the ring buffer pages decoded back.
With trace-cmd installed, `trace-cmd report` must print the made-up
events as expected."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile

from tools.lib.build import BuildError, read_offsets
from tools.trace import dump as dumpmod
from tools.trace import tracedat

SWITCH, WAKEUP = 1, 2  # enum trace_type: TRACE_EVENTS' first two


def line(text: str) -> str:
    return f"{text} {dumpmod.fletcher16(text):04x}"


def sample(kinfo: dict) -> list[str]:
    ntypes = len(kinfo["TRACE_EVENT_NAMES"]) + 1
    body = [
        f"TRACE begin v1 cpus=2 entry={kinfo['TRACE_ENTRY_size']} types={ntypes}",
        "TC 1 main", "TC 7 worker",
        "TI 32 timer",
        # CPU 0: main wakes worker on CPU 1; a gap of 2 s (a time extend)
        f"TR 0 3b9aca00 {WAKEUP:x} 0 1 1 7 78 1 0",
        f"TR 0 b2d05e00 {SWITCH:x} 1 1 1 1 0 7800000078 1",
        "TL 0 2 0",
        f"TR 1 3b9acb00 {SWITCH:x} 1 1 0 0 7 7800000078 0",
        "TL 1 1 0",
        "TRACE end records=3 lost=0",
    ]
    return ["boot noise", *[line(b) for b in body], "fold> poweroff"]


def expect_error(lines: list[str], kinfo: dict, what: str, fragment: str) -> str | None:
    from tools.trace.convert import convert
    try:
        convert(dumpmod.parse(lines), kinfo)
    except dumpmod.DumpError as e:
        return None if fragment in str(e) else f"{what}: wrong reason: {e}"
    return f"{what}: accepted"


def decode_pages(data: bytes) -> list[int]:
    """The timestamps of a CPU's data events, read back from its pages."""
    out = []
    for p in range(0, len(data), tracedat.PAGE_SIZE):
        ts, commit = struct.unpack_from("<QQ", data, p)
        off, end = p + tracedat.PAGE_HEADER, p + tracedat.PAGE_HEADER + commit
        first = True
        while off < end:
            (hdr,) = struct.unpack_from("<I", data, off)
            tl, delta = hdr & 31, hdr >> 5
            if tl == tracedat.TYPE_TIME_EXTEND:
                (hi,) = struct.unpack_from("<I", data, off + 4)
                ts += delta | hi << tracedat.TS_BITS
                off += 8
                continue
            assert 1 <= tl <= tracedat.TYPE_DATA_MAX, f"type_len {tl}"
            ts += 0 if first else delta
            first = False
            out.append(ts)
            off += 4 + 4 * tl
    return out


def main(offsets: str = "build/fold_offsets.py") -> int:
    from tools.trace.convert import convert
    fails = []
    try:
        kinfo = read_offsets(offsets)
    except BuildError as e:
        print(f"mktracedat self-test: {e}")
        return 2
    good = sample(kinfo)
    d = dumpmod.parse(good)
    data = convert(d, kinfo)
    if len(d.records[0]) != 2 or d.comms != {1: "main", 7: "worker"}:
        fails.append(f"the sample read back wrong: {d}")

    def doctor(i: int, new: str, keep_sum: bool = False) -> list[str]:
        out = list(good)
        out[i] = line(new) if not keep_sum else new + out[i][len(out[i]) - 5:]
        return out

    tr = next(i for i, l in enumerate(good) if l.startswith("TR 0 3b9aca00"))
    cases = [
        ("a flipped digit", doctor(tr, good[tr][:-5].replace("3b9aca00", "3b9aca01"), True),
         "checksum"),
        ("a dropped record", good[:tr] + good[tr + 1:], "wrote 2 records"),
        ("no end line", good[:-2], "no 'TRACE end'"),
        ("time going back", doctor(tr + 1, f"TR 0 1 {SWITCH:x} 1 1 1 1 0 7800000078 1"),
         "time goes back"),
        ("an unknown event type", doctor(tr, f"TR 0 3b9aca00 63 0 1 1 7 78 1 0"), "unknown"),
        ("another build's record size", doctor(1, "TRACE begin v1 cpus=2 entry=40 types="
                                               f"{len(kinfo['TRACE_EVENT_NAMES']) + 1}"),
         "not from this build"),
        ("a pid beyond 32 bits", doctor(tr, f"TR 0 3b9aca00 {WAKEUP:x} 0 1 1 1ffffffff 78 1 0"),
         "does not fit"),
    ]
    for what, lines, frag in cases:
        err = expect_error(lines, kinfo, what, frag)
        if err:
            fails.append(err)

    # The pages decode back to the dump's timestamps (the 2 s gap needs a
    # time extend: 27 bits of ns are 0.134 s).
    cpu0 = [(r.ts, b"\0" * 64) for r in d.records[0]]
    got = decode_pages(tracedat.cpu_pages(cpu0))
    if got != [r.ts for r in d.records[0]]:
        fails.append(f"pages decode to {got}, not {[r.ts for r in d.records[0]]}")
    many = [(1000 * i, b"\0" * 64) for i in range(200)]  # over one page
    if decode_pages(tracedat.cpu_pages(many)) != [t for t, _ in many]:
        fails.append("200 events over several pages do not decode back")

    if shutil.which("trace-cmd"):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "trace.dat")
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True)
            want = ["main-1     [000]     1.000000: sched_wakeup:         worker:7 [120] CPU:001",
                    "main-1     [000]     3.000000: sched_switch:         main:1 [120] S ==> "
                    "idle/0:0 [120]"]
            for w in want:
                if w not in p.stdout:
                    fails.append(f"trace-cmd report lacks {w!r}:\n{p.stdout}{p.stderr}")
    else:
        print("mktracedat self-test: trace-cmd is not installed: its check skipped")
    for f in fails:
        print(f"FAIL: {f}")
    print(f"mktracedat self-test: {len(cases) + 3 - len(fails)} passed, {len(fails)} failed")
    return 1 if fails else 0
