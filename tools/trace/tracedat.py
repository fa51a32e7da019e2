"""Writing a trace-cmd trace.dat, file format version 6
(trace-cmd.dat.v6(5), "trace-cmd version 6 file format"), little endian,
8-byte longs, 4096-byte pages:

  magic 0x17 0x08 0x44 "tracing", "6\\0", endian, long size, page size
  "header_page\\0" + u64 size + text     the ring buffer page's header
  "header_event\\0" + u64 size + text    the event header's bit fields
  u32 0                                  no ftrace (function tracer) formats
  u32 systems; per system: name\\0, u32 events; per event: u64 size + format
  u32 0 (kallsyms), u32 0 (printk formats)
  u64 size + cmdlines ("pid comm" lines, saved_cmdlines)
  u32 cpus, "flyrecord\\0", per CPU: u64 offset, u64 size
  per CPU, page aligned: ring buffer pages

A page is the kernel's buffer_data_page (Linux's kernel/trace/ring_buffer.c): u64
timestamp of its first event, u64 commit (bytes of event data), then the
events. Each event starts with a 32-bit header, type_len in bits 0-4 and
time_delta (ns since the previous event on the page) in bits 5-31
(include/linux/ring_buffer.h, struct ring_buffer_event): type_len 1..28
is a data record of type_len * 4 bytes; 30 is RINGBUF_TYPE_TIME_EXTEND,
whose array[0] holds bits 27 and up of a delta too large for 27 bits.
"""

from __future__ import annotations

import struct

PAGE_SIZE = 4096
PAGE_HEADER = 16                       # timestamp, commit
PAGE_DATA = PAGE_SIZE - PAGE_HEADER
TYPE_TIME_EXTEND = 30
TYPE_DATA_MAX = 28                     # RINGBUF_TYPE_DATA_TYPE_LEN_MAX
TS_BITS = 27                           # TS_SHIFT
TS_MASK = (1 << TS_BITS) - 1

HEADER_PAGE = (
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    f"\tfield: char data;\toffset:16;\tsize:{PAGE_DATA};\tsigned:1;\n"
)
HEADER_EVENT = (
    "# compressed entry header\n"
    "\ttype_len    :    5 bits\n"
    "\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n"
    "\n"
    "\tpadding     : type == 29\n"
    "\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n"
    "\tdata max type_len  == 28\n"
)


class WriteError(ValueError):
    pass


def event_bytes(delta: int, payload: bytes) -> bytes:
    """One data event, preceded by a time extend if delta needs it."""
    if len(payload) % 4:
        payload += b"\0" * (4 - len(payload) % 4)
    words = len(payload) // 4
    if not 1 <= words <= TYPE_DATA_MAX:
        raise WriteError(f"an event of {len(payload)} bytes: only 4..{TYPE_DATA_MAX * 4} "
                         "are written (type_len events)")
    out = b""
    if delta > TS_MASK:
        if delta >> TS_BITS >= 1 << 32:
            raise WriteError(f"a time delta of {delta} ns is too large for a time extend")
        out = struct.pack("<II", TYPE_TIME_EXTEND | (delta & TS_MASK) << 5, delta >> TS_BITS)
        delta = 0
    return out + struct.pack("<I", words | delta << 5) + payload


def cpu_pages(events: list[tuple[int, bytes]]) -> bytes:
    """The pages for one CPU's (timestamp, payload) list, in time order."""
    pages = []
    data = b""
    page_ts = last = None
    for ts, payload in events:
        if last is not None and ts < last:
            raise WriteError(f"time goes back on a CPU: {last} then {ts}")
        ev = event_bytes(0 if last is None else ts - last, payload)
        if len(data) + len(ev) > PAGE_DATA:
            pages.append((page_ts, data))
            data = b""
            page_ts = None
            ev = event_bytes(0, payload)
        if page_ts is None:
            page_ts = ts
        data += ev
        last = ts
    if data:
        pages.append((page_ts, data))
    return b"".join(struct.pack("<QQ", t, len(d)) + d + b"\0" * (PAGE_DATA - len(d))
                    for t, d in pages)


def _sized(size_fmt: str, data: bytes) -> bytes:
    return struct.pack(size_fmt, len(data)) + data


def write(formats: list[tuple[str, list[str]]], cmdlines: dict[int, str],
          cpus: list[list[tuple[int, bytes]]]) -> bytes:
    """The whole file: formats is [(system, [format text, ...])], cmdlines
    pid -> name, cpus one (timestamp, payload) list per CPU."""
    out = bytearray(b"\x17\x08\x44tracing" + b"6\0" + bytes([0, 8]) + struct.pack("<I", PAGE_SIZE))
    out += b"header_page\0" + _sized("<Q", HEADER_PAGE.encode())
    out += b"header_event\0" + _sized("<Q", HEADER_EVENT.encode())
    out += struct.pack("<I", 0)
    out += struct.pack("<I", len(formats))
    for system, texts in formats:
        out += system.encode() + b"\0" + struct.pack("<I", len(texts))
        for t in texts:
            out += _sized("<Q", t.encode())
    out += _sized("<I", b"") + _sized("<I", b"")
    out += _sized("<Q", "".join(f"{pid} {name}\n" for pid, name in sorted(cmdlines.items()))
                  .encode())
    out += struct.pack("<I", len(cpus)) + b"flyrecord\0"
    datas = [cpu_pages(evs) for evs in cpus]
    table_end = len(out) + 16 * len(cpus)
    offset = -(-table_end // PAGE_SIZE) * PAGE_SIZE
    for d in datas:
        out += struct.pack("<QQ", offset, len(d))
        offset += len(d)
    out += b"\0" * (-(-len(out) // PAGE_SIZE) * PAGE_SIZE - len(out))
    for d in datas:
        out += d
    return bytes(out)
