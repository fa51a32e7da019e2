# The docs' checked excerpts: `make check-docs`, `make docs-update`.
#
# A Makefile fragment, included by the root Makefile; the work is done by
# tests/check-docs (see its --help). README.md and docs/*.md are cram tests
# (Debian's python3-cram): every "$ command" indented by two spaces in a
# fenced block runs from the top of the checkout and its output must be the
# lines below it (masked fields end in " (re)" or " (glob)").
#
#   make check-docs     the self-test (a doctored copy must fail), then
#                       every excerpt of README.md and docs/*.md
#   make docs-update    rewrite the excerpts from fresh output; review the
#                       diff (git diff README.md docs/) before committing
#
# Both need the build: the excerpts read build/fold.elf and boot it.

.PHONY: check-docs docs-update
check-docs: all
	$(Q)python3 tests/check-docs --self-test
	$(Q)python3 tests/check-docs

docs-update: all
	$(Q)python3 tests/check-docs --update
