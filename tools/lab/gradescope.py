"""A grade as Gradescope's results.json (its autograder specification,
gradescope-autograders.readthedocs.io, "Autograder Specifications",
"Output format"): make grade writes it beside its own JSON, and
tools/lab/run_autograder where Gradescope looks for it.

    {"score": 7,                      the lab's score: the tests' sum
     "output": "make grade: lab L1 ...",   the report's head and score line
     "output_format": "text", "test_output_format": "text",
                                      plain text, its spaces and line breaks
                                      kept: the default, simple_format, makes
                                      HTML paragraphs of it, where runs of
                                      spaces collapse and the report's
                                      columns with them
     "tests": [{"name": "L1 fold_copies_the_flag", "number": "1",
                "score": 2, "max_score": 2, "status": "passed",
                "output": "what the kernel said, the rerun command",
                "visibility": "visible"}, ...]}

One test per case of the rubric, held-out cases included (their
visibility is the rubric line's, after_published by default). Nothing in
it depends on the host (no execution_time), so the same tree gives the
same file, byte for byte, as it gives the same report.
"""

from __future__ import annotations

import json
import numbers

from tools.lib import lab as labmod

TOP_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format",
            "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
            "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output",
             "output_format", "tags", "visibility", "extra_data"}
STATUSES = ("passed", "failed")


def test_output(entry: dict) -> str:
    """What a student reads under a test: make grade's lines for it."""
    lines = [] if entry["status"] == "pass" else \
        [d if d.startswith("#") else f"# {d}" for d in entry["diagnostics"]]
    if entry["status"] == "pass":
        lines.append("ok" + (" (the instructions in build/fold.elf)" if entry["host"] else ""))
    if entry.get("rerun"):  # not the gdb command: it names the grader's own files
        lines.append(f"rerun: {entry['rerun']}")
    return "\n".join(lines)


def results(lab: labmod.Lab, entries: list[dict], head: list[str], score_line: str) -> dict:
    """results.json's object for a graded lab: entries are make grade's
    JSON cases ({"case", "status", "points", "max", "host", "diagnostics",
    and "rerun" for a failed one})."""
    visibility = {c.name: c.visibility for c in lab.cases}
    tests = []
    for n, e in enumerate(entries, 1):
        tests.append({"name": f"{lab.name} {e['case']}", "number": str(n),
                      "score": e["points"], "max_score": e["max"],
                      "status": "passed" if e["status"] == "pass" else "failed",
                      "output": test_output(e),
                      "visibility": visibility.get(e["case"], "visible")})
    return {"score": sum(t["score"] for t in tests), "output": "\n".join(head + [score_line]),
            "output_format": "text", "test_output_format": "text", "tests": tests}


def number(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def validate(obj) -> list[str]:
    """What in obj breaks the specification's shape (empty: none), with
    the promises make grade adds: every test has name, score, max_score,
    output and visibility; 0 <= score <= max_score; the top score is the
    tests' sum; names are unique."""
    if not isinstance(obj, dict):
        return [f"results.json is a {type(obj).__name__}, not an object"]
    problems = [f"unknown key {k!r}" for k in obj if k not in TOP_KEYS]
    tests = obj.get("tests")
    if not isinstance(tests, list) or not tests:
        return problems + ["no tests: a list of one object per case"]
    if not number(obj.get("score")):
        problems.append(f"score {obj.get('score')!r} is not a number")
    if "output" in obj and not isinstance(obj["output"], str):
        problems.append("output is not a string")
    names = set()
    for i, t in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(t, dict):
            problems.append(f"{where} is not an object")
            continue
        where = f"{where} ({t.get('name')!r})"
        problems += [f"{where}: unknown key {k!r}" for k in t if k not in TEST_KEYS]
        for k in ("name", "score", "max_score", "output", "visibility"):
            if k not in t:
                problems.append(f"{where}: no {k}")
        if not isinstance(t.get("name", ""), str) or not t.get("name"):
            problems.append(f"{where}: the name is not a non-empty string")
        elif t["name"] in names:
            problems.append(f"{where}: the name is given twice")
        names.add(t.get("name"))
        if not isinstance(t.get("output", ""), str):
            problems.append(f"{where}: output is not a string")
        if t.get("visibility", "visible") not in labmod.VISIBILITIES:
            problems.append(f"{where}: visibility {t.get('visibility')!r} is not one of "
                            + ", ".join(labmod.VISIBILITIES))
        if t.get("status", "passed") not in STATUSES:
            problems.append(f"{where}: status {t.get('status')!r} is not passed or failed")
        s, m = t.get("score"), t.get("max_score")
        if not number(s) or not number(m):
            problems.append(f"{where}: score {s!r} and max_score {m!r} are not both numbers")
        elif not 0 <= s <= m:
            problems.append(f"{where}: score {s} is not within 0..{m}")
    if number(obj.get("score")) and all(isinstance(t, dict) and number(t.get("score"))
                                        for t in tests) \
            and obj["score"] != sum(t["score"] for t in tests):
        problems.append(f"score {obj['score']} is not the tests' sum, "
                        f"{sum(t['score'] for t in tests)}")
    try:
        json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as e:
        problems.append(f"not JSON: {e}")
    return problems


def beside(grade_json: str) -> str:
    """make grade's default place: build/lab/L1.grade.json -> L1.gradescope.json."""
    base = grade_json[:-len(".grade.json")] if grade_json.endswith(".grade.json") else \
        grade_json.removesuffix(".json")
    return base + ".gradescope.json"


def write(path: str, obj: dict) -> None:
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, allow_nan=False)
        f.write("\n")
