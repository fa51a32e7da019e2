"""Experiment E5's analyser: what the compiler made of every function, read
from the object code (objdump), not from the source.

Linus (LWN, "Optimizing preemption", 2013-08-14): "the fact that there is
a conditional function call very often makes code generation *much*
worse. A function that is a leaf function with no stack frame with no
preemption often turns into a non-leaf function with stack frames when
you enable preemption."

Per function (a symbol of the disassembly; GCC's `NAME.cold` part, the
out-of-line block of an unlikely() branch, is counted with NAME):

  calls      every `call` (direct or indirect), and every `jmp` that leaves
             the function (a tail call: a direct jmp to another symbol, or
             an indirect jmp that is not a jump table's `jmp *T(,%reg,8)`),
             EXCEPT the slow-path call behind a preempt_enable(): a call or
             jmp whose target is preempt_schedule_thunk (COUNT=* with the
             thunk) or preempt_schedule (PREEMPT_ENABLE_CALL=c). The rule is
             by target, and it is exact because nothing else in fold's C
             calls either of them (preempt_schedule_regs, the thunk's
             asm body, does, and is asm: the same in every variant).
             A patch site (arch/x86_64/kernel/patch_site.h, the .patch_sites
             section) is a 5-byte `jmp` to a label of its own function (or a
             NOP): not a call. The code at its label is read like the rest,
             so cond_resched()'s call behind the site counts as a call.
  leaf       no call but the slow path above.
  frame      `push %rbp; mov %rsp,%rbp` (a frame pointer), or %rsp lowered
             by `sub`/`add`/`lea` (a stack frame).
  pushes     pushes of a callee-saved register (rbx rbp r12-r15, SysV
             AMD64 ABI 3.2.1).
  frameless  no frame and no pushes.
  bytes, insns  the function's size and instruction count (cold part
             included).

It reads a linked ELF or a relocatable object (`objdump -dr -w`: in an
object a call's target is its relocation's symbol).
"""

from __future__ import annotations

import re
import struct
import subprocess
from dataclasses import dataclass, field

SLOW_PATH = ("preempt_schedule_thunk", "preempt_schedule")
CALLEE_SAVED = ("rbx", "rbp", "r12", "r13", "r14", "r15")

HEAD_RE = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$")
BYTES_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*$")
RELOC_RE = re.compile(r"^\s*([0-9a-f]+): (R_X86_64_\S+)\s+(\S+)$")
# With -w objdump may put an instruction's relocation on its own line.
INLINE_RELOC_RE = re.compile(r"\s+[0-9a-f]+: R_X86_64_\S+\s+(\S+)$")
TARGET_RE = re.compile(r"^([0-9a-f]+) <([^>+]+)(?:\+0x[0-9a-f]+)?>$")


@dataclass
class Insn:
    addr: int
    size: int
    mnemonic: str
    operands: str
    target: str = ""          # the symbol a direct call/jmp goes to
    text: str = ""            # objdump's line, for excerpts


@dataclass
class Func:
    name: str
    insns: list = field(default_factory=list)
    calls: list = field(default_factory=list)       # (mnemonic, target)
    slow_calls: int = 0
    frame_pointer: bool = False
    stack_frame: bool = False
    pushes: int = 0

    @property
    def bytes(self) -> int:
        return sum(i.size for i in self.insns)

    @property
    def leaf(self) -> bool:
        return not self.calls

    @property
    def frameless(self) -> bool:
        return not (self.frame_pointer or self.stack_frame or self.pushes)

    @property
    def leaf_frameless(self) -> bool:
        return self.leaf and self.frameless


def base_name(symbol: str) -> str:
    """foo.cold and foo.cold.3 belong to foo."""
    return re.sub(r"\.cold(\.[0-9]+)?$", "", symbol)


def parse(text: str) -> dict:
    """{function: [Insn]} from `objdump -d[r] -w` output."""
    funcs: dict = {}
    cur = None
    for line in text.splitlines():
        m = HEAD_RE.match(line)
        if m:
            cur = funcs.setdefault(base_name(m.group(2)), [])
            continue
        if cur is None:
            continue
        m = RELOC_RE.match(line)
        if m and cur:
            sym = re.split(r"[-+]", m.group(3))[0]
            if cur[-1].mnemonic.startswith(("call", "jmp")) and not cur[-1].operands.startswith("*"):
                cur[-1].target = sym
            continue
        m = INSN_RE.match(line)
        if m:
            size = len(m.group(2).split())
            ops = m.group(4).strip()
            rel = INLINE_RELOC_RE.search(ops)
            if rel:
                ops = ops[:rel.start()].strip()
            t = TARGET_RE.match(ops)
            target = base_name(t.group(2)) if t else ""
            if rel and m.group(3).startswith(("call", "jmp")) and not ops.startswith("*"):
                target = re.split(r"[-+]", rel.group(1))[0]
            cur.append(Insn(int(m.group(1), 16), size, m.group(3), ops, target, line.strip()))
            continue
        m = BYTES_RE.match(line)
        if m and cur:                 # a long instruction's continuation
            cur[-1].size += len(m.group(2).split())
    return funcs


def analyse_func(name: str, insns: list) -> Func:
    f = Func(name, insns)
    prev = None
    for i in insns:
        mn, ops = i.mnemonic, i.operands
        if mn.startswith("call"):
            if i.target in SLOW_PATH:
                f.slow_calls += 1
            else:
                f.calls.append((mn, i.target or ops))
        elif mn.startswith("jmp"):
            if ops.startswith("*"):
                if not re.search(r"\(,%r[a-z0-9]+,8\)", ops):
                    f.calls.append((mn, ops))
            elif i.target in SLOW_PATH:
                f.slow_calls += 1
            elif i.target and i.target != name:
                f.calls.append((mn, i.target))
        elif mn.startswith("push"):
            reg = ops.lstrip("%")
            if reg in CALLEE_SAVED:
                f.pushes += 1
        elif mn.startswith("mov") and ops == "%rsp,%rbp" and prev is not None \
                and prev.mnemonic.startswith("push") and prev.operands == "%rbp":
            f.frame_pointer = True
        elif (mn.startswith("sub") and ops.endswith(",%rsp") and ops.startswith("$")) or \
             (mn.startswith("add") and re.match(r"^\$0xf{8,}[0-9a-f]*,%rsp$|^\$-", ops)) or \
             (mn.startswith("lea") and re.match(r"^-0x[0-9a-f]+\(%rsp\),%rsp$", ops)):
            f.stack_frame = True
        prev = i
    return f


def analyse_text(text: str) -> dict:
    return {n: analyse_func(n, ins) for n, ins in parse(text).items() if ins}


def disassemble(path: str, objdump: str = "objdump") -> str:
    out = subprocess.run([objdump, "-d", "-r", "-w", path], check=True,
                         capture_output=True, text=True)
    return out.stdout


def analyse(path: str, objdump: str = "objdump") -> dict:
    """{function: Func} of an ELF or object file."""
    return analyse_text(disassemble(path, objdump))


TOTAL_KEYS = ("functions", "leaf", "frameless", "leaf_frameless",
              "frame_pointer", "stack_frame", "pushes", "slow_calls", "bytes", "insns")


def totals(funcs: dict) -> dict:
    fs = list(funcs.values())
    return {
        "functions": len(fs),
        "leaf": sum(f.leaf for f in fs),
        "frameless": sum(f.frameless for f in fs),
        "leaf_frameless": sum(f.leaf_frameless for f in fs),
        "frame_pointer": sum(f.frame_pointer for f in fs),
        "stack_frame": sum(f.stack_frame for f in fs),
        "pushes": sum(f.pushes for f in fs),
        "slow_calls": sum(f.slow_calls for f in fs),
        "bytes": sum(f.bytes for f in fs),
        "insns": sum(len(f.insns) for f in fs),
    }


def lost_leaves(base: dict, other: dict) -> list:
    """Functions leaf and frameless in base but not in other (both must
    have the function), the largest growth in bytes first."""
    out = [n for n, f in base.items()
           if f.leaf_frameless and n in other and not other[n].leaf_frameless]
    return sorted(out, key=lambda n: (other[n].bytes - base[n].bytes, n), reverse=True)


def why(f: Func) -> str:
    """What makes f not leaf-and-frameless, in a few words."""
    parts = []
    if f.calls:
        names = sorted({t for _, t in f.calls})
        parts.append("calls " + ", ".join(names[:3]) + (" ..." if len(names) > 3 else ""))
    if f.frame_pointer:
        parts.append("frame pointer")
    if f.stack_frame:
        parts.append("stack frame")
    if f.pushes:
        parts.append(f"{f.pushes} callee-saved push{'es' if f.pushes > 1 else ''}")
    return "; ".join(parts)


# ---- the ELF: where a symbol's bytes are in the file (for the self-test's
# doctoring). ELF-64 Object File Format (section headers, Elf64_Sym).

def symbol_file_offset(data: bytes, name: str) -> int:
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF-64 file")
    e_shoff, = struct.unpack_from("<Q", data, 0x28)
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize)
            for i in range(e_shnum)]
    for sh in secs:
        if sh[1] != 2:                       # SHT_SYMTAB
            continue
        strtab = secs[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], sh[9]):
            st_name, _info, _other, st_shndx, st_value, _size = \
                struct.unpack_from("<IBBHQQ", data, off)
            s = data[strtab[4] + st_name:data.index(b"\0", strtab[4] + st_name)]
            if s.decode() == name:
                sec = secs[st_shndx]
                return sec[4] + st_value - (sec[3] if data[16] == 2 else 0)
    raise KeyError(name)
