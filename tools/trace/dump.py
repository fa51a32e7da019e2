"""Reading `trace dump`'s lines from a serial log (kernel/trace/trace.c says
their form). Every line between `TRACE begin` and `TRACE end` that starts
with T carries a Fletcher-16 checksum of its text (RFC 1146, Appendix I);
a line whose checksum or fields are wrong is an error, never skipped: a
trace with a hole would still convert and mislead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LINE_RE = re.compile(r"^(T[CIRL]|TRACE) (.*) ([0-9a-f]{4})$")


class DumpError(ValueError):
    pass


@dataclass
class Record:
    cpu: int
    ts: int
    type: int
    flags: int
    preempt_count: int
    pid: int
    arg: tuple


@dataclass
class Dump:
    ncpus: int = 0
    entry_size: int = 0
    ntypes: int = 0
    comms: dict = field(default_factory=dict)      # pid -> name
    irqs: dict = field(default_factory=dict)       # vector -> name
    records: list = field(default_factory=list)    # per CPU: [Record]
    lost: list = field(default_factory=list)       # per CPU


def fletcher16(text: str) -> int:
    a = b = 0
    for byte in text.encode("utf-8", "replace"):
        a = (a + byte) % 255
        b = (b + a) % 255
    return b << 8 | a


def _ints(words, base, n, where):
    if len(words) != n:
        raise DumpError(f"{where}: expected {n} fields, got {len(words)}")
    try:
        return [int(w, base) for w in words]
    except ValueError:
        raise DumpError(f"{where}: not a number in {' '.join(words)!r}") from None


def parse(lines: list[str]) -> Dump:
    """The last complete dump in lines (a cleaned serial log)."""
    begins = [i for i, l in enumerate(lines) if l.startswith("TRACE begin ")]
    if not begins:
        raise DumpError("no 'TRACE begin' line: was `trace dump` run?")
    start = begins[-1]
    d = Dump()
    ended = False
    seen_tl: set = set()
    for no in range(start, len(lines)):
        line = lines[no]
        where = f"line {no + 1}"
        if not line.startswith("T"):
            continue  # another message between two dump lines
        m = LINE_RE.match(line)
        if not m:
            raise DumpError(f"{where}: not a dump line: {line[:60]!r}")
        kind, body, check = m.group(1), m.group(2), int(m.group(3), 16)
        if fletcher16(f"{kind} {body}") != check:
            raise DumpError(f"{where}: checksum {check:04x} does not match the text "
                            f"({fletcher16(kind + ' ' + body):04x}): {line[:60]!r}")
        words = body.split()
        if kind == "TRACE":
            kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            if words[0] == "begin":
                if no != start:
                    raise DumpError(f"{where}: a second 'TRACE begin' before the end")
                try:
                    d.ncpus, d.entry_size, d.ntypes = (int(kv["cpus"]), int(kv["entry"]),
                                                       int(kv["types"]))
                except (KeyError, ValueError):
                    raise DumpError(f"{where}: bad begin line {body!r}") from None
                if not 1 <= d.ncpus <= 64:
                    raise DumpError(f"{where}: cpus={d.ncpus} out of range")
                d.records = [[] for _ in range(d.ncpus)]
                d.lost = [0] * d.ncpus
            elif words[0] == "end":
                total = sum(len(r) for r in d.records)
                if kv.get("records") != str(total):
                    raise DumpError(f"{where}: end says records={kv.get('records')}, "
                                    f"the dump has {total}")
                ended = True
                break
            continue
        if kind == "TC":
            if len(words) != 2:
                raise DumpError(f"{where}: TC wants pid and name: {body!r}")
            d.comms[_ints(words[:1], 10, 1, where)[0]] = words[1]
        elif kind == "TI":
            if len(words) != 2:
                raise DumpError(f"{where}: TI wants vector and name: {body!r}")
            d.irqs[_ints(words[:1], 10, 1, where)[0]] = words[1]
        elif kind == "TR":
            v = _ints(words, 16, 10, where)
            cpu = v[0]
            if not 0 <= cpu < d.ncpus:
                raise DumpError(f"{where}: CPU {cpu} out of range (cpus={d.ncpus})")
            if not 1 <= v[2] < d.ntypes:
                raise DumpError(f"{where}: event type {v[2]} unknown")
            rec = Record(cpu, v[1], v[2], v[3], v[4], v[5], tuple(v[6:]))
            prev = d.records[cpu][-1] if d.records[cpu] else None
            if prev and rec.ts < prev.ts:
                raise DumpError(f"{where}: CPU {cpu}'s time goes back "
                                f"({prev.ts} then {rec.ts})")
            d.records[cpu].append(rec)
        elif kind == "TL":
            cpu, count, lost = _ints(words, 10, 3, where)
            if not 0 <= cpu < d.ncpus or cpu in seen_tl:
                raise DumpError(f"{where}: TL for CPU {cpu} out of range or repeated")
            if count != len(d.records[cpu]):
                raise DumpError(f"{where}: CPU {cpu} wrote {count} records, "
                                f"the dump has {len(d.records[cpu])}")
            seen_tl.add(cpu)
            d.lost[cpu] = lost
    if not ended:
        raise DumpError("the dump has no 'TRACE end' line: the log is cut short")
    if len(seen_tl) != d.ncpus:
        raise DumpError(f"the dump has totals for {len(seen_tl)} of {d.ncpus} CPUs")
    return d
