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
      the call when the count is 0; a guard that reads no part of the
      count (the saved IF) may come before or after it.

  flag_set_is_one_locked_instruction (L3)
      resched_curr() and resched_curr_lazy() (__resched_curr() inlined)
      set TIF_NEED_RESCHED (bit 0 of struct thread's flags, at
      THREAD_flags of build/fold_offsets.py) with a locked read-modify-
      write (lock or, lock bts, a lock cmpxchg loop), and every write to
      the flags there is one: any CPU writes them (a request, a signal,
      the target's schedule() clearing its flags).
  lazy_flag_set_is_one_locked_instruction (L4)
      the same for TIF_NEED_RESCHED_LAZY (bit 2), the flag that
      resched_curr_lazy() sets.
  signal_clear_is_one_locked_instruction (L7)
      exit_to_user_mode_loop() clears TIF_SIGPENDING (bit 4 of the
      thread's flags) with a locked read-modify-write (lock and, lock
      btr, a lock cmpxchg loop), and every write to the flags there is
      one: another CPU sets them meanwhile (a request, a kill).

Each check returns the lines to show: empty when it passes. A line
quotes the instructions it judged, from the student's own path through
the function (tools/lab/disasm.py's feeding(): what sets the flags a
jump tests, what a store stores, back to the path's start), never an
instruction of another path that happens to come before it in memory.
"""

from __future__ import annotations

import os
import re
import subprocess

from tools.lab.disasm import (READ_ONLY, Insn, disassemble, feeding, imm,  # noqa: F401
                              parse_objdump, path_before, quote, body, calls)

COUNT_OFFSETS = {0x8, 0x9, 0xa, 0xb}


def count_offset(op: str) -> int | None:
    m = re.fullmatch(r"%gs:(0x[0-9a-f]+|\d+)", op)
    if not m:
        return None
    off = int(m.group(1), 0)
    return off if off in COUNT_OFFSETS else None


def writes_count(i: Insn) -> bool:
    return bool(i.operands) and count_offset(i.operands[-1]) is not None and \
        i.base not in READ_ONLY and not i.mnemonic.startswith(("j", "call"))


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
    seen = list(dict.fromkeys(["scheduler_ipi"] + direct_callees(funcs["scheduler_ipi"], funcs)))
    writes = [(f, k) for f in seen for k, i in enumerate(funcs[f]) if writes_count(i)]
    problems = []
    if not writes:
        problems.append("scheduler_ipi() (the RESCHEDULE IPI's work, the fold inlined) never "
                        "writes the count at %gs:0x8: the owner does not fold; its "
                        "instructions are " + body(funcs["scheduler_ipi"]))
    elif len(writes) > 1:
        problems.append(f"scheduler_ipi() writes the count {len(writes)} times ("
                        + "; ".join(f"{f}: `{funcs[f][k].text}`" for f, k in writes)
                        + "): the fold is one instruction")
    for f, k in writes:
        i = funcs[f][k]
        if "lock" in i.prefixes:
            problems.append(f"{f}(): `{i.text}` is a locked fold: only this CPU writes its "
                            "count and an interrupt comes between two instructions, never "
                            "inside one, so the lock buys nothing and costs a locked "
                            "read-modify-write")
        elif i.base in ("mov", "xchg"):
            chain, _ = feeding(funcs[f], k)
            problems.append(f"{f}(): {quote(funcs[f], chain + [k])} stores a count read and "
                            "changed before: a load, a change and a store, where one "
                            "read-modify-write (andl $0x7fffffff,%gs:0x8) folds")
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
    """From index start, falling through conditional jumps (each is a
    guard of its own) and following unconditional ones, do we get to site?"""
    index, k, seen = {i.addr: n for n, i in enumerate(insns)}, start, set()
    while k < len(insns) and k not in seen:
        seen.add(k)
        m = insns[k].mnemonic
        if k == site:
            return True
        if m == "jmp" and re.fullmatch(r"[0-9a-f]+", "".join(insns[k].operands[:1])):
            k = index.get(int(insns[k].operands[0], 16), len(insns))
            continue
        if m in ("call", "jmp") or m.startswith("ret"):
            return False
        k += 1
    return False


def is_zero_test(i: Insn) -> bool:
    """One compare of the count's own memory, %gs:0x8, with 0."""
    if i.base not in ("cmp", "test") or len(i.operands) != 2 or \
            count_offset(i.operands[1]) != 0x8:
        return False
    v = imm(i.operands[0])
    return (i.base == "cmp" and v == 0) or \
        (i.base == "test" and v is not None and v & 0xffffffff == 0xffffffff)


def exit_test_problem(insns: list[Insn], k: int, taken: bool, target: str) -> str | None:
    """What is wrong with the conditional jump insns[k] that guards the
    branch to target, quoting the instructions on its path that set its
    flags (None: it is the one compare)."""
    j = insns[k]
    chain, before = feeding(insns, k, flags=True, regs=set())
    what = quote(insns, chain, j.mnemonic)
    if before:
        what += f" (on values set before {insns[chain[0] if chain else k].addr:#x}, elsewhere)"
    flag = chain[-1] if chain else None
    if len(chain) == 1 and insns[flag].base in ("cmp", "test") and \
            count_offset(insns[flag].operands[-1]) == 0x8 and not is_zero_test(insns[flag]):
        return f"the test before {target}() is {what}: it does not ask whether the whole count is 0"
    if flag is None or not is_zero_test(insns[flag]) or len(chain) > 1:
        loads = [insns[c] for c in chain if insns[c].base == "mov" and
                 any(count_offset(o) == 0x8 for o in insns[c].operands[:1])]
        stored = [insns[c] for c in chain if insns[c].mnemonic.startswith("set")]
        why = f"it loads the count first (`{loads[0].text}`): " if loads else \
            f"it keeps the compare's answer (`{stored[0].text}`) and tests it again, " \
            f"{len(chain)} instructions: " if stored else ""
        return (f"the test before {target}() is {what}: {why}not one compare of %gs:0x8 "
                "itself; the folded count is tested by one instruction (cmpl $0x0,%gs:0x8: "
                "asm with a flag output, \"=@cce\", lets the compiler branch on its ZF)")
    if (j.mnemonic in ("je", "jz")) != taken or j.mnemonic not in ("je", "jz", "jne", "jnz"):
        return f"{what} reaches {target}() when the count is not 0"
    return None


def check_exit(funcs: dict[str, list[Insn]]) -> list[str]:
    insns = funcs.get("irq_dispatch")
    if insns is None:
        return ["fold.elf has no function irq_dispatch"]
    target = "irqentry_exit_cond_resched"
    sites = [k for k, i in enumerate(insns) if i.mnemonic in ("call", "jmp") and
             i.target == target]
    if not sites:
        return [f"irq_dispatch() (irqentry_exit() inlined) never calls {target}(): no "
                "interrupt's exit can preempt; it calls " + calls(insns)]
    index = {i.addr: k for k, i in enumerate(insns)}
    problems = []
    for s in sites:
        guards = []
        for k, i in enumerate(insns):
            if not i.is_cond_jump:
                continue
            dest = index.get(int(i.operands[0], 16)) if i.operands else None
            taken = dest is not None and reach(insns, dest, s)
            if taken != reach(insns, k + 1, s):
                guards.append((k, taken))
        if not guards:
            problems.append(f"the branch to {target}() at {insns[s].addr:#x} has no "
                            f"conditional jump before it ({quote(insns, path_before(insns, s))}"
                            f" then `{insns[s].text}`): every interrupt's exit calls it")
            continue
        # A guard whose flags come, all on its own path, from no operand
        # of the count tests something else (the saved IF): any order.
        counted = [(k, t) for k, t in guards if (lambda c, elsewhere: elsewhere or any(
            count_offset(o) is not None for j in c for o in insns[j].operands))(
            *feeding(insns, k, flags=True, regs=set()))]
        problems += [bad for k, t in counted if (bad := exit_test_problem(insns, k, t, target))]
        if not counted:
            problems.append(f"the tests before {target}() are " + ", ".join(quote(
                insns, feeding(insns, k, flags=True, regs=set())[0], insns[k].mnemonic)
                for k, _ in guards) + ": none of them reads the count at %gs:0x8; the exit "
                "preempts only when one compare of %gs:0x8 with 0 says the count is 0")
    return problems


REQUESTERS = ("resched_curr", "resched_curr_lazy", "__resched_curr")
TIF_NEED_RESCHED = 1 << 0      # kernel/preempt.h
TIF_NEED_RESCHED_LAZY = 1 << 2
STACK = {"%rsp", "%rbp", "%rip"}


def flags_memory(op: str, offset: int) -> bool:
    """A thread's flags: offset(%reg), a base register alone, no %gs, no stack."""
    m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\((%[a-z0-9]+)\)", op)
    return bool(m) and m.group(2) not in STACK and int(m.group(1) or "0", 0) == offset


def sets_flag(insns: list[Insn], k: int, flag: int) -> bool:
    """Does the locked insns[k] set the bit `flag`? An or/bts with it as
    immediate, or a cmpxchg whose new value an or with it made."""
    i = insns[k]
    v = imm(i.operands[0]) if len(i.operands) == 2 else None
    if i.base == "or" and v is not None:
        return bool(v & flag)
    if i.base == "bts" and v is not None:
        return flag == 1 << v
    if i.base == "cmpxchg":
        chain, _ = feeding(insns, k)
        return any(insns[c].base == "or" and (imm(insns[c].operands[0]) or 0) & flag
                   for c in chain)
    return False


def check_request(funcs: dict[str, list[Insn]], flags_offset: int = 0,
                  flag: int = TIF_NEED_RESCHED) -> list[str]:
    name, caller = ("TIF_NEED_RESCHED", "resched_curr") if flag == TIF_NEED_RESCHED else \
        ("TIF_NEED_RESCHED_LAZY", "resched_curr_lazy")
    if caller not in funcs:
        return [f"fold.elf has no function {caller}"]
    problems, locked_sets = [], 0
    for f in (f for f in REQUESTERS if f in funcs):
        insns = funcs[f]
        for k, i in enumerate(insns):
            if len(i.operands) != 2 or not flags_memory(i.operands[-1], flags_offset) or \
                    i.base in READ_ONLY or i.is_jump:
                continue
            if i.base == "mov":
                chain, _ = feeding(insns, k)
                problems.append(f"{f}(): {quote(insns, chain + [k])}: the thread's flags "
                                "loaded, changed and stored back: a flag another CPU writes "
                                "between the load and the store (its own request, a signal, "
                                "the target's schedule() clearing them) is lost; one locked "
                                f"read-modify-write sets it (lock orq ${flag:#x}: "
                                "__atomic_fetch_or())")
            elif "lock" not in i.prefixes and i.base != "xchg":
                problems.append(f"{f}(): `{i.text}` writes the thread's flags without a lock "
                                "prefix: another CPU's write between its read and its write "
                                "is lost (lock orq: __atomic_fetch_or())")
            elif sets_flag(insns, k, flag):
                locked_sets += 1
    if not locked_sets and not problems:
        problems.append(f"{caller}() never sets {name} in the thread's flags with a locked "
                        "instruction; it calls " + calls(funcs[caller]))
    return problems


TIF_SIGPENDING = 1 << 4        # kernel/preempt.h
LOOP = "exit_to_user_mode_loop"


def clears_sigpending(insns: list[Insn], k: int) -> bool:
    """Does the locked insns[k] clear bit TIF_SIGPENDING? An and without
    it in its immediate, a btr of it, or a cmpxchg whose new value an and
    without it made."""
    i = insns[k]
    v = imm(i.operands[0]) if len(i.operands) == 2 else None
    if i.base == "and" and v is not None:
        return not v & TIF_SIGPENDING
    if i.base == "btr" and v is not None:
        return TIF_SIGPENDING == 1 << v
    if i.base == "cmpxchg":
        chain, _ = feeding(insns, k)
        return any(insns[c].base == "and" and imm(insns[c].operands[0]) is not None and
                   not imm(insns[c].operands[0]) & TIF_SIGPENDING for c in chain)
    return False


def check_signal_clear(funcs: dict[str, list[Insn]], flags_offset: int = 0) -> list[str]:
    insns = funcs.get(LOOP)
    if insns is None:
        return [f"fold.elf has no function {LOOP}"]
    problems, locked_clears = [], 0
    for k, i in enumerate(insns):
        if len(i.operands) != 2 or not flags_memory(i.operands[-1], flags_offset) or \
                i.base in READ_ONLY or i.is_jump:
            continue
        if i.base == "mov":
            chain, _ = feeding(insns, k)
            problems.append(f"{LOOP}(): {quote(insns, chain + [k])}: the thread's flags "
                            "loaded, changed and stored back: a request or a kill another "
                            "CPU sets between the load and the store is lost; one locked "
                            "read-modify-write clears TIF_SIGPENDING (lock andq $~0x10: "
                            "__atomic_fetch_and())")
        elif "lock" not in i.prefixes and i.base != "xchg":
            problems.append(f"{LOOP}(): `{i.text}` writes the thread's flags without a lock "
                            "prefix: another CPU's write between its read and its write is "
                            "lost (lock andq: __atomic_fetch_and())")
        elif clears_sigpending(insns, k):
            locked_clears += 1
    if not locked_clears and not problems:
        writes = [i.text for i in insns if len(i.operands) == 2 and
                  flags_memory(i.operands[-1], flags_offset) and i.base not in READ_ONLY and
                  not i.is_jump]
        problems.append(f"{LOOP}() never clears TIF_SIGPENDING in the thread's flags with a "
                        "locked instruction; its writes of the flags: "
                        + ("; ".join(f"`{w}`" for w in writes) if writes else "none")
                        + "; it calls " + calls(insns))
    return problems


def thread_flags_offset(elf: str) -> int:
    """offsetof(struct thread, flags), from build/fold_offsets.py (0)."""
    try:
        with open(os.path.join(os.path.dirname(elf), "fold_offsets.py")) as f:
            m = re.search(r"^THREAD_flags = (\d+)$", f.read(), re.M)
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


# Each case's check, called with the functions of fold.elf and its path.
# make lab-mutants hashes what a case's entry here reaches in this file
# (tools/lab/mutation.py): an edit elsewhere leaves other labs' records.
CHECKS = {
    "fold_is_one_unlocked_instruction": lambda funcs, elf: check_fold(funcs),
    "exit_test_is_one_compare": lambda funcs, elf: check_exit(funcs),
    "flag_set_is_one_locked_instruction":
        lambda funcs, elf: check_request(funcs, thread_flags_offset(elf)),
    "lazy_flag_set_is_one_locked_instruction":
        lambda funcs, elf: check_request(funcs, thread_flags_offset(elf),
                                         TIF_NEED_RESCHED_LAZY),
    "signal_clear_is_one_locked_instruction":
        lambda funcs, elf: check_signal_clear(funcs, thread_flags_offset(elf)),
}


def run(case: str, elf: str, objdump: str = "objdump") -> list[str]:
    try:
        funcs = disassemble(elf, objdump)
    except (OSError, subprocess.CalledProcessError) as e:
        return [f"objdump -d {elf} failed: {e}"]
    return CHECKS[case](funcs, elf)
