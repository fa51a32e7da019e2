#!/usr/bin/env python3
"""Write a doctored copy of kernel/locking/rtmutex.c: the lost wake-up
that the explorer must find, put back.

    tests/explore/doctor.py IN OUT

adjust_chain() wakes a released lock's top waiter where its walk finds
no owner (the walk may have put a new waiter on top, one that outranks
the waiter rt_mutex_slowunlock() woke). The copy deletes that call, the
line with `wake_top_waiter(m)` inside adjust_chain(), and nothing else.
Made from the real file at every build, so it cannot drift; if the
function or the call is not there (renamed, moved, rewritten), this
fails loudly and says so: the self-test must then be brought up to date
with the fix, not pass without its mutant.
"""
import re
import sys


def doctor(text):
    start = re.search(r"^static void adjust_chain\(struct rt_mutex \*m\)\n\{\n", text, re.M)
    if not start:
        raise ValueError("no `static void adjust_chain(struct rt_mutex *m)` definition")
    end = text.find("\n}\n", start.end())
    if end < 0:
        raise ValueError("adjust_chain() has no closing brace at column 0")
    body = text[start.end():end]
    lines = body.split("\n")
    calls = [i for i, l in enumerate(lines) if "wake_top_waiter(m)" in l]
    if len(calls) != 1:
        raise ValueError("adjust_chain() has %d lines with `wake_top_waiter(m)`, "
                         "expected exactly 1" % len(calls))
    line = lines[calls[0]].strip()
    if not re.fullmatch(r"wake_top_waiter\(m\);\s*(/\*.*\*/)?", line):
        raise ValueError("the call is not a statement of its own: %r" % line)
    del lines[calls[0]]
    return text[:start.end()] + "\n".join(lines) + text[end:]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1:]
    with open(src) as f:
        text = f.read()
    try:
        doctored = doctor(text)
    except ValueError as e:
        sys.exit("doctor.py: %s: %s" % (src, e))
    with open(out, "w") as f:
        f.write("/* Doctored from %s by tests/explore/doctor.py: adjust_chain()'s\n"
                " * wake_top_waiter(m) deleted. Do not edit. */\n" % src)
        f.write('#line 1 "%s (doctored)"\n' % src)
        f.write(doctored)


if __name__ == "__main__":
    main()
