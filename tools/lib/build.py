"""make, from the host tools: object directories, make's environment, and
what the build says about the kernel.

Runs with the same make variables share one object directory,
<out>/cfg/<build_hash>/ (the Makefile's defaults: <out> itself), so a
configuration is compiled once however many rows or programs boot it.

The build writes <BUILD>/fold_offsets.py (scripts/mkoffsets.sh, from
arch/x86_64/kernel/asm-offsets.c): NAME = number lines, and NAME = ["word", ...]
lines for lists. kernel_info() reads the kernel's limits and option names
from it, so that no host tool copies them from the C sources by hand:

    CMDLINE_MAX, AUTORUN_MAX, SHELL_LINE_MAX   lengths in characters
    CMDLINE_OPTIONS                            the kernel command line's keys
    BENCH_OPTIONS_<name>                       benchmark <name>'s key=value keys

The target <BUILD>/fold_offsets.py compiles one file: fetch_kernel_info()
makes it before anything else is built, because the kernel command line
(which the ISO bakes in) must be checked against those limits first.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shlex
import subprocess
from dataclasses import dataclass

# make's progress lines ("  CC      init/main.c"): they differ with what
# was already built, so they are left out when outputs are compared.
PROGRESS_RE = re.compile(r"^\s+[A-Z]{2,8}\s+\S+")
MAKEVAR_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
OFFSETS = "fold_offsets.py"


class BuildError(Exception):
    pass


def make_program(env: dict | None = None) -> list[str]:
    """$MAKE (a command, may carry arguments), else make; with -jN (N: the
    host's CPUs) unless the command has a -j of its own. The host tools
    build one configuration at a time, so make's own jobs are what use a
    second core (tests/run's two dozen kernel builds are a good part of
    make test's time)."""
    cmd = shlex.split((os.environ if env is None else env).get("MAKE") or "make")
    if not any(a.startswith(("-j", "--jobs")) for a in cmd[1:]):
        cmd.append(f"-j{os.cpu_count() or 1}")
    return cmd


def clean_env(env: dict | None = None) -> dict:
    """The environment for a make of our own: without the MAKEFLAGS of a
    make that started us, whose variables (COUNT=..., a jobserver) are
    not ours."""
    env = dict(os.environ if env is None else env)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKEFILES"):
        env.pop(k, None)
    return env


MAKEFILE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "Makefile")
DEFAULT_RE = re.compile(r"^([A-Z_]+)\s*\?=\s*(\S*)\s*$", re.M)
_defaults: dict[str, str] | None = None


def make_defaults() -> dict[str, str]:
    """The Makefile's defaults, its `VAR ?= value` lines (COUNT=folded,
    PREEMPT=full, ...)."""
    global _defaults
    if _defaults is None:
        with open(MAKEFILE) as f:
            _defaults = dict(DEFAULT_RE.findall(f.read()))
    return _defaults


def significant_vars(make_vars: list[str] | tuple = ()) -> list[str]:
    """The VAR=value words that make a build differ from the default one,
    sorted: each word that says what the Makefile's default already is
    (COUNT=folded, PREEMPT=full) left out."""
    defaults = make_defaults()
    return sorted(w for w in make_vars
                  if defaults.get(w.partition("=")[0]) != w.partition("=")[2])


def build_hash(make_vars: list[str] | tuple = ()) -> str:
    """The same for the same build: the sha1 of significant_vars(), NUL-joined,
    10 hex digits (COUNT=folded PREEMPT=none is PREEMPT=none's directory,
    COUNT=ti PREEMPT=full is COUNT=ti's)."""
    return hashlib.sha1("\0".join(significant_vars(make_vars)).encode()).hexdigest()[:10]


def build_dir(out: str, make_vars: list[str] | tuple = ()) -> str:
    """<out>/cfg/<build_hash>/; the Makefile's defaults build in <out>
    itself, where `make` and `make run` build them."""
    if not significant_vars(make_vars):
        return out
    return f"{out}/cfg/{build_hash(make_vars)}"


def iso_command(make: list[str], bdir: str, iso: str, cmdline: str,
                make_vars: list[str] | tuple = (),
                targets: list[str] | tuple = ("iso",)) -> list[str]:
    """make -s BUILD=bdir ISO=iso CMDLINE=cmdline VAR=value... targets."""
    for v in make_vars:
        if not MAKEVAR_RE.match(v):
            raise ValueError(f"{v!r} is not VAR=value")
    return make + ["-s", f"BUILD={bdir}", f"ISO={iso}", f"CMDLINE={cmdline}",
                   *make_vars, *targets]


def run_make(cmd: list[str], cwd: str, env: dict | None = None) -> tuple[int | None, str]:
    """Run make; (its exit status, or None if it could not be run, and its
    output, stdout and stderr together)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace")
        return p.returncode, p.stdout
    except OSError as e:
        return None, f"cannot run {cmd[0]}: {e}"


# The boot banner (init/banner.c): "... (count model M, default preemption
# P)", with ", release build" before the ")" in a release build.
BANNER_RE = re.compile(r"a teaching kernel for preemption \((.*)\)")
RELEASE_WHAT = ("RELEASE=1: the checks that only catch bugs compiled out, "
                "kernel/debug/checks.h")
DEBUG_WHAT = "the default, every debug check; RELEASE=1 for the release build"


def banner_build(lines) -> str | None:
    """Which build a serial log's kernel was: "release" (make RELEASE=1)
    or "debug", from its banner; None without one."""
    for line in lines:
        m = BANNER_RE.search(line)
        if m:
            return "release" if m.group(1).endswith(", release build") else "debug"
    return None


def build_words(kind: str) -> str:
    """The report line's words for a build kind: 'release (RELEASE=1: ...)'."""
    return f"{kind} ({RELEASE_WHAT if kind == 'release' else DEBUG_WHAT})"


def significant_lines(output: str) -> list[str]:
    """make's output without its progress lines and blank lines."""
    return [l for l in output.rstrip().splitlines()
            if l.strip() and not PROGRESS_RE.match(l)]


# ---------------------------------------------------------------------------
# The kernel's limits and option names
# ---------------------------------------------------------------------------

LINE_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*) = (.*)$")


def read_offsets(path: str) -> dict:
    """Every NAME = value of a fold_offsets.py: numbers, lists of words.
    Raises BuildError for a missing file or a line that is neither."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BuildError(f"cannot read {path} ({e.strerror}): it is made by the "
                         "build (make <BUILD>/fold_offsets.py)") from None
    values: dict = {}
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = LINE_RE.match(line)
        value = None
        if m:
            try:
                value = ast.literal_eval(m.group(2))
            except (ValueError, SyntaxError):
                pass
        ok = isinstance(value, int) or (isinstance(value, list) and all(
            isinstance(w, str) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", w)
            for w in value))
        if not m or not ok:
            raise BuildError(f"{path}:{no}: not NAME = number or NAME = "
                             f"[\"word\", ...]: {line!r}")
        values[m.group(1)] = value
    return values


@dataclass(frozen=True)
class KernelInfo:
    cmdline_max: int                    # the longest kernel command line
    autorun_max: int                    # the longest autorun= value
    shell_line_max: int                 # the longest shell command
    kernel_options: tuple[str, ...]     # the command line's keys
    bench_options: dict                 # benchmark -> tuple of its keys
    source: str = ""                    # the fold_offsets.py read


def kernel_info(path: str) -> KernelInfo:
    """The limits and option names in the fold_offsets.py at path."""
    v = read_offsets(path)
    want = {"CMDLINE_MAX": int, "AUTORUN_MAX": int, "SHELL_LINE_MAX": int,
            "CMDLINE_OPTIONS": list}
    missing = [k for k, t in want.items() if not isinstance(v.get(k), t)]
    benches = {k[len("BENCH_OPTIONS_"):]: tuple(w) for k, w in v.items()
               if k.startswith("BENCH_OPTIONS_") and isinstance(w, list)}
    if not benches:
        missing.append("BENCH_OPTIONS_<name>")
    if missing:
        raise BuildError(f"{path} lacks {', '.join(missing)}: build it again "
                         "(arch/x86_64/kernel/asm-offsets.c, 'Limits for the host tools')")
    return KernelInfo(v["CMDLINE_MAX"], v["AUTORUN_MAX"], v["SHELL_LINE_MAX"],
                      tuple(v["CMDLINE_OPTIONS"]), benches, path)


def fetch_kernel_info(root: str, bdir: str, make: list[str] | None = None,
                      env: dict | None = None, build: bool = True) -> KernelInfo:
    """Make <bdir>/fold_offsets.py (unless build=False) and read it.
    bdir is relative to root, where make runs."""
    target = f"{bdir}/{OFFSETS}"
    if build:
        cmd = (make or make_program()) + ["-s", f"BUILD={bdir}", target]
        status, output = run_make(cmd, root, env)
        if status != 0:
            tail = "\n".join("    " + l for l in significant_lines(output)[-20:])
            raise BuildError(f"{shlex.join(cmd)} failed"
                             + (f" (exit status {status})" if status else "")
                             + (f":\n{tail}" if tail else ""))
    return kernel_info(os.path.join(root, target))
