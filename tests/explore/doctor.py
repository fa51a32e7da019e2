#!/usr/bin/env python3
"""Write a doctored copy of a kernel file: a defect the explorer must
find, put back, as tests/explore/mutants describes it.

    tests/explore/doctor.py NAME OUT

If the function or the line is not there (renamed, moved, rewritten),
this fails loudly and says so.
"""
import os
import re
import sys

MUTANTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutants")


def mutants():
    """Each paragraph of the data file: a dict of its words and lines."""
    out = []
    for para in re.split(r"\n\s*\n", re.sub(r"(?m)^#.*\n", "", open(MUTANTS).read())):
        lines = para.strip().split("\n")
        if lines[0]:
            name, path, binary, scenario = lines[0].split()
            out.append(dict(name=name, path=path, binary=binary, scenario=scenario,
                            ops=[l.split(" ", 1) for l in lines[1:]]))
    return out


def apply(text, ops):
    start = end = None
    for op, arg in ops:
        if op == "in":
            sig = arg.replace("\\n", "\n").replace("\\t", "\t")
            m = re.search(r"^" + re.escape(sig) + r"\n\{\n", text, re.M)
            if not m:
                raise ValueError("no `%s` definition" % sig)
            start, end = m.end(), text.find("\n}\n", m.end())
        elif op in ("delete", "replace", "file"):
            old, new = arg.split(" => ") if " => " in arg else (arg, None)
            lo, hi = (0, len(text)) if op == "file" else (start, end)
            lines = text[lo:hi].split("\n")
            found = [i for i, l in enumerate(lines) if l.strip() == old]
            if len(found) != 1:
                raise ValueError("%d lines `%s`, expected exactly 1" % (len(found), old))
            if new is None:
                del lines[found[0]]
            else:
                lines[found[0]] = lines[found[0]].replace(old, new)
            text = text[:lo] + "\n".join(lines) + text[hi:]
            end = text.find("\n}\n", start) if start is not None else None
    return text


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name, out = sys.argv[1:]
    m = next((m for m in mutants() if m["name"] == name), None)
    if not m:
        sys.exit("doctor.py: no mutant %s in %s" % (name, MUTANTS))
    try:
        text = apply(open(m["path"]).read(), m["ops"])
    except ValueError as e:
        sys.exit("doctor.py: %s: %s: %s" % (name, m["path"], e))
    why = dict(m["ops"]).get("why", "")
    with open(out, "w") as f:
        f.write("/* Doctored from %s by tests/explore/doctor.py (%s): %s. Do not edit. */\n"
                % (m["path"], name, why.replace("*/", "* /")))
        f.write('#line 1 "%s (doctored)"\n' % m["path"])
        f.write(text)


if __name__ == "__main__":
    main()
