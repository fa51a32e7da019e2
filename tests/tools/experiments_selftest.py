"""E5's analyser on objects with a known answer (no QEMU; part of `make
test`). A small C file (codegen_sample.c) is compiled with the kernel's code-model flags and
-fomit-frame-pointer; its functions are read, then one leaf is doctored
in the object's bytes (its first instructions replaced by `call` to the
next instruction and NOPs) and read again: the leaf count must drop by
one and the comparison must name that function. A push of %rbx doctored
into another leaf must make it not frameless.

Prints one line per check and "N passed, N failed".
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import codegen
from tools.lib import summary_line

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "codegen_sample.c")
FLAGS = ["-O2", "-ffreestanding", "-fno-pic", "-fno-pie", "-mcmodel=kernel",
         "-mno-red-zone", "-mgeneral-regs-only", "-fno-asynchronous-unwind-tables",
         "-fomit-frame-pointer", "-c"]


def doctor(path: str, out: str, name: str, funcs: dict, new: bytes) -> None:
    """Write a copy of path with name's first instructions replaced by new
    (padded with NOPs to an instruction boundary)."""
    data = bytearray(open(path, "rb").read())
    f = funcs[name]
    start = f.insns[0].addr
    length = 0
    for i in f.insns:
        if length >= len(new):
            break
        length = i.addr + i.size - start
    if length < len(new):
        raise ValueError(f"{name} is too short to doctor")
    off = codegen.symbol_file_offset(bytes(data), name)
    data[off:off + length] = new + b"\x90" * (length - len(new))
    open(out, "wb").write(bytes(data))


def main() -> int:
    passed = failed = 0

    def check(ok: bool, what: str, detail: str = "") -> None:
        nonlocal passed, failed
        print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": {detail}"), flush=True)
        passed += ok
        failed += not ok

    cc = os.environ.get("CC", "gcc")
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "t.o")
        r = subprocess.run([cc] + FLAGS + ["-o", obj, SOURCE], capture_output=True, text=True)
        if r.returncode:
            print(f"selftest: {cc} failed: {r.stderr.strip()}")
            print(summary_line(0, 1))
            return 1
        base = codegen.analyse(obj)
        want = {"leaf_sum": (True, True), "leaf_mix": (True, True),
                "enable_like": (True, True), "caller": (False, False)}
        for name, (leaf, frameless) in want.items():
            f = base.get(name)
            check(f is not None and (f.leaf, f.frameless) == (leaf, frameless),
                  f"{name}: leaf={leaf} frameless={frameless}",
                  "missing" if f is None else f"got leaf={f.leaf} frameless={f.frameless} "
                  f"({codegen.why(f)})")
        check(base["enable_like"].slow_calls == 1, "enable_like: one slow-path call",
              f"got {base['enable_like'].slow_calls}")
        t0 = codegen.totals(base)

        # A leaf made non-leaf: call rel32 0 (to the next instruction).
        bad = os.path.join(tmp, "doctored.o")
        doctor(obj, bad, "leaf_sum", base, b"\xe8\x00\x00\x00\x00")
        got = codegen.analyse(bad)
        t1 = codegen.totals(got)
        check(t1["leaf"] == t0["leaf"] - 1, "doctored call: the leaf count drops by one",
              f"{t0['leaf']} -> {t1['leaf']}")
        check(codegen.lost_leaves(base, got) == ["leaf_sum"],
              "doctored call: leaf_sum is listed as lost", str(codegen.lost_leaves(base, got)))

        # A leaf made to push a callee-saved register: push %rbx.
        bad2 = os.path.join(tmp, "doctored2.o")
        doctor(obj, bad2, "leaf_mix", base, b"\x53")
        got2 = codegen.analyse(bad2)
        check(not got2["leaf_mix"].frameless and got2["leaf_mix"].pushes == 1,
              "doctored push %rbx: leaf_mix is no longer frameless",
              codegen.why(got2["leaf_mix"]))
        check(codegen.totals(got2)["leaf_frameless"] == t0["leaf_frameless"] - 1,
              "doctored push: leaf+frameless count drops by one")

    # The parser on canned objdump text: a tail call, a jump table, a
    # frame pointer, a .cold part, a patch site's jmp to its own label.
    text = """
0000000000000000 <f>:
   0:\t55                   \tpush   %rbp
   1:\t48 89 e5             \tmov    %rsp,%rbp
   4:\te9 00 00 00 00       \tjmp    9 <f+0x9>
   9:\tff 24 c5 00 00 00 00 \tjmp    *0x0(,%rax,8)
  10:\te9 00 00 00 00       \tjmp    15 <g>

0000000000000015 <g>:
  15:\tc3                   \tret
0000000000000016 <g.cold>:
  16:\te8 00 00 00 00       \tcall   1b <preempt_schedule>
"""
    fs = codegen.analyse_text(text)
    check(fs["f"].frame_pointer and fs["f"].calls == [("jmp", "g")],
          "canned: frame pointer, tail call counted, patch-site jmp and jump table not",
          f"{fs['f'].calls}")
    check(fs["g"].leaf and fs["g"].slow_calls == 1 and fs["g"].bytes == 6 and "g.cold" not in fs,
          "canned: g.cold counted with g, its preempt_schedule call the slow path")
    print(summary_line(passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
