# A package only so that `from tools.lib import ...` finds tools/lib/ (the
# host tools' shared library) before any other "tools" on sys.path.
