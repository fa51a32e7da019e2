# A package only so that `from tests.lib import ...` finds tests/lib/ (the
# host tools' shared library) before any other "tests" on sys.path.
