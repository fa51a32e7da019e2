# The self-tests of the host tools in tools/ (each tool's --self-test
# imports its own from here) and the fakes they share.

import tempfile


def run_tests(tests: list, names: list[str], prefix: str) -> int:
    """Each (name, fn) of tests whose name holds one of names (none: all),
    fn(a folder of its own) -> its problems; ok or FAILED and the problems,
    then the closing line. Exit status 0 when none failed."""
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        for name, fn in (t for t in tests if not names or any(n in t[0] for n in names)):
            problems = fn(tempfile.mkdtemp(dir=tmp))
            print(f"{'ok' if not problems else 'FAILED'}: {name}")
            print("".join(f"    - {p}\n" for p in problems), end="")
            passed, failed = passed + (not problems), failed + bool(problems)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def canned(name: str) -> str:
    """The text of tests/tools/lab/canned.txt after its "@@ name:" line."""
    with open(__file__.rsplit("/", 1)[0] + "/lab/canned.txt") as f:
        text = f.read().split(f"\n@@ {name}:", 1)[1].split("\n", 1)[1]
    return text.split("\n@@ ", 1)[0].rstrip("\n") + "\n"
