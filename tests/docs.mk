# The docs' checked excerpts: `make check-docs`, `make docs-update`.
#
# A Makefile fragment, included by the root Makefile; the work is done by
# tests/check-docs (see its --help). README.md and docs/*.md are cram tests
# (Debian's python3-cram): every "$ command" indented by two spaces in a
# fenced block runs from the top of the checkout and its output must be the
# lines below it (masked fields end in " (re)" or " (glob)").
#
# A fenced block of `c` or `nasm` under a caption `FILE:LINE`, `NAME`: is a
# code excerpt: the same lines as the source's NAME (a function, a label,
# a marked region), starting at LINE (tools/lib/excerpts.py).
#
#   make check-docs     the self-test (a doctored copy must fail), then
#                       every excerpt of README.md and docs/*.md
#   make check-excerpts the code excerpts and the figures sourced from
#                       docs/EXPERIMENTS.md alone, with their self-test (no
#                       build, no QEMU: under a second; in make check)
#   make docs-update    rewrite the excerpts from fresh output, the code
#                       excerpts from the source and the figures from
#                       docs/EXPERIMENTS.md; review the diff (git diff
#                       README.md docs/) before committing
#
# check-docs and docs-update need the build: the output excerpts read
# build/fold.elf and boot it.

.PHONY: check-docs check-excerpts docs-update
check-docs: all
	$(Q)python3 tests/check-docs --self-test
	$(Q)python3 tests/check-docs

check-excerpts:
	$(Q)python3 tests/check-docs --excerpts-only --self-test
	$(Q)python3 tests/check-docs --excerpts-only

docs-update: all
	$(Q)python3 tests/check-docs --update
