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

ipc/endpoint.c, the use-after-free: the slow path's direct switch uses
the partner's thread after the endpoint's lock is dropped, when a kill
may have let it exit and be reaped. The copy deletes the pin taken for
that, pin_partner()'s get_task_struct() and switch_or_wake()'s put.

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


def delete_lines(text, signature, *stmts):
    """Each statement, exactly one line of the function's, deleted."""
    start, end = function_body(text, signature)
    lines = text[start:end].split("\n")
    for stmt in stmts:
        found = [i for i, l in enumerate(lines) if l.strip() == stmt]
        if len(found) != 1:
            raise ValueError("`%s` has %d lines `%s`, expected exactly 1"
                             % (signature.split("(")[0], len(found), stmt))
        del lines[found[0]]
    return text[:start] + "\n".join(lines) + text[end:]


def doctor_irq(text):
    text = delete_lines(
        text, "int irq_thread_start(struct irq_thread *it, u32 irq, const char *name,\n"
        "\t\t     void (*fn)(void *arg), void *arg)",
        "rt_mutex_lock(&irq_request_mutex);", "rt_mutex_unlock(&irq_request_mutex);")
    lock = "static DEFINE_RT_MUTEX(irq_request_mutex);\n"
    if text.count(lock) != 1:
        raise ValueError("no `%s`" % lock.strip())
    return text.replace(lock, lock[len("static "):]), \
        "irq_thread_start()'s rt_mutex_lock() and rt_mutex_unlock() deleted"


def doctor_endpoint(text):
    text = delete_lines(text, "static struct thread *pin_partner(struct ipc_state *to)",
                        "get_task_struct(to->t);")
    return delete_lines(text, "static void switch_or_wake(struct thread *next)",
                        "put_task_struct(next);"), "the partner's thread not pinned"


def doctor(text):
    return delete_lines(text, "static void adjust_chain(struct rt_mutex *m)",
                        "wake_top_waiter(m);"), "adjust_chain()'s\n * wake_top_waiter(m) deleted"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1:]
    with open(src) as f:
        text = f.read()
    try:
        doctored, what = (doctor_irq if src.endswith("irq_thread.c") else doctor_endpoint
                          if src.endswith("endpoint.c") else doctor)(text)
    except ValueError as e:
        sys.exit("doctor.py: %s: %s" % (src, e))
    with open(out, "w") as f:
        f.write("/* Doctored from %s by tests/explore/doctor.py: %s. Do not edit. */\n"
                % (src, what))
        f.write('#line 1 "%s (doctored)"\n' % src)
        f.write(doctored)


if __name__ == "__main__":
    main()
