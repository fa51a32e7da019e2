"""objdump's disassembly of fold.elf, read for the labs' host cases
(tools/lab/checks.py): instructions, which registers and flags each
reads and writes, and, for an instruction, the ones before it on its
own path that feed it, so that a message quotes what the student's code
compiled to and nothing from another path of the function.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

LINE_RE = re.compile(r"^\s*([0-9a-f]+):\s+(\S.*?)\s*$")
HEAD_RE = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
PREFIXES = {"lock", "rep", "repz", "repnz", "repe", "repne", "cs", "ds", "notrack", "bnd",
            "data16", "addr32"}
READ_ONLY = {"cmp", "test", "bt", "push", "prefetch", "prefetchw", "nop"}
SIZES = {"b": 1, "w": 2, "l": 4, "q": 8}
SIZED = {"and", "or", "btr", "bts", "btc", "bt", "cmp", "test", "mov", "add", "sub", "inc",
         "dec", "xchg", "not", "neg", "xor", "push", "pop", "cmpxchg", "xadd", "adc", "sbb",
         "shl", "shr", "sar", "sal"}
FLAG_WRITERS = {"cmp", "test", "and", "or", "xor", "add", "sub", "adc", "sbb", "inc", "dec",
                "neg", "shl", "shr", "sar", "sal", "rol", "ror", "bt", "bts", "btr", "btc",
                "bsf", "bsr", "tzcnt", "lzcnt", "popcnt", "imul", "mul", "cmpxchg", "xadd"}
# Write their last operand without reading it first.
PURE_WRITES = ("mov", "lea", "pop")
REG_RE = re.compile(r"%([a-z0-9]+)")
# A register's every name, by the 64-bit one's family: rax eax ax al ah -> a.
FAMILY = {}
for fam, names in {"a": "rax eax ax al ah", "b": "rbx ebx bx bl bh", "c": "rcx ecx cx cl ch",
                   "d": "rdx edx dx dl dh", "si": "rsi esi si sil", "di": "rdi edi di dil",
                   "bp": "rbp ebp bp bpl", "sp": "rsp esp sp spl"}.items():
    for n in names.split():
        FAMILY[n] = fam
for n in range(8, 16):
    for s in ("", "d", "w", "b"):
        FAMILY[f"r{n}{s}"] = f"r{n}"


@dataclass
class Insn:
    addr: int
    prefixes: list[str]
    mnemonic: str
    operands: list[str]
    target: str            # a direct branch's symbol, <sym> or <sym+0x..>
    text: str

    @property
    def base(self) -> str:
        """The mnemonic without its size suffix (andl -> and)."""
        m = self.mnemonic
        if m[-1:] in SIZES and m[:-1] in SIZED:
            return m[:-1]
        return m

    @property
    def size(self) -> int:
        m = self.mnemonic
        return SIZES.get(m[-1:], 4) if m != self.base else 4

    @property
    def is_jump(self) -> bool:
        return self.mnemonic.startswith("j")

    @property
    def is_cond_jump(self) -> bool:
        return self.is_jump and self.mnemonic != "jmp"

    @property
    def ends_path(self) -> bool:
        """Nothing falls through it."""
        return self.mnemonic == "jmp" or self.mnemonic.startswith("ret") or self.mnemonic == "ud2"


def split_operands(text: str) -> list[str]:
    ops, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def parse_insn(addr: int, text: str) -> Insn:
    text = text.split("#")[0].strip()
    target = ""
    m = re.search(r"<([^>]+)>", text)
    if m:
        target = m.group(1)
        text = (text[:m.start()] + text[m.end():]).strip()
    text = re.sub(r"\s+", " ", text)
    words = text.split(None, 1)
    prefixes = []
    while words and words[0] in PREFIXES and len(words) > 1:
        prefixes.append(words[0])
        words = words[1].split(None, 1)
    mnemonic = words[0] if words else ""
    operands = split_operands(words[1]) if len(words) > 1 else []
    if target and len(operands) == 1:
        text = " ".join(prefixes + [mnemonic, target])   # call do_exception, not its address
    return Insn(addr, prefixes, mnemonic, operands, target, " ".join(prefixes + [text])
                if prefixes and not text.startswith(prefixes[0]) else text)


def parse_objdump(text: str, wanted=None) -> dict[str, list[Insn]]:
    funcs: dict[str, list[Insn]] = {}
    cur = None
    for line in text.splitlines():
        h = HEAD_RE.match(line)
        if h:
            cur = h.group(1) if wanted is None or h.group(1) in wanted else None
            if cur:
                funcs[cur] = []
            continue
        m = LINE_RE.match(line)
        if cur and m and ":" in line:
            funcs[cur].append(parse_insn(int(m.group(1), 16), m.group(2)))
    return funcs


def disassemble(elf: str, objdump: str = "objdump") -> dict[str, list[Insn]]:
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True,
                         capture_output=True, text=True).stdout
    return parse_objdump(out)


def imm(op: str) -> int | None:
    m = re.fullmatch(r"\$(-?0x[0-9a-f]+|-?\d+)", op)
    return int(m.group(1), 0) if m else None


# ---------------------------------------------------------------------------
# What an instruction reads and writes, and what feeds it
# ---------------------------------------------------------------------------

def regs_in(op: str) -> set[str]:
    return {FAMILY[r] for r in REG_RE.findall(op) if r in FAMILY}


def is_reg(op: str) -> bool:
    return bool(re.fullmatch(r"%[a-z0-9]+", op)) and op[1:] in FAMILY


def writes_flags(i: Insn) -> bool:
    return i.base in FLAG_WRITERS or i.mnemonic.startswith("call")


def reads_flags(i: Insn) -> bool:
    return i.is_cond_jump or i.mnemonic.startswith(("set", "cmov")) or i.base in ("adc", "sbb")


def written_regs(i: Insn) -> set[str]:
    if not i.operands or i.base in READ_ONLY or i.is_jump:
        return set()
    out = regs_in(i.operands[-1]) if is_reg(i.operands[-1]) else set()
    if i.base == "xchg" and is_reg(i.operands[0]):
        out |= regs_in(i.operands[0])
    if i.base == "cmpxchg":
        out.add("a")
    return out


def read_regs(i: Insn, addresses: bool = True) -> set[str]:
    """The registers i reads: as values, and (addresses) to address memory."""
    ops = i.operands
    if not ops:
        return set()
    last = ops[-1]
    pure = i.base.startswith(PURE_WRITES) or i.mnemonic.startswith("set") or \
        (i.base == "xor" and len(ops) == 2 and ops[0] == ops[1])

    def regs(op: str) -> set[str]:
        return regs_in(op) if addresses or is_reg(op) else set()
    out = set()
    for op in ops[:-1]:
        out |= regs(op)
    if not is_reg(last) or not pure:
        out |= regs(last)         # a memory operand's address, or a register read and written
    if i.base == "cmpxchg":
        out.add("a")
    return out


def labels(insns: list[Insn]) -> set[int]:
    """Addresses inside the function that a jump goes to."""
    out = set()
    for i in insns:
        if i.is_jump and i.operands:
            try:
                out.add(int(i.operands[0], 16))
            except ValueError:
                pass
    return out


def feeding(insns: list[Insn], k: int, flags: bool = False, regs: set[str] | None = None
            ) -> tuple[list[int], bool]:
    """The instructions before insns[k] on its own straight path (back to
    a jump target, a call, or an instruction nothing falls through) whose
    results insns[k] uses: its flags if flags, the registers regs (default
    what insns[k] reads as values). Values only: a register that only
    addresses memory is not followed. Returns their indices in order, and
    whether something it uses was set before that path began (elsewhere)."""
    need = set(read_regs(insns[k], False) if regs is None else regs)
    need_flags = flags
    targets = labels(insns)
    chain = []
    j = k - 1
    while j >= 0 and (need or need_flags):
        i = insns[j]
        if i.ends_path or i.mnemonic.startswith("call"):
            break
        hit = need & written_regs(i)
        if hit or (need_flags and writes_flags(i)):
            chain.append(j)
            need -= hit
            if writes_flags(i):
                need_flags = False
            need |= read_regs(i, False)
            need_flags |= reads_flags(i)
        if i.addr in targets:
            break
        j -= 1
    return sorted(chain), bool(need or need_flags)


def quote(insns: list[Insn], idx: list[int], last: str | None = None) -> str:
    """`a; b; c`: the instructions at idx, and last (a jump's mnemonic)."""
    words = [insns[j].text for j in idx] + ([last] if last else [])
    return "`" + "; ".join(words) + "`"


def path_before(insns: list[Insn], k: int, limit: int = 8) -> list[int]:
    """The instructions on insns[k]'s own straight path before it (back to
    a jump target or an instruction nothing falls through), at most limit."""
    targets = labels(insns)
    out = []
    j = k - 1
    while j >= 0 and len(out) < limit and not insns[j].ends_path:
        out.append(j)
        if insns[j].addr in targets:
            break
        j -= 1
    return sorted(i for i in out if not insns[i].mnemonic.startswith("nop"))


def calls(insns: list[Insn]) -> str:
    """The functions a function calls or jumps to, for a message."""
    names = [i.target for i in insns if i.mnemonic in ("call", "jmp") and i.target
             and "+" not in i.target]
    return "`" + "; ".join(f"call {n}" for n in dict.fromkeys(names)) + "`" if names else \
        "no other function"


def body(insns: list[Insn], limit: int = 14) -> str:
    """A function's instructions, padding left out, for a message."""
    real = [i.text for i in insns if not i.mnemonic.startswith("nop")]
    more = f"; ... ({len(real) - limit} more)" if len(real) > limit else ""
    return "`" + "; ".join(real[:limit]) + more + "`"
