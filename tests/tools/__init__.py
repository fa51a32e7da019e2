# The self-tests of the host tools in tools/ (each tool's --self-test
# imports its own from here) and the fakes they share.
