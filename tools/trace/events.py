"""The trace's events as Linux's tracing describes them: one format file
per event (the text of /sys/kernel/tracing/events/SYSTEM/NAME/format),
and the binary record each fold record becomes.

The layouts and print formats of sched_switch, sched_wakeup,
sched_pi_setprio, irq_handler_entry/exit, raw_syscalls sys_enter/exit and
lock contention_begin/end are Linux's (include/trace/events/sched.h, irq.h,
syscalls.h, lock.h; Linux 6.x
on x86-64),
so trace-cmd's and KernelShark's own handling of them (the sched_switch
plugin, the task plots) applies. The fold system's events are fold's.

kernel/trace/trace_events.c packs each event into a record's four arguments;
the to_payload functions below unpack them, so the two change together.
"""

from __future__ import annotations

import struct

# The eight bytes every event starts with (include/linux/trace_events.h,
# struct trace_entry): type, flags, preempt count, pid.
COMMON_FIELDS = (
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
)
COMMON_SIZE = 8
TASK_COMM_LEN = 16

# prev_state: Linux's TASK_REPORT letters (include/trace/events/sched.h).
STATE_FLAGS = ('{ 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" }, { 0x08, "t" }, '
               '{ 0x10, "X" }, { 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" }')


class RecordError(ValueError):
    """A record whose arguments do not fit its event."""


def comm_bytes(name: str) -> bytes:
    b = name.encode("ascii", "replace")[:TASK_COMM_LEN - 1]
    return b + b"\0" * (TASK_COMM_LEN - len(b))


def s32(v: int, what: str) -> int:
    if not -(1 << 31) <= v < (1 << 32):
        raise RecordError(f"{what}={v:#x} does not fit 32 bits")
    return v - (1 << 32) if v >= (1 << 31) else v


def s64(v: int) -> int:
    return v - (1 << 64) if v >= (1 << 63) else v


class Event:
    """One event type: system, name, the fields after the common ones
    (C declaration, size, signed), the print format, and to_payload(rec,
    ctx) -> the bytes after the common header."""

    def __init__(self, system, name, fields, print_fmt, to_payload):
        self.system, self.name = system, name
        self.fields, self.print_fmt, self.to_payload = fields, print_fmt, to_payload

    def format_text(self, event_id: int) -> str:
        lines = [f"name: {self.name}", f"ID: {event_id}", "format:", COMMON_FIELDS.rstrip("\n"), ""]
        off = COMMON_SIZE
        for decl, size, signed in self.fields:
            lines.append(f"\tfield:{decl};\toffset:{off};\tsize:{size};\tsigned:{signed};")
            off += size
        lines += ["", f"print fmt: {self.print_fmt}", ""]
        return "\n".join(lines)


def sched_switch(rec, ctx):
    prev, nxt, prios, state = rec.arg
    return (comm_bytes(ctx.comm(prev, rec.cpu)) + struct.pack("<iiq", s32(prev, "prev_pid"),
            s32(prios & 0xffffffff, "prev_prio"), s64(state))
            + comm_bytes(ctx.comm(nxt, rec.cpu))
            + struct.pack("<ii", s32(nxt, "next_pid"), s32(prios >> 32, "next_prio")))


def sched_wakeup(rec, ctx):
    pid, prio, target, _ = rec.arg
    return comm_bytes(ctx.comm(pid, rec.cpu)) + struct.pack(
        "<iii", s32(pid, "pid"), s32(prio, "prio"), s32(target, "target_cpu"))


def sched_pi_setprio(rec, ctx):
    pid, old, new, _ = rec.arg
    return comm_bytes(ctx.comm(pid, rec.cpu)) + struct.pack(
        "<iii", s32(pid, "pid"), s32(old, "oldprio"), s32(new, "newprio"))


def irq_entry(rec, ctx):
    vector = rec.arg[0]
    name = ctx.irq_name(vector).encode("ascii", "replace") + b"\0"
    # __data_loc: the string's offset from the record's start in the low
    # 16 bits, its length (NUL included) in the high 16
    # (include/trace/trace_events.h, __assign_str/__get_str).
    loc = (len(name) << 16) | (COMMON_SIZE + 8)
    return struct.pack("<iI", s32(vector, "irq"), loc) + name


def irq_exit(rec, ctx):
    return struct.pack("<ii", s32(rec.arg[0], "irq"), s32(rec.arg[1], "ret"))


def one_u32(rec, ctx):
    return struct.pack("<I", rec.arg[0] & 0xffffffff)


def no_fields(rec, ctx):
    return b""


def preempt_mode(rec, ctx):
    return struct.pack("<ii", s32(rec.arg[0], "old_mode"), s32(rec.arg[1], "new_mode"))


def sys_enter(rec, ctx):
    nr, a0, a1, a2 = rec.arg
    return struct.pack("<q6Q", s64(nr), a0, a1, a2, 0, 0, 0)


def sys_exit(rec, ctx):
    return struct.pack("<qq", s64(rec.arg[0]), s64(rec.arg[1]))


# contention_begin's flags: Linux's LCB_F_* (include/trace/events/lock.h).
LCB_FLAGS = ('{ (1U << 0), "SPIN" }, { (1U << 1), "READ" }, { (1U << 2), "WRITE" }, '
             '{ (1U << 3), "RT" }, { (1U << 4), "PERCPU" }, { (1U << 5), "MUTEX" }, '
             '{ (1U << 6), "RWSEM" }')


def contention_begin(rec, ctx):
    return struct.pack("<QI", rec.arg[0], rec.arg[1] & 0xffffffff)


def contention_end(rec, ctx):
    return struct.pack("<Qi", rec.arg[0], s32(s64(rec.arg[1]), "ret"))


def mode_symbols(mode_names: list[str]) -> str:
    return ", ".join(f'{{ {i}, "{n}" }}' for i, n in enumerate(mode_names))


def catalogue(mode_names: list[str]) -> dict[str, Event]:
    """Every event fold can record, by name."""
    sym = mode_symbols(mode_names)
    evs = [
        Event("sched", "sched_switch",
              [("char prev_comm[16]", 16, 0), ("pid_t prev_pid", 4, 1), ("int prev_prio", 4, 1),
               ("long prev_state", 8, 1), ("char next_comm[16]", 16, 0),
               ("pid_t next_pid", 4, 1), ("int next_prio", 4, 1)],
              '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s '
              'next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, '
              '(REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, "|", '
              + STATE_FLAGS + ') : "R", REC->prev_state & 0x100 ? "+" : "", '
              'REC->next_comm, REC->next_pid, REC->next_prio', sched_switch),
        Event("sched", "sched_wakeup",
              [("char comm[16]", 16, 0), ("pid_t pid", 4, 1), ("int prio", 4, 1),
               ("int target_cpu", 4, 1)],
              '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, '
              'REC->target_cpu', sched_wakeup),
        Event("sched", "sched_pi_setprio",
              [("char comm[16]", 16, 0), ("pid_t pid", 4, 1), ("int oldprio", 4, 1),
               ("int newprio", 4, 1)],
              '"comm=%s pid=%d oldprio=%d newprio=%d", REC->comm, REC->pid, '
              'REC->oldprio, REC->newprio', sched_pi_setprio),
        Event("irq", "irq_handler_entry",
              [("int irq", 4, 1), ("__data_loc char[] name", 4, 0)],
              '"irq=%d name=%s", REC->irq, __get_str(name)', irq_entry),
        Event("irq", "irq_handler_exit", [("int irq", 4, 1), ("int ret", 4, 1)],
              '"irq=%d ret=%s", REC->irq, REC->ret ? "handled" : "unhandled"', irq_exit),
        Event("fold", "resched_ipi", [("unsigned int preempt_count", 4, 0)],
              '"folded: preempt_count=0x%x", REC->preempt_count', one_u32),
        Event("fold", "preempt_irq", [], '"preempted at IRQ exit"', no_fields),
        Event("fold", "preempt_enable", [], '"preempted in preempt_enable"', no_fields),
        Event("fold", "preempt_mode", [("int old_mode", 4, 1), ("int new_mode", 4, 1)],
              f'"%s -> %s", __print_symbolic(REC->old_mode, {sym}), '
              f'__print_symbolic(REC->new_mode, {sym})', preempt_mode),
        Event("raw_syscalls", "sys_enter",
              [("long id", 8, 1), ("unsigned long args[6]", 48, 0)],
              '"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id, REC->args[0], REC->args[1], '
              'REC->args[2], REC->args[3], REC->args[4], REC->args[5]', sys_enter),
        Event("raw_syscalls", "sys_exit", [("long id", 8, 1), ("long ret", 8, 1)],
              '"NR %ld = %ld", REC->id, REC->ret', sys_exit),
        Event("lock", "contention_begin",
              [("void * lock_addr", 8, 0), ("unsigned int flags", 4, 0)],
              '"%p (flags=%s)", REC->lock_addr, __print_flags(REC->flags, "|", '
              + LCB_FLAGS + ')', contention_begin),
        Event("lock", "contention_end", [("void * lock_addr", 8, 0), ("int ret", 4, 1)],
              '"%p (ret=%d)", REC->lock_addr, REC->ret', contention_end),
    ]
    return {e.name: e for e in evs}
