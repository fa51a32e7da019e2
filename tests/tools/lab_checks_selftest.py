"""The labs' host checks (tools/lab/checks.py, tools/lab/disasm.py) on
canned objdump output, no build: each check passes the right
instructions and fails each wrong one with the message that names it,
quoting the instructions on the student's own path. Run by
tests/tools/lab_selftest.py (make lab-check, make test).
"""

from __future__ import annotations

from tests.tools import canned
from tools.lab import checks

FOLD_OK = canned("fold.objdump")

EXIT = canned("exit.objdump")


TWO_PATHS = canned("two-paths.objdump")


def quoted(exit_path: str) -> list[str]:
    return checks.check_exit(checks.parse_objdump(TWO_PATHS.format(exit=exit_path)))


def test_quotes(tmp) -> list[str]:
    """Each message quotes the instructions on the student's own path."""
    problems = []
    got = quoted("ffffffff801081d9:\tcmpl   $0x0,%gs:0x8\nffffffff801081e2:\tsete   %al\n"
                 "ffffffff801081e5:\ttest   %al,%al\n"
                 "ffffffff801081e7:\tje     ffffffff801081c3 <irq_dispatch+0x63>")
    if len(got) != 1 or "`cmpl $0x0,%gs:0x8; sete %al; test %al,%al; je`" not in got[0] or \
            "keeps the compare's answer (`sete %al`)" not in got[0] or "%eax" in got[0]:
        problems.append(f"cmpl; sete; test; je: {got}")
    got = quoted("ffffffff801081d9:\tmov    %gs:0x8,%edx\nffffffff801081e2:\tmov    $0x1,%ecx\n"
                 "ffffffff801081e5:\ttest   %edx,%edx\n"
                 "ffffffff801081e7:\tjne    ffffffff801081c3 <irq_dispatch+0x63>")
    if len(got) != 1 or "`mov %gs:0x8,%edx; test %edx,%edx; jne`" not in got[0] or \
            "loads the count first (`mov %gs:0x8,%edx`)" not in got[0]:
        problems.append(f"mov; test; jne: {got}")
    got = quoted("ffffffff801081d9:\tnop")
    if len(got) != 1 or "no conditional jump" in got[0] or "`testb $0x2,0x99(%rbx); je`" not in \
            got[0]:
        problems.append(f"the IF test alone: {got}")
    fold = ("mov    %gs:0x8,%eax\nffffffff80112018:\tand    $0x7fffffff,%eax\n"
            "ffffffff8011201a:\tmov    %eax,%gs:0x8")
    got = fold_problems(fold)
    if not any("`mov %gs:0x8,%eax; and $0x7fffffff,%eax; mov %eax,%gs:0x8` stores" in p
               for p in got):
        problems.append(f"a load, an and, a store: {got}")
    return problems


REQUEST = canned("request.objdump")
CMPXCHG = ("ffffffff80113c7d:\tmov    (%rdx),%rax\nffffffff80113c80:\tmov    %rax,%rsi\n"
           "ffffffff80113c86:\tor     $0x1,%rsi\nffffffff80113c8a:\tlock cmpxchg %rsi,(%rdx)\n"
           "ffffffff80113c8f:\tjne    ffffffff80113c80 <resched_curr+0x20>")
PLAIN = ("ffffffff80113c7d:\tmov    (%rdx),%rax\nffffffff80113c80:\tmov    %rax,%rcx\n"
         "ffffffff80113c86:\tor     $0x1,%rcx\nffffffff80113c8a:\tmov    %rcx,(%rdx)")


def request_problems(remote: str, local: str = "lock orq $0x1,(%rdx)") -> list[str]:
    return checks.check_request(checks.parse_objdump(REQUEST.format(remote=remote, local=local)))


def test_request(tmp) -> list[str]:
    """L3's flag_set_is_one_locked_instruction on canned disassembly."""
    problems = []
    for remote, local in ((CMPXCHG, "lock orq $0x1,(%rdx)"), ("nop", "lock btsq $0x0,(%rdx)"),
                          (CMPXCHG, "lock orq $0x1,0x0(%rdx)")):
        if request_problems(remote, local):
            problems.append(f"a locked request fails: {request_problems(remote, local)}")
    for remote, local, words in (
            (PLAIN, "lock orq $0x1,(%rdx)",
             "`mov (%rdx),%rax; mov %rax,%rcx; or $0x1,%rcx; mov %rcx,(%rdx)`: the thread's "
             "flags loaded, changed and stored back"),
            (CMPXCHG, "orq $0x1,(%rdx)", "`orq $0x1,(%rdx)` writes the thread's flags without a lock"),
            ("nop", "call ffffffff80100000 <lab_resched_fallback>",
             "never sets TIF_NEED_RESCHED in the thread's flags with a locked instruction; it "
             "calls `call smp_send_reschedule; call lab_resched_fallback`"),
            ("nop", "lock orq $0x4,(%rdx)", "never sets TIF_NEED_RESCHED")):
        got = request_problems(remote, local)
        if not any(words in p for p in got):
            problems.append(f"{local}: {got}, expected {words!r}")
    if checks.check_request(checks.parse_objdump(REQUEST.format(remote=CMPXCHG, local="lock orq $0x1,0x8(%rdx)")), 8):
        problems.append("the flags at another offset (fold_offsets.py) are not found")
    return problems


def fold_problems(fold: str, sender: str = "andl   $0x7fffffff,%gs:0x8") -> list[str]:
    return checks.check_fold(checks.parse_objdump(FOLD_OK.format(fold=fold, sender=sender)))


def test_checks(tmp) -> list[str]:
    problems = []
    for fold in ("andl   $0x7fffffff,%gs:0x8", "btrl   $0x1f,%gs:0x8", "andb   $0x7f,%gs:0xb"):
        if fold_problems(fold):
            problems.append(f"a right fold fails: {fold}: {fold_problems(fold)}")
    for fold, words in (("lock andl $0x7fffffff,%gs:0x8", "locked fold"),
                        ("mov    %eax,%gs:0x8", "a load, a change and a store"),
                        ("orl    $0x80000000,%gs:0x8", "does not clear bit 31"),
                        ("andl   $0x7ffffffe,%gs:0x8", "does not clear bit 31"),
                        ("nop", "never writes the count")):
        got = fold_problems(fold)
        if not any(words in p for p in got):
            problems.append(f"{fold}: {got}, expected {words!r}")
    got = fold_problems("andl   $0x7fffffff,%gs:0x8", "lock andl $0x7fffffff,0x8(%rax)")
    if not any("requesting CPU" in p for p in got):
        problems.append(f"a fold from the sender passes: {got}")
    ok = EXIT.format(test="cmpl   $0x0,%gs:0x8", jcc="jne")
    if checks.check_exit(checks.parse_objdump(ok)):
        problems.append(f"the one compare fails: {checks.check_exit(checks.parse_objdump(ok))}")
    for test, jcc, words in (("test   %eax,%eax", "jne", "not one compare"),
                             ("cmpl   $0x80000000,%gs:0x8", "jne", "whether the whole count"),
                             ("cmpl   $0x0,%gs:0x8", "je", "when the count is not 0")):
        got = checks.check_exit(checks.parse_objdump(EXIT.format(test=test, jcc=jcc)))
        if not any(words in p for p in got):
            problems.append(f"{test}; {jcc}: {got}, expected {words!r}")
    none = EXIT.replace("irqentry_exit_cond_resched", "something_else").format(
        test="cmpl   $0x0,%gs:0x8", jcc="jne")
    if not any("never calls" in p for p in checks.check_exit(checks.parse_objdump(none))):
        problems.append("an exit that never preempts passes")
    return problems


LAZY = canned("lazy.objdump")


def test_lazy_request(tmp) -> list[str]:
    """L4's lazy_flag_set_is_one_locked_instruction on canned disassembly:
    the same check as L3's, for TIF_NEED_RESCHED_LAZY (bit 2)."""
    def got(lazy: str) -> list[str]:
        return checks.check_request(checks.parse_objdump(LAZY.format(lazy=lazy)), 0,
                                    checks.TIF_NEED_RESCHED_LAZY)
    problems = []
    for lazy in ("lock orq $0x4,(%rdx)", "lock btsq $0x2,(%rdx)"):
        if got(lazy):
            problems.append(f"{lazy} fails: {got(lazy)}")
    for lazy, words in (
            ("mov    (%rdx),%rax\nffffffff80113d14:\tor     $0x4,%rax\n"
             "ffffffff80113d15:\tmov    %rax,(%rdx)",
             "`mov (%rdx),%rax; or $0x4,%rax; mov %rax,(%rdx)`: the thread's flags loaded, "
             "changed and stored back"),
            ("orq $0x4,(%rdx)", "`orq $0x4,(%rdx)` writes the thread's flags without a lock"),
            ("lock orq $0x1,(%rdx)", "resched_curr_lazy() never sets TIF_NEED_RESCHED_LAZY")):
        if not any(words in p for p in got(lazy)):
            problems.append(f"{lazy}: {got(lazy)}, expected {words!r}")
    return problems


LOOP = canned("loop.objdump")
PLAIN_CLEAR = ("ffffffff8010f1f0:\tmov    (%rbx),%rdx\nffffffff8010f1f3:\tand    $0xffffffffffffffef,%rdx\n"
               "ffffffff8010f1f7:\tmov    %rdx,(%rbx)")


def clear_problems(clear: str, offset: int = 0) -> list[str]:
    return checks.check_signal_clear(checks.parse_objdump(LOOP.format(clear=clear)), offset)


def test_signal_clear(tmp) -> list[str]:
    """L7's signal_clear_is_one_locked_instruction on canned disassembly."""
    problems = []
    for clear in ("ffffffff8010f1f0:\tlock andq $0xffffffffffffffef,(%rbx)",
                  "ffffffff8010f1f0:\tlock btrq $0x4,(%rbx)"):
        if clear_problems(clear):
            problems.append(f"a locked clear fails: {clear_problems(clear)}")
    if clear_problems("ffffffff8010f1f0:\tlock andq $0xffffffffffffffef,0x8(%rbx)", 8):
        problems.append("the flags at another offset (fold_offsets.py) are not found")
    for clear, words in (
            (PLAIN_CLEAR, "`mov (%rbx),%rdx; and $0xffffffffffffffef,%rdx; mov %rdx,(%rbx)`: the "
             "thread's flags loaded, changed and stored back"),
            ("ffffffff8010f1f0:\tandq   $0xffffffffffffffef,(%rbx)",
             "`andq $0xffffffffffffffef,(%rbx)` writes the thread's flags without a lock"),
            ("ffffffff8010f1f0:\tlock andq $0xfffffffffffffffe,(%rbx)",
             "never clears TIF_SIGPENDING in the thread's flags with a locked instruction; its "
             "writes of the flags: `lock andq $0xfffffffffffffffe,(%rbx)`"),
            ("ffffffff8010f1f0:\tcall   ffffffff80100000 <lab_exit_to_user_fallback>",
             "its writes of the flags: none; it calls `call do_exit; call "
             "lab_exit_to_user_fallback; call schedule`")):
        got = clear_problems(clear)
        if not any(words in p for p in got):
            problems.append(f"{clear}: {got}, expected {words!r}")
    return problems


TESTS = [("lab-checks", test_checks), ("lab-quotes", test_quotes), ("lab-request", test_request),
         ("lab-lazy-request", test_lazy_request), ("lab-signal-clear", test_signal_clear)]
