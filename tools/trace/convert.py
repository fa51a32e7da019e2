"""A parsed `trace dump` to trace.dat bytes: each record becomes its
event's Linux layout (tools/trace/events.py) behind the common header,
the thread names become the cmdlines."""

from __future__ import annotations

from tools.trace import dump as dumpmod
from tools.trace import events, tracedat


class Context:
    """Names for the payload builders: thread names by pid, IRQ names."""

    def __init__(self, d: dumpmod.Dump):
        self.d = d

    def comm(self, pid: int, cpu: int) -> str:
        if pid == 0:
            return f"idle/{cpu}"
        return self.d.comms.get(pid, "<...>")

    def irq_name(self, vector: int) -> str:
        return self.d.irqs.get(vector, f"vector{vector}")


def convert(d: dumpmod.Dump, kinfo: dict) -> bytes:
    names = kinfo["TRACE_EVENT_NAMES"]
    systems = kinfo["TRACE_EVENT_SYSTEMS"]
    if d.entry_size != kinfo["TRACE_ENTRY_size"] or d.ntypes != len(names) + 1:
        raise dumpmod.DumpError(
            f"the dump (entry={d.entry_size} types={d.ntypes}) is not from this build "
            f"(entry={kinfo['TRACE_ENTRY_size']} types={len(names) + 1})")
    cat = events.catalogue(kinfo["PREEMPT_MODE_NAMES"])
    missing = [n for n in names if n not in cat]
    if missing:
        raise dumpmod.DumpError(f"tools/trace/events.py has no layout for {missing}")
    formats: dict[str, list[str]] = {}
    for i, (system, name) in enumerate(zip(systems, names), 1):
        formats.setdefault(system, []).append(cat[name].format_text(i))
    ctx = Context(d)
    cpus = []
    for recs in d.records:
        evs = []
        for r in recs:
            ev = cat[names[r.type - 1]]
            try:
                payload = ev.to_payload(r, ctx)
            except events.RecordError as e:
                raise dumpmod.DumpError(f"CPU {r.cpu} ts {r.ts} {ev.name}: {e}") from None
            header = r.type.to_bytes(2, "little") + bytes([r.flags, r.preempt_count]) \
                + r.pid.to_bytes(4, "little")
            evs.append((r.ts, header + payload))
        cpus.append(evs)
    cmdlines = dict(d.comms)
    return tracedat.write(list(formats.items()), cmdlines, cpus)
