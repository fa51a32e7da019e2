#!/usr/bin/env python3
"""Write the lab variants again (tests/tools/lab/variants/*.patch): each is
a student's answer, right or wrong, as a patch to a fresh skeleton of its
lab, with a header that make lab-check (tools/lab/lab-check) reads:

    lab: L1
    what: what the answer does
    expect: pass | fail
    fails: CASE TEXT       (for fail: a case that must fail, and a text its
                            diagnostics must contain; the other cases pass)

Run it after a change to a stub (a hint, an END comment) makes the old
patches stop applying: python3 tests/tools/lab/mkvariants.py [PATCH...].
Each patch is its own source: a change that removes a stub's lab_hole()
line puts its added lines in place of that stub (its TODO comment to the
stub's own line) in a fresh skeleton; any other change replaces its
removed lines, after the context line before them, by its added ones. A
new variant is a patch written by hand (or by diff) with such a header.
"""

import difflib
import os
import re
import subprocess
import sys
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
V = os.path.join(HERE, "variants")
TMP = tempfile.mkdtemp(prefix="fold-variants-")


def skeleton(lab):
    dest = os.path.join(TMP, lab)
    if not os.path.exists(dest):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "lab", "mklab"), lab,
                        "--dest", dest, "--no-git"], check=True, stdout=subprocess.DEVNULL)
    return dest


def replace_stub(text, func, code):
    """The stub of func (its TODO comment, the lab_hole() line and the
    stub's own line) replaced by code."""
    lines = text.split("\n")
    i = next(k for k, l in enumerate(lines) if "lab_hole(" in l and f'"{func}"' in l)
    s = i
    while "LAB(" not in lines[s] or "TODO" not in lines[s]:
        s -= 1
    e = i + 1
    if e < len(lines) and "the stub's own" in lines[e]:
        e += 1
    return "\n".join(lines[:s] + code + lines[e:])


def changes(patch):
    """The header, and per file its changes: (context line before, removed
    lines, added lines), in order."""
    header, files, cur, ctx, block = [], {}, None, "", None
    for line in open(patch).read().split("\n"):
        if cur is None and not line.startswith(("--- ", "+++ ")):
            header.append(line)
        elif line.startswith("+++ "):
            cur = files.setdefault(line[6:], [])
        elif line.startswith(("--- ", "@@")):
            ctx, block = "", None
        elif line[:1] in "-+" and line:
            if block is None:
                block = (ctx, [], [])
                cur.append(block)
            block[1 if line[0] == "-" else 2].append(line[1:])
        else:
            ctx, block = line[1:], None
    return "\n".join(header), files


def regenerate(patch):
    header, files = changes(patch)
    root = skeleton(re.search(r"^lab: (\S+)", header, re.M).group(1))
    out = [header.rstrip("\n") + "\n"]
    for path, blocks in files.items():
        with open(os.path.join(root, path)) as f:
            old = f.read()
        new = old
        for ctx, removed, added in blocks:
            stub = next((m.group(1) for l in removed
                         for m in [re.search(r'lab_hole\(\d+, "(\w+)"', l)] if m), None)
            if stub:
                new = replace_stub(new, stub, added)
            else:
                a, b = "\n".join([ctx] + removed) + "\n", "\n".join([ctx] + added) + "\n"
                assert a in new, f"{patch}: {path}: {removed or ctx!r} not found"
                new = new.replace(a, b, 1)
        out.append("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                f"a/{path}", f"b/{path}")))
    with open(patch, "w") as f:
        f.write("".join(out))
    print(f"wrote {os.path.relpath(patch, ROOT)}")


for p in sys.argv[1:] or sorted(os.path.join(V, n) for n in os.listdir(V)):
    regenerate(p)
shutil.rmtree(TMP)
