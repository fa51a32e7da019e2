# A package only so that `from tests.tools import ...` finds the host
# tools' self-tests (tests/tools/) before any other "tests" on sys.path.
