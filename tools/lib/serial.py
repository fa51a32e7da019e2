"""Reading a serial log: the file QEMU's -serial file: wrote.

GRUB and SeaBIOS draw on the serial port with terminal escape sequences and
CR LF line ends; read_log() strips them so that lines compare as plain text.
Kernel log lines start with "[" (a timestamp: "[    0.042352] 0: ...").

A panic prints a line containing "PANIC:", later a line containing
"Call Trace:" and then one line per frame, each with a hex address;
find_panic() finds that section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ANSI_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_line(raw: str) -> str:
    return CONTROL_RE.sub("", ANSI_RE.sub("", raw)).rstrip()


def read_log(path: str) -> list[str]:
    """The log as cleaned lines (line N of the file is element N-1)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    return decode_log(data)


def decode_log(data: bytes) -> list[str]:
    """read_log() of a file that holds data (the KTAP fuzzer's way in)."""
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [clean_line(line) for line in lines]


def is_log_line(line: str) -> bool:
    # Kernel log lines always start with "[" (a timestamp); KTAP lines never do.
    return line.startswith("[")


# ---------------------------------------------------------------------------
# Panics
# ---------------------------------------------------------------------------

PANIC_MARK = "PANIC:"
TRACE_MARK = "Call Trace:"
LOG_PREFIX_RE = re.compile(r"^\[[^\]]*\]\s*(?:\d+:)?\s*")
FRAME_RE = re.compile(r"\b(?:0x)?[0-9a-fA-F]{8,16}\b")


@dataclass
class PanicInfo:
    line: int               # the PANIC: line (1-based)
    trace: int | None       # the Call Trace: line
    frames: int             # frame lines right after it
    end: int                # last line of the panic section


def find_panic(lines: list[str]) -> PanicInfo | None:
    start = next((i for i, l in enumerate(lines) if PANIC_MARK in l), None)
    if start is None:
        return None
    trace, frames, end = None, 0, min(start + 15, len(lines) - 1)
    for i in range(start, min(start + 200, len(lines))):
        if TRACE_MARK in lines[i]:
            trace, end = i, i
            # A frame line carries a hex address ("ffffffff80104a2c panic+0x5c").
            for j in range(i + 1, min(i + 65, len(lines))):
                if not FRAME_RE.search(LOG_PREFIX_RE.sub("", lines[j])):
                    break
                frames, end = frames + 1, j
            break
    return PanicInfo(start + 1, None if trace is None else trace + 1,
                     frames, end + 1)

