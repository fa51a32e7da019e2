"""Part B's instructions, from the built kernel: for one count model,
build its fold.elf as tests/check-disasm does (build/cfg/<hash>/, the
same directory, so make test builds each model once), disassemble the
probes of tests/disasm/probes.c with objdump, and write the program file
`explore fold MODEL FILE` runs (its format: tests/explore/fx_load.c).
Read on every run: the model cannot drift from the code.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from tools.lib import build as build_mod  # noqa: E402

PROBES = ("probe_preempt_pair", "resched_curr", "probe_schedule_clear", "probe_irq_enter",
          "probe_scheduler_ipi", "probe_irq_exit", "probe_irq_exit_need_resched")
THREAD = 0xffff888000200000      # a struct thread of the model: its flags at +0
RSP = 0xffffc90000007e40         # CPU 1's stack pointer, inside its stack
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*?)\s*$")


class ProbeError(Exception):
    pass


def elf_of(model, root=ROOT):
    """Build (or find up to date) the model's fold.elf in the tree at
    root; its directory."""
    words = ["COUNT=" + model, "PREEMPT=full"]
    bdir = build_mod.build_dir("build", words)
    r = subprocess.run(["make", "-s", "BUILD=" + bdir] + words + [bdir + "/fold.elf"],
                       cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        raise ProbeError("%s does not build: %s" % (model, (r.stdout + r.stderr)[-400:]))
    return os.path.join(root, bdir)


def disassemble(elf, func):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--disassemble=" + func, elf],
                         check=True, capture_output=True, text=True).stdout
    lines = []
    for line in out.splitlines():
        m = INSN.match(line)
        if not m or line.rstrip().endswith(">:"):
            continue
        addr, text = m.group(1), m.group(2)
        comment = ""
        if "#" in text:
            text, comment = [s.strip() for s in text.split("#", 1)]
        parts = text.split(None, 1)
        mn, ops = parts[0], parts[1] if len(parts) > 1 else ""
        if mn == "lock":               # "lock andl $..,X": one locked instruction
            sub = ops.split(None, 1)
            mn, ops = "lock." + sub[0], sub[1] if len(sub) > 1 else ""
        if "(%rip)" in ops:
            target = re.match(r"([0-9a-f]+)", comment)
            if not target:
                raise ProbeError("%s: a %%rip operand without its address: %s" % (func, line))
            ops = re.sub(r"-?0x[0-9a-f]+\(%rip\)|\(%rip\)", "0x" + target.group(1), ops)
        sym = re.search(r"<([^>+]+)(\+0x[0-9a-f]+)?>", ops)
        if mn.startswith("call"):
            if not sym:
                raise ProbeError("%s: an indirect call: %s" % (func, line))
            ops = sym.group(1)
        else:
            ops = re.sub(r"\s*<[^>]*>", "", ops)
            if mn.startswith("j") and sym and not sym.group(2) and sym.group(1) != func:
                ops = sym.group(1)     # a tail call: jmp to another function
        lines.append("%s %s %s" % (addr, mn, ops.replace(" ", "")))
    if not lines:
        raise ProbeError("no %s in %s (tests/disasm/probes.c)" % (func, elf))
    return lines


def write_program(model, build, root=ROOT, name=None):
    bdir = elf_of(model, root)
    elf = os.path.join(bdir, "fold.elf")
    off = build_mod.read_offsets(os.path.join(bdir, "fold_offsets.py"))
    nm = subprocess.run(["nm", elf], check=True, capture_output=True, text=True).stdout
    m = re.search(r"^([0-9a-f]+) \w percpu_area$", nm, re.M)
    if not m:
        raise ProbeError("no percpu_area in %s" % elf)
    gs = int(m.group(1), 16) + off["PERCPU_size"]          # CPU 1's area
    if off["PREEMPT_COUNT_ON_STACK"]:
        count = RSP & ~(off["STACK_SIZE"] - 1)              # thread_info at the stack's base
    else:
        count = gs + off["PERCPU_preempt_count"]
    folds = model in ("folded", "racy")                      # bit 31 is the inverted flag
    start = off["PREEMPT_NEED_RESCHED"] if folds else 0
    rqs = re.search(r"^([0-9a-f]+) \w rqs$", nm, re.M)
    if not rqs:
        raise ProbeError("no rqs in %s" % elf)
    curr1 = int(rqs.group(1), 16) + off["RQ_size"] + off["RQ_curr"]     # rqs[1].curr
    out = ["model %s" % model, "count 0x%x 0x%x" % (count, start),
           "flags 0x%x" % THREAD, "mem 0x%x 0x%x" % (gs + off["PERCPU_current"], THREAD),
           "mem 0x%x 0x%x" % (curr1, THREAD),
           "gs 0x%x" % gs, "gs0 0x%x" % (gs - off["PERCPU_size"]), "rsp 0x%x" % RSP, "arg 0x1"]
    for f in PROBES:
        out.append("func %s" % f)
        out.extend(disassemble(elf, f))
    os.makedirs(build, exist_ok=True)
    path = os.path.join(build, name or "fold-%s.prog" % model)
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")
    return path


if __name__ == "__main__":
    print(open(write_program(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "build/explore")).read())
