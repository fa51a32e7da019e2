# The GDB side of tests/gdb/run-replay-test: sourced by the generated command
# file after the connection to a QEMU that replays a recording of
# test=preempt (one CPU), inside `gdb -batch`. It stops where
# enable_calls_schedule_once()'s preempt_enable() calls preempt_schedule(),
# then walks back, with a watchpoint on the count, to the instruction that
# cleared bit 31, and forward again. Each stop prints the helpers' output and
# RAW values (plain GDB expressions, QEMU's instruction count) between "@@@"
# marker lines; run-replay-test judges the transcript, not this file.

import re

import gdb

COUNT = "percpu_area[0].preempt_count"


def mark(text):
    print("@@@ " + text, flush=True)


def cmd(command):
    mark("CMD " + command)
    if command.startswith("monitor "):
        # QEMU's answer, printed here: GDB would print it out of order.
        print(gdb.execute(command, to_string=True), end="", flush=True)
    else:
        gdb.execute(command)


def raw(name, value):
    if isinstance(value, str):
        value = int(gdb.parse_and_eval(value)) & 0xFFFFFFFFFFFFFFFF
    mark(f"RAW {name} = {value:#x}")
    return value


def icount():
    """QEMU's replay position: `monitor info replay` says "Replaying
    execution '<file>': instruction count = N"."""
    text = gdb.execute("monitor info replay", to_string=True)
    m = re.search(r"instruction count = (\d+)", text)
    if not m:
        raise gdb.GdbError(f"monitor info replay: no instruction count in {text!r}")
    return int(m.group(1))


def here(prefix):
    """The stop's pc, the count, the instruction count, the instruction
    and the function: what the checker compares."""
    raw(prefix + "pc", "$pc")
    raw(prefix + "count", COUNT)
    raw(prefix + "icount", icount())
    cmd("x/i $pc")
    cmd("info symbol $pc")


def run():
    gdb.execute("set disassembly-flavor att")
    # Near the spot, a snapshot: reverse execution replays from the nearest
    # one before the target (start_debugging, at the reset vector,
    # otherwise: the whole boot again for every reverse step).
    mark("STOP test")
    mark("NOTE count offset %#x" % int(gdb.parse_and_eval(
        "(long)&((struct percpu *)0)->preempt_count")))
    cmd("tbreak enable_calls_schedule_once")
    cmd("continue")
    raw("icount", icount())
    cmd("monitor savevm near")
    cmd("monitor info snapshots")

    mark("STOP preempt_schedule")
    cmd("break preempt_schedule")
    cmd("continue")
    here("")
    cmd("fold-cpus")
    cmd("bt")
    cmd("delete")

    # Back to the last write to the count: QEMU stops just after the
    # writing instruction; one reverse-stepi lands on it, before it ran.
    mark("STOP back1")
    cmd(f"watch -l {COUNT}")
    cmd("reverse-continue")
    here("after_")
    cmd("reverse-stepi")
    here("")

    mark("STOP back2")
    cmd("reverse-continue")
    here("after_")
    cmd("reverse-stepi")
    here("")
    cmd("bt")
    cmd("fold-cpus")

    # Forward one instruction: the andl clears bit 31. Without the
    # watchpoint: GDB never saw the reverse stops as its hits, so it would
    # report the step with the value it read when it set the watchpoint as
    # the old one, and QEMU would then answer the next continue with a stop
    # where it is.
    mark("STOP forward")
    cmd("delete")
    cmd("stepi")
    here("")
    cmd("fold-cpus")

    # And forward to preempt_schedule again: the same instruction count.
    mark("STOP again")
    cmd("break preempt_schedule")
    cmd("continue")
    here("")
    cmd("delete")
    mark("END")
    # To the end of the recording: QEMU exits with the kernel's status, and
    # the replay's console is complete, for the checker to compare.
    try:
        gdb.execute("continue")
    except gdb.error as e:
        mark(f"NOTE continue to the end: {e}")


try:
    run()
except gdb.error as e:
    mark(f"ERROR {e}")
