# The labs (docs/10-labs.md): the Makefile includes this fragment.
#
#   make lab LAB=Ln [DEST=dir] [FORCE=1]   write lab Ln's student tree
#                   (default build/lab/Ln; FORCE=1 replaces an existing one)
#   make grade LAB=Ln [DEST=dir] [SEED=s,s] [CASE=name] [GRADE_JSON=file]
#                   [GRADE_EXTRA=dir]
#                   build it with the reference's tests, run the lab's cases
#                   under icount and report them, then every kernel suite (a
#                   boot of its own, kept for an unchanged tree), score them
#                   (build/lab/Ln.grade.json, and
#                   Ln.gradescope.json, or GRADE_GRADESCOPE=file); with
#                   GRADE_EXTRA, a course's held-out cases too
#   make lab-check  every skeleton fails its own cases and passes the others,
#                   the reference scores full marks, the variants of
#                   tests/tools/lab/ pass or fail as they say
#   make lab-mutants [LAB=Ln] [MUTANTS=id,id]
#                   each lab's mutation score: mutants of the reference's
#                   LAB regions graded as make grade grades a tree
#                   (tools/lab/mutants, tests/labs/equivalent-mutants)
#   make lab-mutants-sample
#                   a fixed sample of them (tests/labs/mutant-sample), each
#                   ending as that file says by the lab's own cases (no
#                   regression boot of every kernel suite): under a minute

LAB ?=
DEST ?=
SEED ?=
CASE ?=
GRADE_JSON ?=
GRADE_EXTRA ?=
GRADE_GRADESCOPE ?=
LAB_CHECK_JOBS ?= 2
MUTANTS ?=
MUTANT_JOBS ?= 2

.PHONY: lab grade lab-check lab-mutants lab-mutants-sample
lab:
	$(Q)python3 tools/lab/mklab $(call sq,$(LAB)) $(if $(DEST),--dest $(call sq,$(DEST))) \
		$(if $(filter 1,$(FORCE)),--force)

grade: tools
	$(Q)python3 tools/lab/grade $(call sq,$(LAB)) $(if $(DEST),--tree $(call sq,$(DEST))) \
		$(if $(SEED),--seed $(call sq,$(SEED))) $(if $(CASE),--case $(call sq,$(CASE))) \
		$(if $(GRADE_JSON),--json $(call sq,$(GRADE_JSON))) \
		$(if $(GRADE_EXTRA),--extra $(call sq,$(GRADE_EXTRA))) \
		$(if $(GRADE_GRADESCOPE),--gradescope $(call sq,$(GRADE_GRADESCOPE)))

lab-check: tools
	$(Q)python3 tools/lab/lab-check -j $(LAB_CHECK_JOBS)

lab-mutants: tools
	$(Q)python3 tools/lab/mutants -j $(MUTANT_JOBS) $(if $(LAB),$(call sq,$(LAB))) \
		$(if $(MUTANTS),--ids $(call sq,$(MUTANTS)))

lab-mutants-sample: tools
	$(Q)python3 tools/lab/mutants -j $(MUTANT_JOBS) --sample
