"""The self-tests of tests/check-docs's code excerpts and figures
(tests/check-docs --self-test runs them): the docs' first excerpt and
first sourced figure, in a scratch tree, doctored in the doc and in the
source or report; each doctored copy must fail, naming the lines, the
undoctored copy pass, and --update repair what it can.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile

from tools.lib import excerpts as excerpts_mod
from tools.lib import figures as figures_mod


def excerpts(root: str, names: list[str]) -> int:
    """The first code excerpt of the docs, in a copy of its own (the doc's
    caption and block, and the source file it quotes): as it is it must
    pass; doctored in the doc or in the source it must fail, naming the
    doc's line and the source's; --update must bring a stale one back."""
    found = None
    for name in names:
        with open(os.path.join(root, name)) as f:
            text = f.read()
        found = next(iter(excerpts_mod.parse(name, text)[0]), None)
        if found:
            break
    if found is None:
        print("not ok self-test: the docs have no code excerpt to doctor")
        return 1
    e = found
    # The block alone, at its own lines (blank lines above it), so that
    # the messages name the doc's real lines.
    lines = text.splitlines(True)
    block = ["\n"] * e.caption + lines[e.caption:e.close + 1]
    with open(os.path.join(root, e.file)) as f:
        src_lines = f.read().splitlines(True)
    region = excerpts_mod.resolve(root, e.file, e.name)
    # The last line of code it shows: where it is in the doc and the source.
    runs = excerpts_mod.segments(e.body)[0]
    starts, _ = excerpts_mod.match(e, region)
    code = e.caption + 2 + runs[-1][-1][0]      # caption, fence, then the body
    doc_line = code + 1
    src_line = region[starts[-1] + len(runs[-1]) - 1][0]

    def doctor_doc(copy):
        copy[code] = copy[code].rstrip("\n") + " /* doctored */\n"

    def doctor_caption(copy):
        copy[e.caption] = copy[e.caption].replace(f":{e.line}`", f":{e.line + 1}`")

    def doctor_source_line(src):
        src[src_line - 1] = src[src_line - 1].rstrip("\n") + " /* doctored */\n"

    def insert_above(src):
        src.insert(region[0][0] - 1, "\n")

    def rename(src):
        name = re.sub(r"[()]|^struct |^%macro ", "", e.name)
        src[region[0][0] - 1] = src[region[0][0] - 1].replace(name, name + "_renamed", 1)

    def duplicate(src):
        src.extend(["\n"] + [t + "\n" for _, t in region])

    def misnamed(copy):     # prose naming a function its file does not define
        copy.append(f"(`{e.file}`, `{e.name[:-2]}_elsewhere()`)\n")

    cases = [
        ("the undoctored copy passes", None, None, []),
        (f"one line doctored in the doc fails at its line and the source's",
         doctor_doc, None, [f"{e.doc}:{doc_line}", f"{e.file}:{src_line}"]),
        ("a caption one line off fails", doctor_caption, None,
         [f"{e.where()}", f"starts at {e.file}:{e.line} today"]),
        ("the source's line doctored fails", None, doctor_source_line,
         [f"{e.doc}:{doc_line}", f"{e.file}:{src_line}"]),
        ("a line added above it in the source fails (the caption is stale)",
         None, insert_above, [f"starts at {e.file}:{e.line + 1} today"]),
        ("its name gone from the source fails", None, rename, [f"{e.file} has no"]),
        ("its name defined twice fails", None, duplicate, [f"{e.file} has 2 of"]),
    ] + [("prose naming a function beside a file that has none fails", misnamed, None,
          [f"{e.file} has no {e.name[:-2]}_elsewhere()"])] * e.name.endswith("()")
    failed = 0
    tmp = tempfile.mkdtemp(prefix="check-docs-excerpt.")
    try:
        for what, doc_fix, src_fix, want in cases:
            copy, src = list(block), list(src_lines)
            if doc_fix:
                doc_fix(copy)
            if src_fix:
                src_fix(src)
            os.makedirs(os.path.join(tmp, os.path.dirname(e.file)), exist_ok=True)
            with open(os.path.join(tmp, e.file), "w") as f:
                f.writelines(src)
            text = "".join(copy)
            errors = excerpts_mod.check(tmp, e.doc, text)[1] + \
                excerpts_mod.named(tmp, e.doc, text)[1]
            said = "\n".join(errors)
            ok = (not errors) if not want else (errors and all(w in said for w in want))
            fixed = ""
            if want and ok and src_fix not in (rename, duplicate) and doc_fix is not misnamed:
                new, bad = excerpts_mod.update(tmp, e.doc, text)
                again = excerpts_mod.check(tmp, e.doc, new)[1]
                ok = not bad and not again and (src_fix or new == "".join(block))
                fixed = "; --update repairs it"
            print(f"{'ok' if ok else 'not ok'}   self-test: {e.where()}'s excerpt of "
                  f"{e.file} {e.name}: {what}{fixed}")
            for l in said.splitlines()[:1 if ok else 3]:
                print(f"      check-docs: {l}")
            failed += not ok
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"check-docs excerpt self-test: {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


def figures(root: str, names: list[str]) -> int:
    """The docs' first sourced figure, its doc and the report copied into
    a scratch tree: as they are they pass; the figure doctored, the
    report's cell doctored, or a bare figure beside it, each fails, naming
    the lines; --update brings the doctored figure back."""
    found = None
    for name in names:
        with open(os.path.join(root, name)) as f:
            text = f.read()
        for n, line in enumerate(text.splitlines(), 1):
            m = next((m for m in figures_mod.FIGURE_RE.finditer(line)
                      if "÷" not in m.group("cell")), None)   # one cell, not a ratio
            if m:
                found = (name, n, m)
                break
        if found:
            break
    if found is None:
        print("not ok self-test: the docs have no sourced figure to doctor")
        return 1
    name, n, m = found
    with open(os.path.join(root, figures_mod.REPORT)) as f:
        report = f.read()
    _, at, _ = figures_mod.cell(figures_mod.tables(report), m.group("entry"), m.group("cell"))
    fig = m.group("fig")
    wrong = fig[:-1] + str((int(fig[-1]) + 1) % 10)

    def doctor_figure(doc, rep):
        lines = doc.splitlines(True)
        lines[n - 1] = lines[n - 1].replace(f"[{fig}", f"[{wrong}", 1)
        return "".join(lines), rep

    def doctor_report(doc, rep):
        lines = rep.splitlines(True)
        cells = lines[at - 1].split("|")
        k = next(k for k, c in enumerate(cells) if c.strip().replace(",", "").startswith(
            fig.replace(",", "")))                  # the cell the figure is read from
        cut = cells[k].rstrip()
        cells[k] = cut[:-1] + str((int(cut[-1]) + 1) % 10) + cells[k][len(cut):]
        lines[at - 1] = "|".join(cells)
        return doc, "".join(lines)

    def bare(doc, rep):
        lines = doc.splitlines(True)
        lines[n - 1] = lines[n - 1].rstrip("\n") + " (in 4,321 ns)\n"
        return "".join(lines), rep

    def measured(doc, rep):
        return doc + "\nIt printed `fault[5]: segfault` and 800.16 ns mean.\n", rep

    cases = [("the undoctored copy passes", None, []),
             (f"the figure {fig} made {wrong} fails", doctor_figure,
              [f"{name}:{n}", f"{figures_mod.REPORT}:{at}"]),
             ("its cell doctored in the report fails", doctor_report,
              [f"{name}:{n}", f"{figures_mod.REPORT}:{at}"]),
             ("a bare figure beside it fails", bare, [f"{name}:{n}", "4,321 ns"]),
             ("a pid and a figure with decimals in a paragraph of their own fail",
              measured, ["fault[5]:", "800.16 ns"])]
    failed = 0
    tmp = tempfile.mkdtemp(prefix="check-docs-figure.")
    try:
        os.makedirs(os.path.join(tmp, "docs"))
        for what, doctor, want in cases:
            doc, rep = doctor(text, report) if doctor else (text, report)
            with open(os.path.join(tmp, figures_mod.REPORT), "w") as f:
                f.write(rep)
            errors = figures_mod.check(tmp, name, doc)[1]
            said = "\n".join(errors)
            ok = (not errors) if not want else (errors and all(w in said for w in want))
            fixed = ""
            if ok and doctor is doctor_figure:
                new, bad = figures_mod.update(tmp, name, doc)
                ok = not bad and new == text
                fixed = "; --update repairs it"
            print(f"{'ok' if ok else 'not ok'}   self-test: {name}:{n}'s figure "
                  f"{fig} ({m.group('entry').upper()}, \"{m.group('cell')}\"): {what}{fixed}")
            for l in said.splitlines()[:1 if ok else 3]:
                print(f"      check-docs: {l}")
            failed += not ok
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"check-docs figure self-test: {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0
