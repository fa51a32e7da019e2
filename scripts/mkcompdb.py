#!/usr/bin/env python3
"""compile_commands.json for clangd and clang-tidy: one entry per object,
with the command the Makefile runs for it.

    mkcompdb.py --out FILE --group COMMAND OBJDIR SRC... [--group ...]

COMMAND is the compiler and its flags as a shell string (what make runs,
quotes and all); each SRC gets `COMMAND -c -o OBJDIR/SRC.o SRC`, run in
the current directory. A SRC given as SRC=NAME is compiled to
OBJDIR/NAME.o instead (bench/bench_pair.c, built once per count
model, each with a group of its own).
"""
import argparse
import json
import os
import shlex


def entries(command: str, objdir: str, srcs: list[str], cwd: str) -> list[dict]:
    out = []
    for spec in srcs:
        src, _, name = spec.partition("=")
        obj = os.path.join(objdir, (name or os.path.splitext(src)[0]) + ".o")
        cmd = f"{command} -c -o {shlex.quote(obj)} {shlex.quote(src)}"
        out.append({"directory": cwd, "file": os.path.join(cwd, src),
                    "output": os.path.join(cwd, obj), "command": " ".join(cmd.split())})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--group", nargs="+", action="append", required=True,
                    metavar="ARG", help="COMMAND OBJDIR SRC...")
    args = ap.parse_args()
    cwd = os.getcwd()
    db = []
    for group in args.group:
        if len(group) < 3:
            ap.error(f"--group needs COMMAND OBJDIR SRC...: got {group}")
        db += entries(group[0], group[1], group[2:], cwd)
    tmp = args.out + ".new"
    with open(tmp, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
