#!/usr/bin/env python3
"""Write a doctored copy of a kernel file: a defect the explorer must
find, put back.

    tests/explore/doctor.py IN OUT

kernel/locking/rtmutex.c, the lost wake-up: adjust_chain() wakes a
released lock's top waiter where its walk finds no owner (the walk may have put a new waiter on top, one that outranks
the waiter rt_mutex_slowunlock() woke). The copy deletes that call, the
line with `wake_top_waiter(m)` inside adjust_chain(), and nothing else.

kernel/irq/irq_thread.c, the unserialised start: irq_thread_start()
takes irq_request_mutex so that two binds of one line make one thread.
The copy deletes its rt_mutex_lock() and rt_mutex_unlock() of that lock,
and defines the lock without `static`, so that the unused lock is still
there for the explorer to reset.

Each copy is made from the real file at every build, so it cannot
drift; if the function or the call is not there (renamed, moved, rewritten), this
fails loudly and says so: the self-test must then be brought up to date
with the fix, not pass without its mutant.
"""
import re
import sys


def function_body(text, signature):
    start = re.search(r"^" + re.escape(signature) + r"\n\{\n", text, re.M)
    if not start:
        raise ValueError("no `%s` definition" % signature)
    end = text.find("\n}\n", start.end())
    if end < 0:
        raise ValueError("%s has no closing brace at column 0" % signature)
    return start.end(), end


def doctor_irq(text):
    start, end = function_body(
        text, "int irq_thread_start(struct irq_thread *it, u32 irq, const char *name,\n"
        "\t\t     void (*fn)(void *arg), void *arg)")
    lines = text[start:end].split("\n")
    for call in ("rt_mutex_lock(&irq_request_mutex);", "rt_mutex_unlock(&irq_request_mutex);"):
        found = [i for i, l in enumerate(lines) if l.strip() == call]
        if len(found) != 1:
            raise ValueError("irq_thread_start() has %d lines `%s`, expected exactly 1"
                             % (len(found), call))
        del lines[found[0]]
    lock = "static DEFINE_RT_MUTEX(irq_request_mutex);\n"
    if text.count(lock) != 1:
        raise ValueError("no `%s`" % lock.strip())
    text = text[:start] + "\n".join(lines) + text[end:]
    return text.replace(lock, lock[len("static "):]), \
        "irq_thread_start()'s rt_mutex_lock() and rt_mutex_unlock() deleted"


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
    return text[:start.end()] + "\n".join(lines) + text[end:], \
        "adjust_chain()'s\n * wake_top_waiter(m) deleted"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1:]
    with open(src) as f:
        text = f.read()
    try:
        doctored, what = (doctor_irq if src.endswith("irq_thread.c") else doctor)(text)
    except ValueError as e:
        sys.exit("doctor.py: %s: %s" % (src, e))
    with open(out, "w") as f:
        f.write("/* Doctored from %s by tests/explore/doctor.py: %s. Do not edit. */\n"
                % (src, what))
        f.write('#line 1 "%s (doctored)"\n' % src)
        f.write(doctored)


if __name__ == "__main__":
    main()
