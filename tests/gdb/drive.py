# The GDB side of tests/gdb/run-gdb-test: sourced by the generated command
# file after the connection, inside `gdb -batch`. It moves the guest from stop
# to stop and prints, at each, the helpers' output as the user would see it,
# framed by "@@@" marker lines, plus RAW values read with plain GDB
# expressions (no helper involved) for the checker to compare against.
# Everything is judged by run-gdb-test on the transcript, not here.

import re

import gdb


def mark(text):
    print("@@@ " + text, flush=True)


def cmd(command):
    mark("CMD " + command)
    gdb.execute(command)


def raw(name, value):
    if isinstance(value, str):
        value = int(gdb.parse_and_eval(value)) & 0xFFFFFFFFFFFFFFFF
    mark(f"RAW {name} = {value:#x}")
    return value


def selected_cpu_raw():
    # The CPU of the stopped vCPU, from its GS base and the struct percpu
    # there: plain GDB, independent of fold.py's matching.
    return int(gdb.parse_and_eval("((struct percpu *)$gs_base)->cpu"))


def interrupted_at_function_entry():
    """True when the interrupt frame's saved RIP is the first byte of a
    function (an IPI that struck just after a `call`). GDB names the frame
    above common_entry by pc - 1, like a caller's, so bt would show "??"
    for it and lose the frames beyond: a GDB limit (fold's unwinder is a
    normal frame, not a signal frame), not what this test is about."""
    frame = gdb.newest_frame()
    while frame is not None and frame.name() != "common_entry":
        frame = frame.older()
    if frame is None:
        return False
    regs = int(frame.read_register("rsp")) & 0xFFFFFFFFFFFFFFFF
    rip = int(gdb.parse_and_eval(f"((struct pt_regs *){regs:#x})->rip")) & 0xFFFFFFFFFFFFFFFF
    where = gdb.execute(f"info symbol {rip:#x}", to_string=True)
    return " in section " in where and " + " not in where


FOLD_RE = re.compile(r"^\s*(?:=>\s*)?(0x[0-9a-f]+)\s*<[^>]*>:\s*(\S+)\s*(.*)$")


def find_fold(pc):
    """The address of the fold's `andl $0x7fffffff, %gs:<preempt_count>`
    (preempt_fold_need_resched(), arch/x86_64/preempt/bit31.h) at or after
    pc in the function around pc, and of the instruction after it. The
    offset comes from struct percpu itself, not a copy of the number."""
    off = int(gdb.parse_and_eval("(long)&((struct percpu *)0)->preempt_count"))
    flavor = gdb.parameter("disassembly-flavor")
    gdb.execute("set disassembly-flavor att")
    try:
        lines = gdb.execute(f"disassemble {pc:#x}", to_string=True).splitlines()
    finally:
        gdb.execute(f"set disassembly-flavor {flavor}")
    insns = []
    for line in lines:
        m = FOLD_RE.match(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    gs = re.compile(r"%gs:" + (f"(?:{off:#x}|{off})" if off else "(?:0x0|0)") + r"\b")
    for i, (addr, op, args) in enumerate(insns):
        if addr >= pc and op.startswith("and") and "$0x7fffffff" in args \
                and gs.search(args) and i + 1 < len(insns):
            return addr, insns[i + 1][0]
    raise gdb.GdbError(f"no fold (andl $0x7fffffff, %gs:{off:#x}) after {pc:#x} "
                       "in the function's disassembly")


def run():
    mark("STOP kmain")
    cmd("fold-hbreak kmain")
    cmd("continue")
    cmd("info threads")
    cmd("fold-cpus")
    cmd("fold-ps")
    cmd("bt")

    mark("STOP ap_main")
    cmd("delete")
    cmd("fold-hbreak ap_main")
    cmd("continue")
    ap_thread = raw("thread", gdb.selected_thread().num)
    raw("cpu_arg", "cpu")
    raw("count0", "percpu_area[0].preempt_count")
    cmd("fold-cpus")

    # Past percpu_init_cpu() and sched_init_ap(): the AP has its area.
    mark("STOP ap_percpu")
    cmd("delete")
    cmd(f"tbreak vm_load thread {ap_thread}")
    cmd("continue")
    raw("thread", gdb.selected_thread().num)
    raw("count0", "percpu_area[0].preempt_count")
    raw("count1", "percpu_area[1].preempt_count")
    raw("apic1", "percpu_area[1].apic_id")
    cmd("fold-cpus")
    cmd("fold-percpu apic_id 1")
    cmd('print $fold_percpu("cpu", 1)')
    cmd("fold-ps")

    # A remote reschedule: stop in the RESCHEDULE IPI's handler on the
    # target CPU while TIF_NEED_RESCHED is set and not yet folded. (Should
    # the target have consumed the flag before the IPI arrived, e.g. woken
    # by its tick, the handler has nothing to fold: skip that hit. Skip
    # too a hit that struck a function's first byte: see
    # interrupted_at_function_entry.)
    mark("STOP scheduler_ipi")
    cmd("delete")
    cmd("break scheduler_ipi")
    for _ in range(8):
        cmd("continue")
        if not int(gdb.parse_and_eval("((struct percpu *)$gs_base)->current->flags")) & 1:
            mark("NOTE scheduler_ipi with TIF_NEED_RESCHED already clear: next hit")
        elif interrupted_at_function_entry():
            mark("NOTE scheduler_ipi interrupted a function's first byte: next hit")
        else:
            break
    else:
        mark("ERROR no scheduler_ipi hit with TIF_NEED_RESCHED set")
    cmd("delete")
    thread = raw("thread", gdb.selected_thread().num)
    cpu = raw("cpu", selected_cpu_raw())
    raw("count", f"percpu_area[{cpu}].preempt_count")
    raw("tif", f"percpu_area[{cpu}].current->flags & 1")
    raw("current_id", f"percpu_area[{cpu}].current->id")
    raw("folds", f"percpu_area[{cpu}].stats.folds")
    cmd("bt")
    cmd("fold-cpus")
    cmd("fold-percpu stats.resched_ipi_sent all")
    cmd(f'print $fold_percpu("stats.folds", {cpu})')
    cmd(f"fold-rq {cpu}")
    cmd("fold-ps")
    cmd("fold-dmesg")

    # Just after the fold: a thread-specific breakpoint on the instruction
    # that follows the fold's andl (found in the disassembly, wherever the
    # compiler put it), not `finish`. Where `finish` stops depends on GDB's
    # idea of the caller's frame: when scheduler_ipi was inlined into
    # reschedule_interrupt, `finish` once stopped on a line of the caller
    # before the andl had run: the stop must come after it.
    mark("STOP fold")
    fold_at, after = find_fold(int(gdb.parse_and_eval("$pc")))
    raw("fold_insn", fold_at)
    raw("fold_next", after)
    gdb.Breakpoint(f"*{after:#x}", internal=False, temporary=True).thread = thread
    mark(f"CMD tbreak *{after:#x} thread {thread}")
    cmd("continue")
    raw("pc", "$pc")
    raw("cpu", selected_cpu_raw())
    raw("count", f"percpu_area[{cpu}].preempt_count")
    cmd("fold-cpus")

    # The end of the handler: the fold is counted, hardirq is still 1.
    # irq_exit() is inlined into handle_irq; should the stop above ever be
    # on its first instruction, a breakpoint there would not be hit by
    # `continue` (GDB steps over the one at the pc), and the next stop
    # would be another interrupt's. So continue only when not there yet.
    mark("STOP irq_exit")
    bp = gdb.Breakpoint("irq_exit", temporary=True)
    mark("CMD tbreak irq_exit thread %d" % thread)
    pc = int(gdb.parse_and_eval("$pc"))
    if any(loc.address == pc for loc in bp.locations):
        mark("NOTE already on irq_exit's first instruction")
        bp.delete()
    else:
        bp.thread = thread
        cmd("continue")
    raw("cpu", selected_cpu_raw())
    raw("count", f"percpu_area[{cpu}].preempt_count")
    raw("folds", f"percpu_area[{cpu}].stats.folds")
    cmd("fold-cpus")
    cmd(f'print $fold_percpu("stats.folds", {cpu})')

    # Priority inheritance along a chain: the rt suite's pi_chain calls
    # rt_mutex_check_pi() once three owners are boosted to its FIFO 30
    # waiter's priority, every one of them asleep on the next lock.
    mark("STOP pi")
    cmd("delete")
    cmd("tbreak rt_mutex_check_pi")
    cmd("continue")
    cmd("fold-ps")
    mark("END")


try:
    run()
except Exception as e:  # gdb.error, gdb.GdbError, a bug here: all reported
    mark(f"ERROR {type(e).__name__}: {e}")
try:
    gdb.execute("kill")
except gdb.error:
    pass
