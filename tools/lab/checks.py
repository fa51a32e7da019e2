"""The labs' host cases (tests/labs/rubric's `host` lines): what the
compiler made of the student's code, read with objdump from fold.elf.
Where the lesson is an instruction, the instruction is graded.

  fold_is_one_unlocked_instruction (L1)
      scheduler_ipi(), the RESCHEDULE IPI's work with the fold inlined
      (and any function it calls directly), writes the count (%gs:0x8 ..
      0xb) exactly once, with one read-modify-write that clears bit 31
      and nothing else (andl $0x7fffffff, btrl $0x1f, andb $0x7f on the
      top byte, ...), without a lock prefix; and neither resched_curr()
      nor resched_curr_lazy() clears bit 31 anywhere (the requester
      never writes another CPU's count).
  exit_test_is_one_compare (L2)
      in irq_dispatch() (irqentry_exit() inlined) every branch to
      irqentry_exit_cond_resched() is guarded by a conditional jump whose
      flags come from one instruction comparing %gs:0x8 itself with 0
      (cmpl $0x0,%gs:0x8, or testl $0xffffffff,%gs:0x8), taken towards
      the call when the count is 0.

Each check returns the lines to show: empty when it passes.
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
COUNT_OFFSETS = {0x8, 0x9, 0xa, 0xb}
SIZES = {"b": 1, "w": 2, "l": 4, "q": 8}


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
        if m[-1:] in SIZES and m[:-1] in ("and", "or", "btr", "bts", "btc", "bt", "cmp", "test",
                                          "mov", "add", "sub", "inc", "dec", "xchg", "not",
                                          "neg", "xor", "push", "pop"):
            return m[:-1]
        return m

    @property
    def size(self) -> int:
        m = self.mnemonic
        return SIZES.get(m[-1:], 4) if m != self.base else 4


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
    words = text.split(None, 1)
    prefixes = []
    while words and words[0] in PREFIXES and len(words) > 1:
        prefixes.append(words[0])
        words = words[1].split(None, 1)
    mnemonic = words[0] if words else ""
    operands = split_operands(words[1]) if len(words) > 1 else []
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


def count_offset(op: str) -> int | None:
    m = re.fullmatch(r"%gs:(0x[0-9a-f]+|\d+)", op)
    if not m:
        return None
    off = int(m.group(1), 0)
    return off if off in COUNT_OFFSETS else None


def writes_count(i: Insn) -> bool:
    return bool(i.operands) and count_offset(i.operands[-1]) is not None and \
        i.base not in READ_ONLY and not i.mnemonic.startswith(("j", "call"))


def imm(op: str) -> int | None:
    m = re.fullmatch(r"\$(-?0x[0-9a-f]+|-?\d+)", op)
    return int(m.group(1), 0) if m else None


def clears_bit31_only(i: Insn) -> bool:
    """A read-modify-write of the count's memory that clears bit 31 of
    the 32-bit count and nothing else."""
    off = count_offset(i.operands[-1])
    if off is None or len(i.operands) != 2:
        return False
    v = imm(i.operands[0])
    if v is None:
        return False
    if i.base == "and":
        bits = i.size * 8
        kept = (v & ((1 << bits) - 1)) << (8 * (off - 8))
        full = ((1 << bits) - 1) << (8 * (off - 8))
        return full & 0xffffffff == full and (full & ~kept) == 1 << 31
    if i.base == "btr":
        return (off - 8) * 8 + v == 31
    return False


def clears_bit31_anywhere(i: Insn) -> bool:
    """and $0x7fffffff / btr $0x1f (and byte forms) to memory not on %gs."""
    if len(i.operands) != 2 or "(" not in i.operands[-1] or "%gs:" in i.operands[-1]:
        return False
    v = imm(i.operands[0])
    if v is None:
        return False
    if i.base == "and":
        return v & 0xffffffff in (0x7fffffff,) or (i.size == 1 and v & 0xff == 0x7f)
    return i.base == "btr" and v == 31


def direct_callees(insns: list[Insn], funcs) -> list[str]:
    out = []
    for i in insns:
        if i.mnemonic in ("call", "jmp") and i.target and "+" not in i.target \
                and i.target in funcs and not i.target.startswith("__trace"):
            out.append(i.target)
    return out


def check_fold(funcs: dict[str, list[Insn]]) -> list[str]:
    if "scheduler_ipi" not in funcs:
        return ["fold.elf has no function scheduler_ipi"]
    seen = ["scheduler_ipi"] + direct_callees(funcs["scheduler_ipi"], funcs)
    writes = [(f, i) for f in dict.fromkeys(seen) for i in funcs[f] if writes_count(i)]
    problems = []
    if not writes:
        problems.append("scheduler_ipi() (the RESCHEDULE IPI's work, the fold inlined) "
                        "never writes the count at %gs:0x8: the owner does not fold")
    elif len(writes) > 1:
        problems.append(f"scheduler_ipi() writes the count {len(writes)} times ("
                        + "; ".join(f"{f}: `{i.text}`" for f, i in writes)
                        + "): the fold is one instruction")
    for f, i in writes:
        if "lock" in i.prefixes:
            problems.append(f"{f}(): `{i.text}` is a locked fold: only this CPU writes its "
                            "count and an interrupt comes between two instructions, never "
                            "inside one, so the lock buys nothing and costs a locked "
                            "read-modify-write")
        elif i.base in ("mov", "xchg"):
            problems.append(f"{f}(): `{i.text}` stores a count read and changed before: a "
                            "load, a change and a store, where one read-modify-write "
                            "(andl $0x7fffffff,%gs:0x8) folds")
        elif not clears_bit31_only(i):
            problems.append(f"{f}(): `{i.text}` does not clear bit 31 of the count, and "
                            "only it")
    for f in ("resched_curr", "resched_curr_lazy", "__resched_curr"):
        for i in funcs.get(f, []):
            if clears_bit31_anywhere(i):
                problems.append(f"{f}(): `{i.text}` clears bit 31 of a count in memory "
                                "from the requesting CPU: only the owner writes its count "
                                "(the fold belongs in the RESCHEDULE IPI, on the target)")
    return problems


def reach(insns: list[Insn], start: int, site: int) -> bool:
    """From index start, straight on (no branch), do we get to site?"""
    for k in range(start, len(insns)):
        if k == site:
            return True
        m = insns[k].mnemonic
        if m.startswith("j") or m in ("call", "ret") or m.startswith("ret"):
            return False
    return False


def check_exit(funcs: dict[str, list[Insn]]) -> list[str]:
    insns = funcs.get("irq_dispatch")
    if insns is None:
        return ["fold.elf has no function irq_dispatch"]
    target = "irqentry_exit_cond_resched"
    sites = [k for k, i in enumerate(insns) if i.mnemonic in ("call", "jmp") and
             i.target == target]
    if not sites:
        return [f"irq_dispatch() (irqentry_exit() inlined) never calls {target}(): no "
                "interrupt's exit can preempt"]
    index = {i.addr: k for k, i in enumerate(insns)}
    problems = []
    for s in sites:
        guards = []
        for k, i in enumerate(insns):
            if not i.mnemonic.startswith("j") or i.mnemonic == "jmp" or k == 0:
                continue
            dest = index.get(int(i.operands[0], 16)) if i.operands else None
            taken = dest is not None and reach(insns, dest, s)
            if taken or reach(insns, k + 1, s):
                guards.append((k, taken))
        if not guards:
            problems.append(f"the branch to {target}() at {insns[s].addr:#x} has no "
                            "conditional jump before it: every interrupt's exit calls it")
            continue
        for k, taken in guards:
            j, flag = insns[k], insns[k - 1]
            what = f"`{flag.text}; {j.mnemonic}`"
            mem = [o for o in flag.operands if count_offset(o) == 0x8]
            if flag.base not in ("cmp", "test") or not mem:
                load = next((x.text for x in reversed(insns[:k - 1])
                             if x.operands and count_offset(x.operands[0]) == 0x8), None)
                problems.append(f"the test before {target}() is {what}"
                                + (f" after `{load}`" if load else "")
                                + ": not one compare of %gs:0x8 itself; the folded count "
                                "is tested by one instruction (cmpl $0x0,%gs:0x8)")
                continue
            v = imm(flag.operands[0]) if len(flag.operands) == 2 else None
            zero_test = (flag.base == "cmp" and v == 0) or \
                (flag.base == "test" and v is not None and v & 0xffffffff == 0xffffffff)
            if not zero_test:
                problems.append(f"the test before {target}() is {what}: it does not ask "
                                "whether the whole count is 0")
                continue
            if (j.mnemonic in ("je", "jz")) != taken or j.mnemonic not in ("je", "jz",
                                                                           "jne", "jnz"):
                problems.append(f"{what} reaches {target}() when the count is not 0")
    return problems


CHECKS = {"fold_is_one_unlocked_instruction": check_fold,
          "exit_test_is_one_compare": check_exit}


def run(case: str, elf: str, objdump: str = "objdump") -> list[str]:
    try:
        funcs = disassemble(elf, objdump)
    except (OSError, subprocess.CalledProcessError) as e:
        return [f"objdump -d {elf} failed: {e}"]
    return CHECKS[case](funcs)
